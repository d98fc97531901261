package org.mflb.simulation;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * The simulated dispatchers against the exact stationary law of systems of three servers or pools
 * ({@link SmallSystemChain}), where every policy — including the 1/N difference between sampling d
 * distinct servers or with replacement — is visible and exactly computable. Every case runs on both
 * engines: the agent engine (the dispatchers' own algorithms) and the occupancy engine (the counts).
 */
class FiniteSystemExactTest {

    /** Exact chain vs one long run (20 batch means of 4 500 time units, ≫ the relaxation time). */
    private static void compare(CiChecks checks, String name, SystemKind system, Policy policy, Sampling sampling,
            double lambda, int capacity, int chainCap, int levels) {
        int n = 3;
        long t0 = System.nanoTime();
        SmallSystemChain exact = new SmallSystemChain(n, lambda, system.isQueue(), chainCap, policy, 2,
                sampling == Sampling.DISTINCT);
        double chainSeconds = (System.nanoTime() - t0) * 1e-9;
        for (Engine engine : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
            SimulationScenario.Builder b = SimulationScenario.builder().system(system).policy(policy).d(2)
                    .sampling(sampling).servers(n).lambda(lambda).tEnd(100_000).warmup(10_000).seed(11).threads(1)
                    .engine(engine);
            if (system == SystemKind.LOSS) {
                b.capacity(capacity);
            }
            SimulationResult r = Simulator.run(b.build());
            String label = name + " (" + engine.cliName() + ")";
            if (System.getenv("MFLB_TEST_VERBOSE") != null) {
                System.out.printf("%s: chain %.2f s, simulation %.2f s (%d events)%n", label, chainSeconds,
                        r.wallSeconds(), r.events());
            }
            // the levels of one run are correlated, and the blocking is x_C seen by arrivals (PASTA):
            // one joint check per run
            CiChecks.Joint joint = checks.joint(label).levels(r.tail(), 1,
                    Arrays.copyOfRange(exact.tail, 1, levels + 1), 0);
            if (system == SystemKind.LOSS) {
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
        compare(checks, "SQ(2) distinct", SystemKind.SUPERMARKET, Policy.SQD, Sampling.DISTINCT, 0.6, 0, 22, 4);
        compare(checks, "SQ(2) replacement", SystemKind.SUPERMARKET, Policy.SQD, Sampling.REPLACEMENT, 0.6, 0, 22, 4);
        compare(checks, "JSQ", SystemKind.SUPERMARKET, Policy.JSQ, Sampling.DISTINCT, 0.6, 0, 22, 4);
        compare(checks, "JIQ", SystemKind.SUPERMARKET, Policy.JIQ, Sampling.DISTINCT, 0.6, 0, 22, 4);
        // infinite-server pools, λ = 2, capped at 16 tasks per pool: P(Poisson(2) ≥ 16) ≈ 1e-9
        compare(checks, "pools SQ(2)", SystemKind.POOLS, Policy.SQD, Sampling.DISTINCT, 2, 0, 16, 4);
        compare(checks, "pools JSQ", SystemKind.POOLS, Policy.JSQ, Sampling.DISTINCT, 2, 0, 16, 4);
        // loss pools with capacity 3: the chain's cap is the capacity, so it is exact
        compare(checks, "loss SQ(2) C=3", SystemKind.LOSS, Policy.SQD, Sampling.DISTINCT, 2, 3, 3, 3);
        compare(checks, "loss JSQ C=3", SystemKind.LOSS, Policy.JSQ, Sampling.DISTINCT, 2, 3, 3, 3);
        checks.assertAtMostMisses(0);
    }
}
