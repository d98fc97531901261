package org.mflb.core.distribution;

import org.mflb.core.Require;

/**
 * The gamma law of shape {@code a} and scale {@code θ}, common to {@link Gamma} and {@link Erlang}
 * (docs/models.md §6). With {@code y = t/θ} and {@code Q} the regularized upper incomplete gamma function:
 * <pre>
 *   Ḡ(t) = Q(a, y),   g(t) = y^{a−1} e^{−y} / (Γ(a) θ),   E[S^k] = θ^k a(a+1)…(a+k−1),
 *   ∫_t^∞ Ḡ(u) du = θ [a Q(a+1, y) − y Q(a, y)] = θ [(a − y) Q(a, y) + y^a e^{−y}/Γ(a)].
 * </pre>
 * For {@code y > a + 1} the hazard and mean residual life come from the remainder {@code R} of
 * the Legendre continued fraction ({@link SpecialFunctions#gammaCfRemainder}):
 * {@code η = (y + 1 − a − R)/(yθ)} and {@code m = θ(1 − R)}; both stay accurate at ages where
 * {@code Ḡ} underflows.
 */
abstract class GammaFamily extends AbstractServiceDistribution {

    /** Shape {@code a > 0}. */
    protected final double shape;
    /** Scale {@code θ > 0}. */
    protected final double scale;
    /** Mean {@code aθ}, kept as given so that specifications print it exactly. */
    private final double mean;
    private final double logGammaShape;

    GammaFamily(double shape, double mean) {
        this.shape = shape;
        this.scale = mean / shape;
        this.mean = mean;
        this.logGammaShape = SpecialFunctions.logGamma(shape);
    }

    /** @return the shape {@code a} */
    public final double shape() {
        return shape;
    }

    /** @return the scale {@code θ} */
    public final double scale() {
        return scale;
    }

    @Override
    public final double mean() {
        return mean;
    }

    @Override
    public final double moment(int k) {
        Require.atLeast("k", k, 0);
        double r = 1.0;
        for (int j = 0; j < k; j++) {
            r *= (shape + j) * scale;
        }
        return r;
    }

    @Override
    public final double scv() {
        return 1.0 / shape;
    }

    /** @return whether {@code y} lies in the continued-fraction regime {@code y > a + 1} */
    private boolean inTail(double y) {
        return y > shape + 1.0;
    }

    @Override
    public final double survival(double t) {
        if (t <= 0) {
            return 1.0;
        }
        return SpecialFunctions.gammaQ(shape, t / scale);
    }

    @Override
    public final double logSurvival(double t) {
        if (t <= 0) {
            return 0.0;
        }
        double y = t / scale;
        if (y < shape) {
            // Ḡ = 1 − P(a, y) with P < 1/2 accurate from its series: log1p keeps tiny ln Ḡ exact
            return Math.log1p(-SpecialFunctions.gammaP(shape, y));
        }
        if (!inTail(y)) {
            return Math.log(SpecialFunctions.gammaQ(shape, y));
        }
        if (y == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double r = SpecialFunctions.gammaCfRemainder(shape, y);
        return shape * Math.log(y) - y - logGammaShape - Math.log(y + 1.0 - shape - r);
    }

    @Override
    public final double density(double t) {
        if (t < 0) {
            return 0.0;
        }
        if (t == 0) {
            return densityAtZero();
        }
        double y = t / scale;
        return Math.exp((shape - 1.0) * Math.log(y) - y - logGammaShape) / scale;
    }

    private double densityAtZero() {
        if (shape < 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        return shape == 1.0 ? 1.0 / scale : 0.0;
    }

    @Override
    public final double hazard(double t) {
        if (t < 0) {
            return 0.0;
        }
        if (t == 0) {
            return densityAtZero();
        }
        double y = t / scale;
        if (!inTail(y)) {
            return density(t) / SpecialFunctions.gammaQ(shape, y);
        }
        if (y == Double.POSITIVE_INFINITY) {
            return 1.0 / scale;
        }
        double r = SpecialFunctions.gammaCfRemainder(shape, y);
        return (y + 1.0 - shape - r) / (y * scale);
    }

    @Override
    public final double meanResidualLife(double a) {
        if (a <= 0) {
            return mean() - a;
        }
        double y = a / scale;
        if (!inTail(y)) {
            double q = SpecialFunctions.gammaQ(shape, y);
            double yg = Math.exp(shape * Math.log(y) - y - logGammaShape);
            return scale * ((shape - y) + yg / q);
        }
        if (y == Double.POSITIVE_INFINITY) {
            return scale;
        }
        return scale * (1.0 - SpecialFunctions.gammaCfRemainder(shape, y));
    }

    @Override
    public final double survivalQuantile(double tailMass) {
        return bisectSurvivalQuantile(tailMass);
    }
}
