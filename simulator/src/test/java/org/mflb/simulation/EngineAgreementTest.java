package org.mflb.simulation;

import static org.mflb.simulation.TestModels.loss;
import static org.mflb.simulation.TestModels.pools;
import static org.mflb.simulation.TestModels.queues;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;

/**
 * The agent engine (every server and job, the dispatchers' own algorithms) and the occupancy engine
 * (the counts per level only) simulate the same Markov chain, so they must agree in law: at small N
 * (10–200), where finite-N effects are visible, their stationary means, tails, blocking, policy
 * statistics and conditional response-time quantiles agree within the confidence interval of their
 * difference. The two runs use different seeds, so they are independent samples: the difference {@code m_a − m_o} has the interval half-width
 * {@code √(h_a² + h_o²)} — at least the Welch interval's (t quantile with R − 1 rather than ≈ 2(R − 1)
 * degrees of freedom), hence conservative — and its truth is 0.
 */
class EngineAgreementTest {

    private static final int REPLICATIONS = 16;

    /** @return the difference of two independent estimates, with the interval of the difference */
    static Estimate difference(Estimate a, Estimate b) {
        double half = Math.hypot(a.halfWidth(), b.halfWidth());
        double mean = a.mean() - b.mean();
        return new Estimate(mean, mean - half, mean + half, Math.min(a.samples(), b.samples()));
    }

    private static void agree(CiChecks checks, String name, ScenarioBuilder b, int levels) {
        b.replications(REPLICATIONS).threads(2);
        SimulationResult agent = Simulator.run(b.engine(Engine.AGENT).build());
        // another seed: with the same one the engines share the event-time draws, and in pools the
        // number of tasks (an M/M/infinity process whatever the policy) would follow the same path
        SimulationResult occupancy = Simulator.run(b.engine(Engine.OCCUPANCY).seed(b.build().run().seed() + 1000)
                .build());
        CiChecks.Joint joint = checks.joint(name);
        for (int i = 1; i <= levels; i++) {
            joint.add("x_" + i, difference(agent.tail().get(i), occupancy.tail().get(i)), 0, 0);
        }
        joint.add("mean queue", difference(agent.meanQueueLength(), occupancy.meanQueueLength()), 0, 0);
        agent.blocking().ifPresent(e -> joint.add("blocking", difference(e, occupancy.blocking().orElseThrow()), 0, 0));
        agent.meanResponseTime().ifPresent(e -> joint.add("mean response",
                difference(e, occupancy.meanResponseTime().orElseThrow()), 0, 0));
        for (int j = 0; j < agent.responseTimeQuantiles().size(); j++) {
            QuantileEstimate q = agent.responseTimeQuantiles().get(j);
            joint.add("response p" + q.p(),
                    difference(q.estimate(), occupancy.responseTimeQuantiles().get(j).estimate()), 0, 0);
        }
        agent.policyStatistics().forEach((key, e) -> {
            if (!key.equals("meanThreshold") || b.build().model().policy() instanceof Policy.AdaptiveThreshold) {
                joint.add(key, difference(e, occupancy.policyStatistics().get(key)), 0, 0);
            }
        });
        joint.check();
    }

    /** Replications of {@code tEnd} time units, the first tenth discarded. */
    private static ScenarioBuilder of(LoadBalancingModel model, int n, double tEnd, long seed) {
        return SimulationScenario.builder().model(model).servers(n).tEnd(tEnd).warmup(tEnd / 10).seed(seed);
    }

    @Test
    void enginesAgreeInLawAtSmallN() {
        // 9 pairs of runs, one joint check each, each missing with probability at most p = 0.01/9: none
        // allowed, false alarm <= 9 x 0.11% = 1% (union bound). Each pair checks one (policy, system),
        // so no miss may be allowed
        CiChecks checks = new CiChecks(0.01 / 9);
        double[] ps = {50, 90, 99};
        agree(checks, "SQ(2) distinct N=20", of(queues(Policy.powerOfD(2), 0.9), 20, 4000, 1).percentiles(ps), 5);
        agree(checks, "SQ(3) replacement N=10", of(queues(Policy.powerOfD(3), 0.85), 10, 4000, 2).percentiles(ps), 4);
        agree(checks, "JSQ N=50", of(queues(Policy.jsq(), 0.95), 50, 1000, 3).percentiles(ps), 3);
        agree(checks, "JIQ N=100", of(queues(Policy.jiq(), 0.9), 100, 600, 4).percentiles(ps), 4);
        agree(checks, "random N=10", of(queues(Policy.random(), 0.7), 10, 3000, 5).percentiles(ps), 4);
        agree(checks, "threshold 3 pools N=50", of(pools(new Policy.Threshold(3), 2.5), 50, 600, 6), 5);
        agree(checks, "adaptive threshold pools N=30", of(pools(new Policy.AdaptiveThreshold(0.3, 0), 2.5), 30, 1000, 7),
                5);
        agree(checks, "loss SQ(2) C=4 N=20", of(loss(4, Policy.powerOfD(2), 3.5), 20, 1000, 8), 4);
        agree(checks, "loss JSQ C=3 N=200", of(loss(3, Policy.jsq(), 2.9), 200, 300, 9), 3);
        checks.assertAtMostMisses(0);
    }
}
