package org.mflb.core.distribution;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Weibull law of shape {@code k} and mean {@code m} (docs/models.md §6), scale {@code λ = m/Γ(1 + 1/k)}:
 * <pre>
 *   Ḡ(t) = e^{−(t/λ)^k},   η(t) = (k/λ)(t/λ)^{k−1},   E[S^j] = λ^j Γ(1 + j/k),
 *   m(a) = m e^{y} Q(1/k, y) = (a/k)/(y + 1 − 1/k − R),   y = (a/λ)^k,
 * </pre>
 * with {@code Q} the regularized upper incomplete gamma function and {@code R} the remainder of its
 * continued fraction ({@link SpecialFunctions#gammaCfRemainder}), used for {@code y > 1/k + 1}.
 * Shape {@code k < 1} is heavy-tailed (decreasing hazard), {@code k = 1} exponential.
 * Specification {@code weibull:shape=k} or {@code weibull:shape=k,mean=m}. Sampled by inversion,
 * {@code λ E^{1/k}} with {@code E} a ziggurat exponential.
 */
public final class Weibull extends AbstractServiceDistribution {

    /**
     * Smallest shape accepted: below it the moments and the scale leave the double range
     * ({@code Γ(1 + 1/k)} overflows near {@code k = 0.0058}); at 0.05 the SCV is already 1.4e11.
     */
    public static final double MIN_SHAPE = 0.05;

    private final double shape;
    private final double mean;
    private final double scale;
    private final double inverseShape;

    private Weibull(double shape, double mean) {
        this.shape = shape;
        this.mean = mean;
        this.inverseShape = 1.0 / shape;
        this.scale = mean * Math.exp(-SpecialFunctions.logGamma(1.0 + inverseShape));
    }

    /** @return the Weibull law of mean 1 and shape {@code shape ≥ MIN_SHAPE} */
    public static Weibull ofShape(double shape) {
        return ofShape(shape, 1.0);
    }

    /** @return the Weibull law of mean {@code mean} and shape {@code shape ≥ MIN_SHAPE} */
    public static Weibull ofShape(double shape, double mean) {
        if (!(shape >= MIN_SHAPE) || !Double.isFinite(shape)) {
            throw MflbException.invalid("weibull shape", shape, "a finite number >= " + MIN_SHAPE);
        }
        Require.positive("weibull mean", mean);
        return new Weibull(shape, mean);
    }

    /** @return the shape {@code k} */
    public double shape() {
        return shape;
    }

    /** @return the scale {@code λ} */
    public double scale() {
        return scale;
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        if (k == 0) {
            return 1.0;
        }
        // m^j Γ(1 + j/k)/Γ(1 + 1/k)^j, in logs so that small shapes do not overflow Γ
        double logRatio = SpecialFunctions.logGamma(1.0 + k * inverseShape)
                - k * SpecialFunctions.logGamma(1.0 + inverseShape);
        return Math.pow(mean, k) * Math.exp(logRatio);
    }

    private double y(double t) {
        return Math.pow(t / scale, shape);
    }

    @Override
    public double survival(double t) {
        return t <= 0 ? 1.0 : Math.exp(-y(t));
    }

    @Override
    public double logSurvival(double t) {
        return t <= 0 ? 0.0 : -y(t);
    }

    @Override
    public double density(double t) {
        if (t < 0) {
            return 0.0;
        }
        return hazard(t) * survival(t);
    }

    @Override
    public double hazard(double t) {
        if (t < 0) {
            return 0.0;
        }
        if (t == 0) {
            if (shape < 1.0) {
                return Double.POSITIVE_INFINITY;
            }
            return shape == 1.0 ? 1.0 / scale : 0.0;
        }
        return shape / scale * Math.pow(t / scale, shape - 1.0);
    }

    @Override
    public double meanResidualLife(double a) {
        if (a <= 0) {
            return mean - a;
        }
        double y = y(a);
        if (y <= inverseShape + 1.0) {
            return mean * Math.exp(y) * SpecialFunctions.gammaQ(inverseShape, y);
        }
        if (y == Double.POSITIVE_INFINITY) {
            // m(a) ~ a^{1−k} λ^k / k: infinite for k < 1, λ for k = 1, 0 for k > 1
            return shape < 1.0 ? Double.POSITIVE_INFINITY : (shape == 1.0 ? scale : 0.0);
        }
        double r = SpecialFunctions.gammaCfRemainder(inverseShape, y);
        return (a * inverseShape) / (y + 1.0 - inverseShape - r);
    }

    @Override
    public double survivalQuantile(double tailMass) {
        Require.open("tailMass", tailMass, 0.0, 1.0);
        return scale * Math.pow(-Math.log(tailMass), inverseShape);
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        if (shape == 1.0) {
            return ZigguratSampler.Exponential.of(rng, scale);
        }
        final ZigguratSampler.Exponential exp = ZigguratSampler.Exponential.of(rng);
        final double lambda = scale;
        if (shape == 0.5) {
            return () -> {
                double e = exp.sample();
                return lambda * e * e;
            };
        }
        if (shape == 2.0) {
            return () -> lambda * Math.sqrt(exp.sample());
        }
        final double power = inverseShape;
        return () -> lambda * Math.pow(exp.sample(), power);
    }

    @Override
    public String spec() {
        return withMeanSuffix("weibull:shape=" + format(shape), mean);
    }

    @Override
    public Weibull withMean(double newMean) {
        return ofShape(shape, Require.positive("mean", newMean));
    }
}
