package org.mflb.fluid.nonsmooth;

import java.util.OptionalInt;

import org.mflb.core.Require;
import org.mflb.fluid.nonsmooth.Regime.Surface;

/**
 * The self-learning threshold of [GABL] (Section 4; rule from the authors' code, docs/models.md §3),
 * in the fluid limit (reconstructed in docs/models.md): the occupancy follows the static threshold
 * policy ({@link ThresholdPolicy}) with {@code ℓ = ℓ(t)}, and
 * <pre>
 *   ℓ ← ℓ + 1  when x_{ℓ+1} reaches 1   (the dispatcher runs out of tokens),
 *   ℓ ← ℓ − 1  when x_ℓ falls to α      (green tokens cover a fraction ≥ 1 − α of the pools),
 * </pre>
 * each applied again until neither holds. Regime (c) is never in force: reaching {@code x_h = 1}
 * raises the threshold at once.
 */
public final class AdaptiveThreshold implements NonSmoothPolicy {

    private static final Surface[] BELOW = {Surface.FILLED, Surface.THRESHOLD_DROP};

    private final double alpha;
    private final int initialThreshold;

    AdaptiveThreshold(double alpha, int initialThreshold) {
        this.alpha = Require.open("alpha", alpha, 0, 1);
        this.initialThreshold = Require.atLeast("initial-threshold", initialThreshold, 0);
    }

    /** @return {@code α} */
    public double alpha() {
        return alpha;
    }

    /** @return {@code ℓ(0)} */
    public int initialThreshold() {
        return initialThreshold;
    }

    @Override
    public boolean isAdaptive() {
        return true;
    }

    @Override
    public double dropLevel() {
        return alpha;
    }

    /** @return {@code ℓ(0)} */
    @Override
    public OptionalInt declaredThreshold() {
        return OptionalInt.of(initialThreshold);
    }

    @Override
    public <R> R match(NonSmoothPolicy.Cases<R> cases) {
        return cases.adaptiveThreshold(this);
    }

    @Override
    public Regime initialRegime(double lambda, double[] mu, double[] x) {
        return settle(initialThreshold, lambda, mu, x);
    }

    /** Applies the jump rule until neither condition holds, then picks the static piece. */
    private Regime settle(int start, double lambda, double[] mu, double[] x) {
        NonSmoothPolicy.snapLeadingOnes(x);
        int ell = start;
        while (true) {
            if (Regime.level(x, ell + 1) >= 1.0 && ell + 2 < x.length) {
                ell++;
            } else if (ell >= 1 && Regime.level(x, ell) <= alpha) {
                ell--;
            } else {
                break;
            }
        }
        return ThresholdPolicy.classify(ell, lambda, mu, x);
    }

    @Override
    public Surface[] surfaces(Regime regime) {
        return regime.kind() == Regime.Kind.BELOW_THRESHOLD ? BELOW : ThresholdPolicy.staticSurfaces(regime);
    }

    @Override
    public Regime next(Regime regime, Surface surface, double lambda, double[] mu, double[] x) {
        ThresholdPolicy.pinSurface(regime, surface, x);
        int ell = regime.threshold();
        return settle(surface == Surface.THRESHOLD_DROP ? ell - 1 : ell, lambda, mu, x);
    }

    @Override
    public String name() {
        return "adaptive-threshold(alpha=" + alpha + ")";
    }
}
