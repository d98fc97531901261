package org.mflb.fluid.nonsmooth;

/**
 * The threshold policy with a static threshold {@code ℓ} (paper 000, Section 2 and eq. (2);
 * MODELS.md §3), {@code h = ℓ + 1}: arrivals go to a server with fewer than {@code ℓ} jobs if any,
 * else to one with exactly {@code ℓ}, else to one chosen uniformly at random. Its three pieces and
 * the surfaces between them:
 * <pre>
 *   (a) x_ℓ &lt; 1           --[x_ℓ reaches 1]------------------&gt; (b)
 *   (b) x_ℓ = 1, x_h &lt; 1  --[x_h reaches 1]------------------&gt; (c)
 *                         --[ℓ (1 − x_h) − λ crosses 0 upward]-&gt; (a)   (p_ℓ would exceed 1)
 *   (c) x_h = 1           --[h (1 − x_{h+1}) − λ crosses 0 up]--&gt; (b)   (p_h would exceed 1)
 * </pre>
 * Near {@code x_ℓ = 1} piece (a) is integrated in its collapsed form (see {@link #reopening}).
 * With {@code ℓ = 0} piece (a) does not exist and this is JIQ: to an idle server if any, else at random.
 */
public final class ThresholdPolicy implements NonSmoothPolicy {

    /** Lower gap below which piece (a) is integrated in collapsed form (see {@link #reopening}). */
    static final double COLLAPSE = 1e-7;

    static final ThresholdPolicy JIQ = new ThresholdPolicy(0);

    private final int ell;

    ThresholdPolicy(int ell) {
        this.ell = ell;
    }

    /** @return the threshold {@code ℓ} */
    public int threshold() {
        return ell;
    }

    @Override
    public Regime initialRegime(double lambda, double[] mu, double[] x) {
        NonSmoothPolicy.snapLeadingOnes(x);
        return classify(ell, lambda, mu, x);
    }

    /** The piece of threshold {@code ell} in force at {@code x} (already snapped); pins its levels. */
    static Regime classify(int ell, double lambda, double[] mu, double[] x) {
        int h = ell + 1;
        Regime regime;
        if (ell >= 1 && Regime.level(x, ell) < 1.0) {
            regime = ell >= 2 && Regime.level(x, ell - 1) >= 1.0 && reopening(ell, lambda, mu, x) <= 0
                    ? Regime.collapsed(ell) : Regime.below(ell);
        } else if (Regime.level(x, h) >= 1.0 && mu[h - 1] * (1.0 - Regime.level(x, h + 1)) <= lambda) {
            regime = Regime.above(ell);
        } else if (ell == 0 || mu[ell - 1] * (1.0 - Regime.level(x, h)) <= lambda) {
            regime = Regime.at(ell);
        } else {
            regime = ell >= 2 ? Regime.collapsed(ell) : Regime.below(ell);
        }
        regime.pin(x);
        return regime;
    }

    /**
     * Piece (a) near {@code x_ℓ = 1}: the uniform split {@code (x_{j−1} − x_j)/(1 − x_ℓ)} makes the
     * lower gaps relax at rate {@code λ/(1 − x_ℓ)}, which no explicit integrator can follow as
     * {@code x_ℓ → 1} (the approach is asymptotic when {@code λ = ℓ}). Their quasi-steady value is
     * {@code x_{ℓ−1} = 1 − μ_{ℓ−1}(1 − x_ℓ)²/λ + o(·)}: once it is within {@link #COLLAPSE} of 1 the
     * piece is integrated in its collapsed form, on {@code x_{ℓ−1} = 1} ({@link Regime#collapsed}),
     * the lower gaps' mass moved to level {@code ℓ} so that the total mass is unchanged
     * ({@link #collapse}); it reopens when that quasi-steady gap exceeds {@code 4·COLLAPSE} (the
     * factor avoids chattering between the two forms). The state error of this reduction is of the
     * order of {@code COLLAPSE}.
     *
     * @return the reopening function {@code μ_{ℓ−1}(1 − x_ℓ)² − 4·COLLAPSE·λ}
     */
    static double reopening(int ell, double lambda, double[] mu, double[] x) {
        double gap = 1.0 - Regime.level(x, ell);
        return mu[ell - 2] * gap * gap - 4 * COLLAPSE * lambda;
    }

    /** @return the function whose zero crossing collapses piece (a): {@code x_{ℓ−1} − (1 − COLLAPSE)} */
    static double collapsing(int ell, double[] x) {
        return Regime.level(x, ell - 1) - (1.0 - COLLAPSE);
    }

    /** Collapses piece (a) of threshold {@code ell}: levels below {@code ℓ} set to 1, their deficit taken from {@code x_ℓ}. */
    static Regime collapse(int ell, double[] x) {
        double deficit = 0;
        for (int j = 0; j < ell - 1; j++) {
            deficit += 1.0 - x[j];
            x[j] = 1.0;
        }
        x[ell - 1] -= deficit;
        return Regime.collapsed(ell);
    }

    @Override
    public int surfaces(Regime regime) {
        return switch (regime.kind()) {
            case BELOW_THRESHOLD -> ell >= 2 ? 2 : 1;
            case AT_LEVEL -> ell == 0 ? 1 : 2;
            case ABOVE_LEVEL -> 1;
        };
    }

    @Override
    public double switchingFunction(Regime regime, int k, double lambda, double[] mu, double[] x) {
        int h = ell + 1;
        if (regime.isCollapsed()) {
            return k == 0 ? Regime.level(x, ell) - 1.0 : reopening(ell, lambda, mu, x);
        }
        return switch (regime.kind()) {
            case BELOW_THRESHOLD -> k == 0 ? Regime.level(x, ell) - 1.0 : collapsing(ell, x);
            case AT_LEVEL -> k == 0 ? Regime.level(x, h) - 1.0 : regime.leaving(lambda, mu, x);
            case ABOVE_LEVEL -> regime.leaving(lambda, mu, x);
        };
    }

    @Override
    public Regime next(Regime regime, int k, double lambda, double[] mu, double[] x) {
        Regime following;
        if (regime.isCollapsed()) {
            following = k == 0 ? Regime.at(ell) : Regime.below(ell);
        } else {
            following = switch (regime.kind()) {
                case BELOW_THRESHOLD -> k == 0 ? Regime.at(ell) : collapse(ell, x);
                case AT_LEVEL -> k == 0 ? Regime.above(ell) : ell >= 2 ? Regime.collapsed(ell) : Regime.below(ell);
                case ABOVE_LEVEL -> Regime.at(ell);
            };
        }
        following.pin(x);
        return following;
    }

    @Override
    public String name() {
        return ell == 0 ? "JIQ" : "threshold(" + ell + ")";
    }
}
