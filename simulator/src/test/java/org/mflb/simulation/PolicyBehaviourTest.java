package org.mflb.simulation;

import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.pools;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;

/**
 * Large-N behaviour of the policies against their known limits (docs/models.md §1–2) and against exact
 * finite-N identities: x_1 = λ for every policy in single-server queues (the fraction of busy
 * servers equals the load), and a mean of λ tasks per pool for every non-blocking policy (the
 * pools together form one M/G/∞ system).
 */
class PolicyBehaviourTest {

    /**
     * SQ(2), N = 1000, λ = 0.9 against the fluid fixed point x_i = λ^(2^i − 1) (computed here, not
     * by the fluid module). The simulation carries an O(1/N) bias: on long runs (8 × 2 700 time
     * units, 43·10⁶ events) it measured below 1.5/N per coordinate for both sampling modes, so the
     * slack is 2/N.
     */
    @Test
    void powerOfTwoApproachesItsFluidFixedPoint() {
        int n = 1000;
        double lambda = 0.9;
        // 2 joint checks (two sampling modes), each missing with probability at most p = 0.01/2: none
        // allowed, false alarm <= 2 x 0.5% = 1% (union bound); both modes are checked
        CiChecks checks = new CiChecks(0.01 / 2);
        for (Sampling sampling : Sampling.values()) {
            SimulationResult r = Simulator.run(SimulationScenario.builder()
                    .model(queues(new Policy.PowerOfD(2, sampling), lambda))
                    .servers(n).tEnd(2200).warmup(200).seed(31).build());
            // the levels of one run are correlated: one joint check (x_1 = λ exact, no slack)
            CiChecks.Joint joint = checks.joint(sampling.id()).add("x_1 (exact)", r.tail().get(1), lambda, 0);
            for (int i = 2; i <= 6; i++) {
                joint.add("x_" + i, r.tail().get(i), Math.pow(lambda, Math.pow(2, i) - 1), 2.0 / n);
            }
            joint.check();
        }
        checks.assertAtMostMisses(0);
    }

    /**
     * JSQ keeps queues within one job of each other almost always: at N = 100, λ = 0.9 (Halfin–Whitt
     * scaling, β = (1−λ)√N = 1) the fraction of queues with ≥ 2 jobs is O(1/√N) and queues of 3 are
     * practically absent, while SQ(2) at the same N has most queues at ≥ 2.
     */
    @Test
    void joinShortestQueueBalancesQueues() {
        // 1 interval check (x_1 = λ exactly, for every policy) at miss probability p = 0.01: allowing
        // its miss would make it assert nothing, so none is allowed; false alarm <= 1%
        CiChecks checks = new CiChecks(0.01);
        SimulationResult jsq = Simulator.run(SimulationScenario.builder().model(queues(Policy.jsq(), 0.9)).servers(100)
                .tEnd(3000).warmup(300).seed(32).build());
        checks.check("JSQ x_1 (exact)", jsq.tail().get(1), 0.9, 0);
        double x2 = jsq.tail().get(2).mean();
        double x3 = jsq.tail().get(3).mean();
        checks.require("JSQ x_2 = " + x2 + " <= 0.1", x2 <= 0.1);
        checks.require("JSQ x_3 = " + x3 + " <= 1e-3", x3 <= 1e-3);
        SimulationResult sq2 = Simulator.run(SimulationScenario.builder().model(queues(Policy.powerOfD(2), 0.9))
                .servers(100)
                .tEnd(1000).warmup(100).seed(32).build());
        checks.require("SQ(2) x_2 = " + sq2.tail().get(2).mean() + " >= 5 JSQ x_2",
                sq2.tail().get(2).mean() >= 5 * x2);
        checks.assertAtMostMisses(0);
    }

    /**
     * JIQ and SQ(d) with memory below 1 − 1/d send (almost) every job to an idle server in large
     * systems (Anselmi–Dufour: optimal iff λ < 1 − 1/d); above it, memory bounds queue lengths by
     * −ln(1−λ)/ln(1+λd) (2.24 for λ = 0.9, d = 2: no queue above 3).
     */
    @Test
    void idleAssignmentAndMemoryLimits() {
        // 3 interval checks, one per run (seed 33 is shared by JIQ and memory, but they consume it
        // differently), each missing with probability at most p = 0.01/3: none allowed, false alarm
        // <= 3 x 0.33% = 1% (union bound); every policy and load is checked
        CiChecks checks = new CiChecks(0.01 / 3);
        for (Policy p : new Policy[] {Policy.jiq(), new Policy.Memory(2, Sampling.REPLACEMENT)}) {
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(p, 0.4)).servers(1000)
                    .tEnd(200).warmup(20).seed(33).build());
            checks.check(p.id() + " x_1 (exact)", r.tail().get(1), 0.4, 0);
            checks.require(p.id() + " idle fraction " + r.idleArrivalFraction().mean() + " >= 0.999",
                    r.idleArrivalFraction().mean() >= 0.999);
            checks.require(p.id() + " x_2 " + r.tail().get(2).mean() + " <= 1e-3", r.tail().get(2).mean() <= 1e-3);
        }
        SimulationResult mem = Simulator.run(SimulationScenario.builder()
                .model(queues(new Policy.Memory(2, Sampling.REPLACEMENT), 0.9)).servers(1000).tEnd(300).warmup(50)
                .seed(34).build());
        SimulationResult sq2 = Simulator.run(SimulationScenario.builder().model(queues(Policy.powerOfD(2), 0.9))
                .servers(1000).tEnd(300).warmup(50).seed(34).build());
        checks.check("memory x_1 (exact)", mem.tail().get(1), 0.9, 0);
        checks.require("memory x_4 = " + mem.tail().get(4).mean() + " <= 1e-4", mem.tail().get(4).mean() <= 1e-4);
        checks.require("memory x_3 " + mem.tail().get(3).mean() + " < SQ(2) x_3 " + sq2.tail().get(3).mean(),
                mem.tail().get(3).mean() < sq2.tail().get(3).mean());
        checks.assertAtMostMisses(0);
    }

    /**
     * Pools, n = 500, λ = 10.5: JSQ keeps every pool at 10 or 11 tasks (the balanced state q*,
     * docs/models.md §2) while SQ(2) spreads them; every non-blocking policy has mean λ tasks per pool,
     * also with non-exponential service (M/G/∞ overall).
     */
    @Test
    void poolPoliciesBalanceAndConserveMass() {
        // 8 interval checks of the mean tasks, one per run (seed 36 is shared, but each policy consumes
        // it differently, so the streams decouple at the first dispatch; measured means differ), each
        // missing with probability at most p = 0.01/8: none allowed, false alarm <= 8 x 0.125% = 1%
        // (union bound). Allowing 2 misses at p = 0.05 (P(Binomial(8, 0.05) > 2) = 0.58%) would leave a
        // policy (its two runs) unchecked, allowing 1 a (policy, service law) pair, e.g. JIQ on the
        // event-calendar engine (uniform service)
        CiChecks checks = new CiChecks(0.01 / 8);
        double lambda = 10.5;
        SimulationResult jsq = Simulator.run(SimulationScenario.builder().model(pools(Policy.jsq(), lambda))
                .servers(500).tEnd(60).warmup(10).seed(35).build());
        checks.require("JSQ q_10 = " + jsq.tail().get(10).mean() + " >= 0.99", jsq.tail().get(10).mean() >= 0.99);
        checks.require("JSQ q_12 = " + jsq.tail().get(12).mean() + " <= 0.01", jsq.tail().get(12).mean() <= 0.01);
        SimulationResult sq2 = Simulator.run(SimulationScenario.builder().model(pools(Policy.powerOfD(2), lambda))
                .servers(500).tEnd(60).warmup(10).seed(35).build());
        checks.require("SQ(2) q_12 = " + sq2.tail().get(12).mean() + " >= 0.1", sq2.tail().get(12).mean() >= 0.1);
        checks.require("SQ(2) q_9 = " + sq2.tail().get(9).mean() + " <= 0.99", sq2.tail().get(9).mean() <= 0.99);
        for (Policy p : new Policy[] {Policy.random(), Policy.powerOfD(2), Policy.jsq(), Policy.jiq()}) {
            for (ServiceDistribution g : new ServiceDistribution[] {Exponential.unit(), TestDistributions.uniform02()}) {
                SimulationResult r = Simulator.run(SimulationScenario.builder().model(pools(p, 2.5).withService(g))
                        .servers(200).tEnd(200).warmup(20).seed(36).build());
                checks.check(p.id() + " " + g.spec() + " mean tasks", r.meanQueueLength(),
                        2.5, 0);
            }
        }
        checks.assertAtMostMisses(0);
    }
}
