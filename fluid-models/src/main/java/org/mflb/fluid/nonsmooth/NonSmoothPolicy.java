package org.mflb.fluid.nonsmooth;

import org.mflb.core.Require;

/**
 * A dispatching policy whose fluid limit is piecewise smooth (MODELS.md §3): which smooth piece
 * ({@link Regime}) is in force, which switching surfaces end it, and which piece follows. Switching
 * functions are negative while the piece is valid; the piece ends when one of them reaches 0 from
 * below. The solver ({@link PiecewiseSmoothSolver}) locates these crossings with Hipparchus event
 * detection; no switch is ever smoothed.
 */
public interface NonSmoothPolicy {

    /** A state coordinate within this distance of 1 counts as lying on the surface {@code x_j = 1}. */
    double ON_SURFACE = 1e-10;

    /**
     * Chooses the piece in force at a state that may lie on a switching surface, and pins its levels.
     *
     * @param lambda {@code λ(t)}
     * @param mu departure rates {@code μ_j} at {@code mu[j−1]}; not modified
     * @param x tail vector; modified (levels within {@link #ON_SURFACE} of 1 are set to 1)
     * @return the piece in force
     */
    Regime initialRegime(double lambda, double[] mu, double[] x);

    /** @return the number of switching functions of {@code regime} */
    int surfaces(Regime regime);

    /**
     * @param regime the piece in force
     * @param k surface index, {@code 0 ≤ k < surfaces(regime)}
     * @param lambda {@code λ(t)}
     * @param mu departure rates
     * @param x state
     * @return the switching function, negative while {@code regime} is valid
     */
    double switchingFunction(Regime regime, int k, double lambda, double[] mu, double[] x);

    /**
     * The piece that follows when surface {@code k} is crossed.
     *
     * @param regime the piece that ends
     * @param k the surface crossed
     * @param lambda {@code λ(t)}
     * @param mu departure rates
     * @param x state at the crossing; modified (the new piece's levels are pinned)
     * @return the next piece
     */
    Regime next(Regime regime, int k, double lambda, double[] mu, double[] x);

    /** @return whether the threshold of the regime changes over time (the self-learning threshold) */
    default boolean isAdaptive() {
        return false;
    }

    /** @return a short name, e.g. {@code threshold(2)} */
    String name();

    /** @return the threshold policy with static threshold {@code ℓ ≥ 0} (paper 000, eq. (2)) */
    static ThresholdPolicy threshold(int ell) {
        return new ThresholdPolicy(Require.atLeast("threshold", ell, 0));
    }

    /** @return join-the-shortest-queue */
    static JoinShortestQueue jsq() {
        return JoinShortestQueue.INSTANCE;
    }

    /** @return join-the-idle-queue: the threshold policy with {@code ℓ = 0} (to idle if any, else at random) */
    static ThresholdPolicy jiq() {
        return ThresholdPolicy.JIQ;
    }

    /**
     * @param alpha the rule's parameter, in (0, 1)
     * @param initialThreshold {@code ℓ(0) ≥ 0}
     * @return the self-learning threshold (MODELS.md §3)
     */
    static AdaptiveThreshold adaptiveThreshold(double alpha, int initialThreshold) {
        return new AdaptiveThreshold(alpha, initialThreshold);
    }

    /** Sets {@code x_j = 1} for the leading levels within {@link #ON_SURFACE} of 1; returns how many there are. */
    static int snapLeadingOnes(double[] x) {
        int m = 0;
        while (m < x.length && x[m] >= 1.0 - ON_SURFACE) {
            x[m] = 1.0;
            m++;
        }
        return m;
    }
}
