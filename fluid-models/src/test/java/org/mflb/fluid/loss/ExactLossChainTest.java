package org.mflb.fluid.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.SmoothRouting;

/**
 * The exact N-pool chain as the truth of the finite-N blocking approximations (N = 2..15, C = 5):
 * below the asymptotic regime, so no orders are fitted here; the chain itself is checked by
 * Erlang-B (d = 1, every N) and by Little's law.
 */
class ExactLossChainTest {

    private static final int C = 5;

    @Test
    void randomRoutingIsErlangBForEveryN() {
        double lambda = 4.0;
        LossPoolLimit limit = LossPoolLimit.of(C, org.mflb.fluid.RandomRouting.INSTANCE, lambda);
        for (int n : new int[] {1, 3, 7}) {
            ExactLossChain chain = ExactLossChain.of(C, 1, false, n, lambda);
            assertEquals(limit.blocking(), chain.blocking(), 1e-12, "N = " + n);
            double[][] cov = chain.scaledCovariance();
            for (int i = 0; i < C; i++) {
                assertEquals(limit.fixedPoint()[i], chain.meanTail()[i], 1e-12);
                for (int j = 0; j < C; j++) {
                    // independent pools: N Cov(x_i, x_j) = W_ij exactly for every N
                    assertEquals(limit.covariance().get(i, j), cov[i][j], 1e-11);
                }
            }
        }
    }

    @Test
    void pastaAndLittleAgree() {
        for (boolean distinct : new boolean[] {false, true}) {
            ExactLossChain chain = ExactLossChain.of(C, 2, distinct, 8, 4.5);
            assertEquals(chain.blocking(), chain.blockingByLittle(), 1e-11);
        }
    }

    @Test
    void refinedBlockingConvergesToTheExactChain() {
        for (SmoothRouting policy : new SmoothRouting[] {PowerOfD.withReplacement(2), PowerOfD.distinct(2, 2)}) {
            boolean distinct = policy.dependsOnSize();
            LossPoolLimit limit = LossPoolLimit.of(C, policy, 4.5);
            double previous = Double.POSITIVE_INFINITY;
            for (int n = 2; n <= 15; n++) {
                double exact = ExactLossChain.of(C, 2, distinct, n, 4.5).blocking();
                BlockingApproximations b = BlockingApproximations.at(limit, 0, n);
                double refinedError = Math.abs(b.refined() - exact);
                double meanFieldError = Math.abs(b.meanField() - exact);
                assertTrue(refinedError < previous, policy.name() + " N = " + n);
                previous = refinedError;
                if (n == 10) {
                    // measured: 37x (replacement), 10x (distinct)
                    assertTrue(refinedError * 5 < meanFieldError, policy.name() + ": " + refinedError + " vs " + meanFieldError);
                }
                if (n >= 15) {
                    // measured 1.6e-4 (replacement), 3.7e-4 (distinct)
                    assertTrue(refinedError <= 0.1 / (n * n), policy.name() + " N = " + n + ": " + refinedError);
                }
            }
        }
    }

    @Test
    void withBetaTheRefinedAtLambdaNTracksTheExactChain() {
        // lambda_N = 4.5 -/+ 1/sqrt(N). Measured N^2 x error of the refined approximation: beta = -1:
        // -0.006 (N = 15..20); beta = 1 (lambda_N = 4.24): 0.107 at N = 15, 0.099 at N = 17, 0.089 at
        // N = 20, so the 0.1/N^2 bar holds from N = 17 at this load.
        double sigma = 4.5;
        LossPoolLimit limit = LossPoolLimit.of(C, PowerOfD.withReplacement(2), sigma);
        int n = 17;
        for (double beta : new double[] {-1, 1}) {
            BlockingApproximations b = BlockingApproximations.at(limit, beta, n);
            double exact = ExactLossChain.of(C, 2, false, n, b.lambdaN()).blocking();
            assertTrue(Math.abs(b.refined() - exact) <= 0.1 / (n * n), "beta " + beta);
            // every finite-N correction improves on the mean field at sigma
            for (BlockingApproximations.Kind k : BlockingApproximations.Kind.values()) {
                if (k != BlockingApproximations.Kind.MEAN_FIELD) {
                    assertTrue(Math.abs(b.get(k) - exact) < Math.abs(b.meanField() - exact), k + " beta " + beta);
                }
            }
        }
    }

    @Test
    void scaledCovarianceApproachesW() {
        // N |N Cov - W|_max measured 0.370, 0.365, 0.349 at N = 5, 10, 15: an O(1/N) correction
        LossPoolLimit limit = LossPoolLimit.of(C, PowerOfD.withReplacement(2), 4.5);
        for (int n : new int[] {5, 15}) {
            double[][] cov = ExactLossChain.of(C, 2, false, n, 4.5).scaledCovariance();
            double worst = 0;
            for (int i = 0; i < C; i++) {
                for (int j = 0; j < C; j++) {
                    worst = Math.max(worst, Math.abs(cov[i][j] - limit.covariance().get(i, j)));
                }
            }
            assertTrue(worst * n < 0.4, "N = " + n + ": " + worst);
        }
    }
}
