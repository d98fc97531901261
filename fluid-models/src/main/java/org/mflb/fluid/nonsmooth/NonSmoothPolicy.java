package org.mflb.fluid.nonsmooth;

import java.util.OptionalInt;

import org.mflb.core.Require;
import org.mflb.fluid.FluidPolicy;

/**
 * A dispatching policy whose fluid limit is piecewise smooth (docs/models.md §3): which smooth piece
 * ({@link Regime}) is in force at a state, which {@link Regime.Surface surfaces} end each piece,
 * and which piece follows. The solver ({@link PiecewiseSmoothSolver}) finds the crossings on each
 * integration step's own polynomial; no switch is ever smoothed.
 */
public sealed interface NonSmoothPolicy extends FluidPolicy permits ThresholdPolicy, JoinShortestQueue, AdaptiveThreshold {

    /**
     * One method per non-smooth policy: what a caller does with each (e.g. the closed-form
     * equilibrium of each, {@code docs/models.md §3}).
     *
     * @param <R> the result
     */
    interface Cases<R> {

        /** @return the result for join-the-shortest-queue */
        R joinShortestQueue(JoinShortestQueue jsq);

        /** @return the result for the static threshold policy (JIQ is {@code ℓ = 0}) */
        R threshold(ThresholdPolicy threshold);

        /** @return the result for the self-learning threshold */
        R adaptiveThreshold(AdaptiveThreshold adaptive);
    }

    /**
     * @param cases what to do with each non-smooth policy
     * @param <R> the result
     * @return the result of this policy's case
     */
    <R> R match(Cases<R> cases);

    /** @return {@code cases.nonSmooth(this)} */
    @Override
    default <R> R match(FluidPolicy.Cases<R> cases) {
        return cases.nonSmooth(this);
    }

    /**
     * A level within this distance of 1 counts as lying on the surface {@code x_j = 1}, and a deficit
     * below this as filled: the mass moved by pinning such levels at 1 is at most this much per level.
     * It is what lets a solution that approaches a surface only asymptotically (at integer {@code λ},
     * like {@code e^{−t}}) reach it, at {@code ln(1/ON_SURFACE) ≈ 32.2} time units after the approach
     * starts: the distance to the surface is integrated to relative accuracy, so that time is
     * determined (see {@link PiecewiseSmoothSolver}).
     */
    double ON_SURFACE = 1e-14;

    /**
     * Chooses the piece in force at a state that may lie on a switching surface, and pins its levels.
     *
     * @param lambda {@code λ(t)}
     * @param mu departure rates {@code μ_j} at {@code mu[j−1]}; not modified
     * @param x tail vector; modified (leading levels within {@link #ON_SURFACE} of 1 are set to 1)
     * @return the piece in force
     */
    Regime initialRegime(double lambda, double[] mu, double[] x);

    /** @return the surfaces that end {@code regime} */
    Regime.Surface[] surfaces(Regime regime);

    /**
     * The piece that follows when {@code surface} is reached.
     *
     * @param regime the piece that ends
     * @param surface the surface reached
     * @param lambda {@code λ(t)}
     * @param mu departure rates
     * @param x state at the crossing; modified (the levels on the surface, and those the new piece pins, are set to 1)
     * @return the next piece
     */
    Regime next(Regime regime, Regime.Surface surface, double lambda, double[] mu, double[] x);

    /** @return whether the threshold changes over time (the self-learning threshold) */
    default boolean isAdaptive() {
        return false;
    }

    /** @return {@code α}, the level of {@code x_ℓ} at which a learning threshold drops; NaN for static policies */
    default double dropLevel() {
        return Double.NaN;
    }

    /**
     * @return the threshold the policy is given: {@code ℓ} for the static threshold (0 for JIQ),
     *         {@code ℓ(0)} for the self-learning one (which the initial state may move at once);
     *         empty for JSQ, whose "threshold" is the minimum level the state sets
     */
    default OptionalInt declaredThreshold() {
        return OptionalInt.empty();
    }

    /** @return false: the drift switches between smooth pieces */
    @Override
    default boolean isSmooth() {
        return false;
    }

    /** @return a short name, e.g. {@code threshold(2)} */
    @Override
    String name();

    /** @return the threshold policy with static threshold {@code ℓ ≥ 0} ([GABL], eq. (2)) */
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
     * @return the self-learning threshold (docs/models.md §3)
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

    /** Sets levels {@code 1..m} to 1. */
    static void pinLevels(double[] x, int m) {
        for (int j = 0; j < m && j < x.length; j++) {
            x[j] = 1.0;
        }
    }
}
