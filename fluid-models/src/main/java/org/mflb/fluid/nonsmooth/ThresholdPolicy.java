package org.mflb.fluid.nonsmooth;

import java.util.OptionalInt;

import org.mflb.fluid.nonsmooth.Regime.Surface;

/**
 * The threshold policy with a static threshold {@code ℓ} ([GABL], Section 2 and eq. (2);
 * docs/models.md §3), {@code h = ℓ + 1}: arrivals go to a server with fewer than {@code ℓ} jobs if any,
 * else to one with exactly {@code ℓ}, else to one chosen uniformly at random. Its three pieces and
 * the surfaces between them:
 * <pre>
 *   (a) x_ℓ &lt; 1           --[x_ℓ reaches 1]----------------------------&gt; (b)
 *   (b) x_ℓ = 1, x_h &lt; 1  --[x_h reaches 1]----------------------------&gt; (c)
 *                         --[r = λ − ℓ(1 − x_h) turns negative]--------&gt; (a)   (p_ℓ would exceed 1)
 *   (c) x_h = 1           --[r = λ − h(1 − x_{h+1}) turns negative]----&gt; (b)   (p_h would exceed 1)
 * </pre>
 * With {@code ℓ = 0} piece (a) does not exist and this is JIQ: to an idle server if any, else at random.
 */
public final class ThresholdPolicy implements NonSmoothPolicy {

    static final ThresholdPolicy JIQ = new ThresholdPolicy(0);

    private static final Surface[] BELOW = {Surface.FILLED};
    private static final Surface[] AT_EMPTY = {Surface.LEVEL_FULL};
    private static final Surface[] AT = {Surface.LEVEL_FULL, Surface.EXCESS_NEGATIVE};
    private static final Surface[] ABOVE = {Surface.EXCESS_NEGATIVE};

    private final int ell;

    ThresholdPolicy(int ell) {
        this.ell = ell;
    }

    /** @return the threshold {@code ℓ} */
    public int threshold() {
        return ell;
    }

    /** @return {@code ℓ} */
    @Override
    public OptionalInt declaredThreshold() {
        return OptionalInt.of(ell);
    }

    @Override
    public <R> R match(NonSmoothPolicy.Cases<R> cases) {
        return cases.threshold(this);
    }

    @Override
    public Regime initialRegime(double lambda, double[] mu, double[] x) {
        return classify(ell, lambda, mu, x);
    }

    /**
     * The piece of threshold {@code ell} in force at {@code x}: the one whose arrival split lies in
     * [0, 1] ([GABL], remark after eq. (2)). Snaps the leading levels on the surface and pins the
     * piece's levels.
     */
    static Regime classify(int ell, double lambda, double[] mu, double[] x) {
        NonSmoothPolicy.snapLeadingOnes(x);
        int h = ell + 1;
        Regime regime;
        if (ell >= 1 && Regime.level(x, ell) < 1.0) {
            regime = Regime.below(ell);
        } else if (Regime.level(x, h) >= 1.0 && Regime.sustains(Regime.excess(h, lambda, mu, Regime.level(x, h + 1)), lambda)) {
            regime = Regime.above(ell);
        } else if (Regime.sustains(Regime.excess(ell, lambda, mu, Regime.level(x, h)), lambda)) {
            regime = Regime.at(ell);
        } else {
            regime = Regime.below(ell); // x_ℓ = 1 but departures from level ℓ win: (a) starts with no deficit
        }
        regime.pin(x);
        return regime;
    }

    /** The surfaces of each piece of a threshold policy with threshold {@code ell} in force. */
    static Surface[] staticSurfaces(Regime regime) {
        return switch (regime.kind()) {
            case BELOW_THRESHOLD -> BELOW;
            case AT_LEVEL -> regime.pinned() == 0 ? AT_EMPTY : AT;
            case ABOVE_LEVEL -> ABOVE;
        };
    }

    /** Sets the levels the crossed surface lies on to 1. */
    static void pinSurface(Regime regime, Surface surface, double[] x) {
        switch (surface) {
            case FILLED -> NonSmoothPolicy.pinLevels(x, regime.threshold());
            case LEVEL_FULL -> NonSmoothPolicy.pinLevels(x, regime.pinned() + 1);
            default -> {
                // the excess changes sign, or the learning threshold drops: no level reaches 1
            }
        }
    }

    @Override
    public Surface[] surfaces(Regime regime) {
        return staticSurfaces(regime);
    }

    @Override
    public Regime next(Regime regime, Surface surface, double lambda, double[] mu, double[] x) {
        pinSurface(regime, surface, x);
        return classify(ell, lambda, mu, x);
    }

    @Override
    public String name() {
        return ell == 0 ? "JIQ" : "threshold(" + ell + ")";
    }
}
