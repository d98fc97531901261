package org.mflb.fluid.loss;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Approximations of the blocking probability {@code P_B^N} of {@code N} loss pools under JSQ(d)
 * with arrivals at rate {@code N λ_N}, {@code λ_N = σ − β/√N} ({@code docs/models.md §8}). With
 * {@code x*} the fixed point at {@code σ}, {@code ′ = d/dλ} and {@code R_B} the 1/N term of
 * {@link LossPoolLimit#blockingCorrection()}:
 * <pre>
 *   mean field            P0 = h(x*_C(σ))                                   O(N^-1/2) if β ≠ 0, O(1/N) if β = 0
 *   OU mean               P0 + h′(x*_C) m_C / √N,   m = −β x*′               O(1/N)
 *   mean field at λ_N     h(x*_C(λ_N))                                       O(1/N)
 *   refined               h(x*_C(λ_N)) + R_B(λ_N) / N                        O(1/N²)
 *   two-term              P0 + p1/√N + p2/N                                  O(N^-3/2)
 *   p1 = −β h′(x*_C) x*_C′,   p2 = R_B(σ) + ½ β² (h″(x*_C) x*_C′² + h′(x*_C) x*_C″).
 * </pre>
 * Immutable; one instance per {@code N}, made by {@link #at}.
 *
 * @param n number of pools {@code N}
 * @param lambdaN the load {@code λ_N}
 * @param meanField {@code P0}
 * @param ouMean the OU-mean approximation
 * @param meanFieldAtLambdaN the mean field at {@code λ_N}
 * @param refined the refined approximation
 * @param twoTerm the two-term expansion
 */
public record BlockingApproximations(int n, double lambdaN, double meanField, double ouMean, double meanFieldAtLambdaN,
        double refined, double twoTerm) {

    /** The approximations, in the order of the class comment, with their error orders. */
    public enum Kind {
        /** {@code h(x*_C(σ))}. */
        MEAN_FIELD("meanField", "O(N^-1/2) if beta != 0, O(1/N) if beta = 0"),
        /** {@code P0 + h′ m_C/√N}. */
        OU_MEAN("ouMean", "O(1/N)"),
        /** {@code h(x*_C(λ_N))}. */
        MEAN_FIELD_AT_LAMBDA_N("meanFieldAtLambdaN", "O(1/N)"),
        /** {@code h(x*_C(λ_N)) + R_B(λ_N)/N}. */
        REFINED("refined", "O(1/N^2)"),
        /** {@code P0 + p1/√N + p2/N}. */
        TWO_TERM("twoTerm", "O(N^-3/2)");

        private final String key;
        private final String errorOrder;

        Kind(String key, String errorOrder) {
            this.key = key;
            this.errorOrder = errorOrder;
        }

        /** @return the JSON key */
        public String key() {
            return key;
        }

        /** @return the order of the approximation's error, as text */
        public String errorOrder() {
            return errorOrder;
        }
    }

    /** @return the value of one approximation */
    public double get(Kind kind) {
        return switch (kind) {
            case MEAN_FIELD -> meanField;
            case OU_MEAN -> ouMean;
            case MEAN_FIELD_AT_LAMBDA_N -> meanFieldAtLambdaN;
            case REFINED -> refined;
            case TWO_TERM -> twoTerm;
        };
    }

    /**
     * @param atSigma the fixed point and its OU limit at {@code σ}
     * @param beta {@code β}
     * @param n number of pools {@code N ≥ 1}; {@code λ_N} must be positive
     * @return the approximations of {@code P_B^N}
     */
    public static BlockingApproximations at(LossPoolLimit atSigma, double beta, int n) {
        Require.finite("beta", beta);
        Require.atLeast("N", n, 1);
        double sigma = atSigma.lambda();
        double root = Math.sqrt(n);
        double lambdaN = sigma - beta / root;
        if (!(lambdaN > 0)) {
            throw MflbException.invalid("beta", beta, "< lambda sqrt(N) = " + sigma * root
                    + " (the load lambda_N = lambda - beta/sqrt(N) must be positive at N = " + n + ")");
        }
        LossPoolLimit atLambdaN = beta == 0 ? atSigma : atSigma.atLoad(lambdaN);
        int c = atSigma.capacity() - 1;
        double p0 = atSigma.blocking();
        double slope = atSigma.selectionSlope();
        double dxc = atSigma.fixedPointDerivative()[c];
        double d2xc = atSigma.fixedPointSecondDerivative()[c];
        double p1 = -beta * slope * dxc;
        double p2 = atSigma.blockingCorrection()
                + 0.5 * beta * beta * (atSigma.selectionCurvature() * dxc * dxc + slope * d2xc);
        double ou = p0 + slope * atSigma.ouMean(beta)[c] / root;
        double atLoad = atLambdaN.blocking();
        return new BlockingApproximations(n, lambdaN, p0, ou, atLoad, atLoad + atLambdaN.blockingCorrection() / n,
                p0 + p1 / root + p2 / n);
    }

    /**
     * @param atSigma the limit at {@code σ}
     * @param beta {@code β}
     * @return {@code p1 = −β h′(x*_C) x*_C′}, the coefficient of {@code 1/√N} in {@code P_B^N}
     */
    public static double firstCoefficient(LossPoolLimit atSigma, double beta) {
        return -beta * atSigma.selectionSlope() * atSigma.fixedPointDerivative()[atSigma.capacity() - 1];
    }
}
