package org.mflb.simulation;

import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.pools;
import static org.mflb.simulation.TestModels.loss;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;

/**
 * The simulated dispatchers against the exact stationary law of systems of three servers or pools
 * ({@link SmallSystemChain}), where every policy — including the 1/N difference between sampling d
 * distinct servers or with replacement — is visible and exactly computable. Every case runs on both
 * engines: the agent engine (the dispatchers' own algorithms) and the occupancy engine (the counts).
 */
class FiniteSystemExactTest {

    /** Exact chain vs one long run (20 batch means of 4 500 time units, ≫ the relaxation time). */
    private static void compare(CiChecks checks, String name, LoadBalancingModel model, int chainCap, int levels) {
        int n = 3;
        long t0 = System.nanoTime();
        boolean queues = model.system().kind() == ServerSystem.Kind.SUPERMARKET;
        SmallSystemChain exact = new SmallSystemChain(n, model.arrivalRate().at(0), queues, chainCap, model.policy());
        double chainSeconds = (System.nanoTime() - t0) * 1e-9;
        for (Engine engine : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(model).servers(n).tEnd(100_000)
                    .warmup(10_000).seed(11).threads(1).engine(engine).build());
            String label = name + " (" + engine.cliName() + ")";
            if (System.getenv("MFLB_TEST_VERBOSE") != null) {
                System.out.printf("%s: chain %.2f s, simulation %.2f s (%d events)%n", label, chainSeconds,
                        r.wallSeconds(), r.events());
            }
            // the levels of one run are correlated, and the blocking is x_C seen by arrivals (PASTA):
            // one joint check per run
            CiChecks.Joint joint = checks.joint(label).levels(r.tail(), 1,
                    Arrays.copyOfRange(exact.tail, 1, levels + 1), 0);
            if (model.system().isLossy()) {
                joint.add("blocking", r.blocking().orElseThrow(), exact.blocking, 0);
            }
            joint.check();
        }
    }

    @Test
    void policiesMatchExactChainsAtNEquals3() {
        // 16 runs (8 cases on 2 engines), one joint check each, each missing with probability at most
        // p = 0.01/16: none allowed, false alarm <= 16 x 0.0625% = 1% (union bound). Allowing misses
        // would leave a (policy, sampling, system, engine) case unchecked, each of which is checked by
        // this run only. The runs share seed 11 but differ in policy, sampling, system or engine, which
        // consume the stream differently, so their paths decouple within the first events
        CiChecks checks = new CiChecks(0.01 / 16);
        // queues, λ = 0.6, chain capped at 22 jobs per server: these policies' tails fall at least
        // geometrically with ratio ≤ 0.45 per level (x_4/x_3 above), so the truncated mass is < 1e-7
        Policy distinct = new Policy.PowerOfD(2, Sampling.DISTINCT);
        compare(checks, "SQ(2) distinct", queues(distinct, 0.6), 22, 4);
        compare(checks, "SQ(2) replacement", queues(Policy.powerOfD(2), 0.6), 22, 4);
        compare(checks, "JSQ", queues(Policy.jsq(), 0.6), 22, 4);
        compare(checks, "JIQ", queues(Policy.jiq(), 0.6), 22, 4);
        // infinite-server pools, λ = 2, capped at 16 tasks per pool: P(Poisson(2) ≥ 16) ≈ 1e-9
        compare(checks, "pools SQ(2)", pools(distinct, 2), 16, 4);
        compare(checks, "pools JSQ", pools(Policy.jsq(), 2), 16, 4);
        // loss pools with capacity 3: the chain's cap is the capacity, so it is exact
        compare(checks, "loss SQ(2) C=3", loss(3, distinct, 2), 3, 3);
        compare(checks, "loss JSQ C=3", loss(3, Policy.jsq(), 2), 3, 3);
        checks.assertAtMostMisses(0);
    }
}
