package org.mflb.simulation;

import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.pools;
import static org.mflb.simulation.TestModels.loss;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;

/**
 * Laws that hold exactly for every N: under random routing each server is an independent M/G/1
 * queue (M/G/∞ pool, Erlang loss pool) with arrival rate λ (docs/models.md §1–2), so the simulated tail
 * vector, mean queue length, response and waiting times and blocking must match the classical
 * formulas within their 95% intervals.
 */
class ExactLawsTest {

    /** M/M/1: x_i = λ^i, L = λ/(1−λ), W = 1/(1−λ), W_q = λ/(1−λ); fast path and calendar engine. */
    @Test
    void randomRoutingGivesMM1() {
        double lambda = 0.7;
        // 2 joint checks (two engines, independent streams), each missing with probability at most
        // p = 0.01/2: none allowed, false alarm <= 2 x 0.5% = 1% (union bound); a bug in either engine
        // fails the test
        CiChecks checks = new CiChecks(0.01 / 2);
        for (boolean calendar : new boolean[] {false, true}) {
            // 8 replications of 600 time units after a warm-up of 150 (the M/M/1 relaxation time at
            // λ = 0.7 is 1/(1−√λ)² ≈ 37); 500 servers average out most of the noise
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), lambda))
                    .servers(500).eventCalendar(calendar).tEnd(750).warmup(150).replications(8).seed(21).build());
            // one joint check per run: the levels of one run are correlated, L = Σ x_i is their sum,
            // and W, W_q are tied to L by Little's law (L = λW) and W = W_q + 1
            CiChecks.Joint joint = checks.joint(calendar ? "calendar" : "fast");
            for (int i = 1; i <= 8; i++) {
                joint.add("x_" + i, r.tail().get(i), Math.pow(lambda, i), 0);
            }
            joint.add("L", r.meanQueueLength(), lambda / (1 - lambda), 0);
            joint.add("W", r.meanResponseTime().orElseThrow(), 1 / (1 - lambda), 0);
            joint.add("Wq", r.meanWaitingTime().orElseThrow(), lambda / (1 - lambda), 0);
            joint.check();
        }
        checks.assertAtMostMisses(0);
    }

    /**
     * M/G/1 (Pollaczek–Khinchine): L = λ + λ²E[S²]/(2(1−λ)), W_q = λE[S²]/(2(1−λ)), and x_1 = λ,
     * for uniform(0, 2) service (E[S²] = 4/3) and H2 service with SCV 4 (E[S²] = 5).
     */
    @Test
    void randomRoutingGivesPollaczekKhinchine() {
        // 2 joint checks (two service laws), each missing with probability at most p = 0.01/2: none
        // allowed, false alarm <= 2 x 0.5% = 1% (union bound); every law is checked
        CiChecks checks = new CiChecks(0.01 / 2);
        Object[][] cases = {{TestDistributions.uniform02(), 0.7}, {TestDistributions.h2(4), 0.6}};
        for (Object[] c : cases) {
            ServiceDistribution g = (ServiceDistribution) c[0];
            double lambda = (Double) c[1];
            double s2 = g.moment(2);
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), lambda)
                    .withService(g)).servers(500).tEnd(1000).warmup(200).replications(8).seed(22).build());
            double wq = lambda * s2 / (2 * (1 - lambda));
            // one joint check per run: the busy fraction x_1, L, W_q and W of one run are tied by
            // Little's law (L = λW, x_1 = λE[S]) and W = W_q + E[S]
            checks.joint(g.spec())
                    .add("x_1", r.tail().get(1), lambda, 0)
                    .add("L", r.meanQueueLength(), lambda + lambda * wq, 0)
                    .add("Wq", r.meanWaitingTime().orElseThrow(), wq, 0)
                    .add("W", r.meanResponseTime().orElseThrow(), wq + 1, 0)
                    .check();
        }
        checks.assertAtMostMisses(0);
    }

    /**
     * The same laws with solver-core's service distributions (parsed from their command-line
     * specifications): M/D/1 and M/E_2/1 against Pollaczek–Khinchine, and M/G/∞ with log-normal and
     * Pareto service against Poisson(λ).
     */
    @Test
    void solverCoreDistributionsGiveTheClassicalLaws() {
        // 4 joint checks (four service laws), each missing with probability at most p = 0.01/4: none
        // allowed, false alarm <= 4 x 0.25% = 1% (union bound); every law is checked
        CiChecks checks = new CiChecks(0.01 / 4);
        double lambda = 0.7;
        for (String spec : new String[] {"det", "erlang:k=2"}) {
            ServiceDistribution g = ServiceDistributions.parse(spec);
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), lambda)
                    .withService(g)).servers(500).tEnd(800).warmup(100).seed(26).build());
            double wq = lambda * g.moment(2) / (2 * (1 - lambda));
            // L and W_q of one run are tied by Little's law (L = λ(W_q + 1)): one joint check
            checks.joint(spec).add("L", r.meanQueueLength(), lambda + lambda * wq, 0)
                    .add("Wq", r.meanWaitingTime().orElseThrow(), wq, 0).check();
        }
        double[] poisson = ClosedForms.poissonTail(2, 7);
        for (String spec : new String[] {"lognormal:scv=4", "pareto:shape=2.5"}) {
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(pools(Policy.random(), 2)
                    .withService(ServiceDistributions.parse(spec))).servers(300).tEnd(800)
                    .warmup(100).seed(27).build());
            // the six levels of one run are one joint check
            checks.checkJointly(spec + " x_1..x_6", r.tail(), 1, Arrays.copyOfRange(poisson, 1, 7));
        }
        checks.assertAtMostMisses(0);
    }

    /** M/G/∞ is insensitive: each random pool holds Poisson(λ) tasks, for any service law. */
    @Test
    void randomPoolsArePoisson() {
        double lambda = 3;
        // 3 joint checks (three service laws), each missing with probability at most p = 0.01/3: none
        // allowed, false alarm <= 3 x 0.33% = 1% (union bound); every law is checked
        CiChecks checks = new CiChecks(0.01 / 3);
        double[] truth = ClosedForms.poissonTail(lambda, 10);
        ServiceDistribution[] laws = {Exponential.unit(), TestDistributions.uniform02(), TestDistributions.h2(4)};
        for (ServiceDistribution g : laws) {
            // one long run, 20 batches of 18 time units (relaxation time ~ the mean service time 1,
            // up to ~ 1/min rate = 5.8 for the slow phase of H2(4))
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(pools(Policy.random(), lambda)
                    .withService(g)).servers(300).tEnd(400).warmup(40).seed(23)
                    .build());
            // the levels of one run and their sum L = Σ x_i: one joint check
            checks.joint(g.spec()).levels(r.tail(), 1, Arrays.copyOfRange(truth, 1, truth.length), 0)
                    .add("L", r.meanQueueLength(), lambda, 0).check();
        }
        checks.assertAtMostMisses(0);
    }

    /** Random loss pools are Erlang loss systems: blocking = Erlang-B(λ, C), insensitive to the service law. */
    @Test
    void randomLossPoolsGiveErlangB() {
        double lambda = 4;
        int capacity = 5;
        // 2 joint checks (two service laws), each missing with probability at most p = 0.01/2: none
        // allowed, false alarm <= 2 x 0.5% = 1% (union bound); every law is checked
        CiChecks checks = new CiChecks(0.01 / 2);
        double[] truth = ClosedForms.truncatedPoissonTail(lambda, capacity);
        ServiceDistribution[] laws = {Exponential.unit(), TestDistributions.h2(4)};
        for (ServiceDistribution g : laws) {
            SimulationResult r = Simulator.run(SimulationScenario.builder()
                    .model(loss(capacity, Policy.random(), lambda).withService(g)).servers(300).tEnd(400).warmup(40)
                    .seed(24)
                    .build());
            String tag = g.spec();
            // the levels of one run and the blocking (= x_C seen by arrivals, by PASTA): one joint check
            checks.joint(tag).add("blocking", r.blocking().orElseThrow(), ClosedForms.erlangB(lambda, capacity), 0)
                    .levels(r.tail(), 1, Arrays.copyOfRange(truth, 1, capacity + 1), 0).check();
            checks.require(tag + " no pool above capacity", r.tail().size() <= capacity + 1);
        }
        checks.assertAtMostMisses(0);
    }

    /**
     * Little's law L = λW links the time-averaged number in system and the per-job response times,
     * which the simulator estimates independently (areas under c_i versus FIFO arrival stamps).
     * On one sample path L_T − λ_T·W_T is only an edge effect (jobs in system at the ends of the
     * window), so the difference must be well inside the two intervals combined.
     */
    @Test
    void littlesLawLinksQueueLengthAndResponseTime() {
        // 6 interval checks of the arrival rate, one per run (the runs share seed 25 but consume it
        // differently, so their streams decouple at the first dispatch), each missing with probability
        // at most p = 0.01/6: none allowed, false alarm <= 6 x 0.17% = 1% (union bound). Allowing 2
        // misses at p = 0.05 (P(Binomial(6, 0.05) > 2) = 0.22%) would leave one policy, its two runs,
        // unchecked
        CiChecks checks = new CiChecks(0.01 / 6);
        Policy[] policies = {Policy.powerOfD(2), Policy.jiq(), new Policy.Memory(2, Sampling.REPLACEMENT)};
        for (Policy p : policies) {
            for (ServiceDistribution g : new ServiceDistribution[] {Exponential.unit(), TestDistributions.h2(4)}) {
                SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(p, 0.9).withService(g))
                        .servers(200).tEnd(1000).warmup(100).seed(25).build());
                double l = r.meanQueueLength().mean();
                Estimate w = r.meanResponseTime().orElseThrow();
                double lambdaHat = r.arrivalRate().mean();
                double tolerance = r.meanQueueLength().halfWidth() + lambdaHat * w.halfWidth();
                String tag = p.id() + " " + g.spec();
                checks.require(String.format("%s: L = %.5f, lambda W = %.5f, tolerance %.5f", tag, l,
                        lambdaHat * w.mean(), tolerance), Math.abs(l - lambdaHat * w.mean()) <= tolerance);
                // and the measured arrival rate is λ
                checks.check(tag + " arrival rate", r.arrivalRate(), 0.9, 0);
            }
        }
        checks.assertAtMostMisses(0);
    }
}
