package org.mflb.fluid.nonsmooth;

import org.mflb.core.Require;

/**
 * The self-learning threshold of paper 000 (Section 4; rule from the authors' code, MODELS.md §3),
 * in the fluid limit (reconstructed in MODELS.md): the occupancy follows the static threshold
 * policy ({@link ThresholdPolicy}) with {@code ℓ = ℓ(t)}, and
 * <pre>
 *   ℓ ← ℓ + 1  when x_{ℓ+1} reaches 1   (the dispatcher runs out of tokens),
 *   ℓ ← ℓ − 1  when x_ℓ falls to α      (green tokens cover a fraction ≥ 1 − α of the pools).
 * </pre>
 * Regime (c) is never in force: reaching {@code x_h = 1} raises the threshold at once.
 */
public final class AdaptiveThreshold implements NonSmoothPolicy {

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
    public Regime initialRegime(double lambda, double[] mu, double[] x) {
        NonSmoothPolicy.snapLeadingOnes(x);
        return settle(initialThreshold, lambda, mu, x);
    }

    /** Applies the jump rule until neither condition holds, then picks the static piece. */
    private Regime settle(int start, double lambda, double[] mu, double[] x) {
        int ell = start;
        while (true) {
            if (Regime.level(x, ell + 1) >= 1.0 && ell + 1 < x.length) {
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
    public int surfaces(Regime regime) {
        int ell = regime.threshold();
        if (regime.isCollapsed()) {
            return 2;
        }
        return switch (regime.kind()) {
            case BELOW_THRESHOLD -> ell >= 2 ? 3 : 2;
            case AT_LEVEL -> ell == 0 ? 1 : 2;
            case ABOVE_LEVEL -> throw new IllegalStateException("regime (c) is never in force with a learning threshold");
        };
    }

    @Override
    public double switchingFunction(Regime regime, int k, double lambda, double[] mu, double[] x) {
        int ell = regime.threshold();
        if (regime.isCollapsed()) {
            // x_ℓ within ~1e-5 of 1 here, far above α: only the static surfaces matter
            return k == 0 ? Regime.level(x, ell) - 1.0 : ThresholdPolicy.reopening(ell, lambda, mu, x);
        }
        if (regime.kind() == Regime.Kind.BELOW_THRESHOLD) {
            // surface 0 ends the piece (x_ℓ reaches 1), 1 lowers ℓ (x_ℓ falls to α), 2 collapses it
            return switch (k) {
                case 0 -> Regime.level(x, ell) - 1.0;
                case 1 -> alpha - Regime.level(x, ell);
                default -> ThresholdPolicy.collapsing(ell, x);
            };
        }
        // (b): surface 0 raises ℓ (x_h reaches 1), surface 1 leaves for (a)
        return k == 0 ? Regime.level(x, ell + 1) - 1.0 : regime.leaving(lambda, mu, x);
    }

    @Override
    public Regime next(Regime regime, int k, double lambda, double[] mu, double[] x) {
        int ell = regime.threshold();
        Regime following;
        if (regime.isCollapsed()) {
            following = k == 0 ? Regime.at(ell) : Regime.below(ell);
        } else if (regime.kind() == Regime.Kind.BELOW_THRESHOLD) {
            if (k == 1) {
                return settle(ell - 1, lambda, mu, x);
            }
            following = k == 0 ? Regime.at(ell) : ThresholdPolicy.collapse(ell, x);
        } else if (k == 0) {
            Regime.above(ell).pin(x);
            return settle(ell + 1, lambda, mu, x);
        } else {
            following = ell >= 2 ? Regime.collapsed(ell) : Regime.below(ell);
        }
        following.pin(x);
        return following;
    }

    @Override
    public String name() {
        return "adaptive-threshold(alpha=" + alpha + ")";
    }
}
