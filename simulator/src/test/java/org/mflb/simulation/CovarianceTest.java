package org.mflb.simulation;

import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.pools;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.Policy;

/**
 * The time-averaged stationary covariance N·Cov(X_i, X_j) of the tail coordinates (docs/models.md §4),
 * against closed forms. Under random routing the servers are independent, so N·X_i is a sum of N
 * independent indicators and, for every N,
 * <pre>
 *   N·Cov(X_i, X_j) = P(Q ≥ max(i, j)) − P(Q ≥ i)·P(Q ≥ j)
 * </pre>
 * with Q geometric (M/M/1) or Poisson (M/M/∞). For any non-blocking pool policy the total number of
 * tasks is Poisson(Nλ), so Σ_{i,j} N·Cov(X_i, X_j) = N·Var(Σ_i X_i) = λ.
 */
class CovarianceTest {

    @Test
    void randomPoolsAndQueuesMatchIndependentServers() {
        // 2 runs (pools, queues), one joint check each (the 10 distinct entries of one run's matrix come
        // from the same batch means and share the variances of the levels), each missing with
        // probability at most p = 0.01/2: none allowed, false alarm <= 2 x 0.5% = 1% (union bound)
        CiChecks checks = new CiChecks(0.01 / 2);
        int k = 4;
        // pools: Poisson(2); 20 batches of 95 time units (relaxation time 1)
        SimulationResult pools = Simulator.run(SimulationScenario.builder().model(pools(Policy.random(), 2))
                .servers(100).tEnd(2000).warmup(100).covarianceLevels(k).seed(51)
                .build());
        double[] pt = ClosedForms.poissonTail(2, k + 1);
        compare(checks, "pools", pools.covariance().orElseThrow(), pt, k);
        // queues: geometric with ratio 0.5; 20 batches of 190 time units (relaxation time ≈ 12)
        SimulationResult queues = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), 0.5))
                .servers(100).tEnd(4000).warmup(200).covarianceLevels(k).seed(52).build());
        double[] qt = new double[k + 1];
        for (int i = 0; i <= k; i++) {
            qt[i] = Math.pow(0.5, i);
        }
        compare(checks, "queues", queues.covariance().orElseThrow(), qt, k);
        checks.assertAtMostMisses(0);
    }

    private static void compare(CiChecks checks, String tag, MatrixEstimate cov, double[] tail, int k) {
        CiChecks.Joint joint = checks.joint(tag);
        for (int i = 1; i <= k; i++) {
            for (int j = i; j <= k; j++) {
                double truth = tail[Math.max(i, j)] - tail[i] * tail[j];
                joint.add("W_" + i + j, cov.get(i - 1, j - 1), truth, 0);
            }
        }
        joint.check();
    }

    @Test
    void totalTasksArePoissonUnderJoinTheShortestQueue() {
        // JSQ pools at λ = 3.5 hold 3 or 4 tasks; levels 1..7 carry all the mass (q_8 = 0 in practice)
        int k = 7;
        double lambda = 3.5;
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(pools(Policy.jsq(), lambda))
                .servers(100).tEnd(2000).warmup(100).covarianceLevels(k).seed(53).build());
        MatrixEstimate cov = r.covariance().orElseThrow();
        double sum = 0;
        double halfWidths = 0;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                sum += cov.get(i, j).mean();
                halfWidths += cov.get(i, j).halfWidth();
            }
        }
        // the interval of a sum of means is at most the sum of the entries' half-widths (triangle
        // inequality), a conservative 95% bound; widening it as a t-interval with 19 degrees of freedom
        // keeps it conservative at any level. One interval check at miss probability p = 0.01: allowing
        // its miss would make the test assert nothing, so none is allowed; false alarm <= 1%
        CiChecks checks = new CiChecks(0.01);
        checks.require("q_8 = " + r.tail().get(8).mean() + " is negligible", r.tail().get(8).mean() < 1e-6);
        checks.check("JSQ n Var(total tasks / n)", new Estimate(sum, sum - halfWidths, sum + halfWidths, 20), lambda, 0);
        checks.assertAtMostMisses(0);
    }
}
