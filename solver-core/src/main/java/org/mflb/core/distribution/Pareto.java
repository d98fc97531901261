package org.mflb.core.distribution;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Pareto (type I) law of shape {@code α > 1} and mean {@code m} (docs/models.md §6), support
 * {@code [x_m, ∞)} with {@code x_m = m(α − 1)/α}:
 * <pre>
 *   Ḡ(t) = (x_m/t)^α,   g(t) = α x_m^α / t^{α+1},   η(t) = α/t   (t ≥ x_m),
 *   m(a) = a/(α − 1) (a ≥ x_m),  m − a (a &lt; x_m),
 *   E[S^k] = α x_m^k/(α − k) for k &lt; α, +∞ for k ≥ α (α ≤ 2: infinite variance).
 * </pre>
 * Specification {@code pareto:shape=α} or {@code pareto:shape=α,mean=m}. Sampled by inversion
 * in the form {@code x_m e^{E/α}} ({@code E} a ziggurat exponential), which never returns
 * {@code +∞}.
 */
public final class Pareto extends AbstractServiceDistribution {

    private final double shape;
    private final double mean;
    private final double xm;

    private Pareto(double shape, double mean) {
        this.shape = shape;
        this.mean = mean;
        this.xm = mean * (shape - 1.0) / shape;
    }

    /** @return the Pareto law of mean 1 and shape {@code shape > 1} */
    public static Pareto ofShape(double shape) {
        return ofShape(shape, 1.0);
    }

    /** @return the Pareto law of mean {@code mean} and shape {@code shape > 1} */
    public static Pareto ofShape(double shape, double mean) {
        if (!(shape > 1.0) || !Double.isFinite(shape)) {
            throw MflbException.invalid("pareto shape", shape, "> 1 (mean must be finite)");
        }
        Require.positive("pareto mean", mean);
        return new Pareto(shape, mean);
    }

    /** @return the shape {@code α} */
    public double shape() {
        return shape;
    }

    /** @return the lower end of the support {@code x_m} */
    public double minimum() {
        return xm;
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        if (k >= shape) {
            return Double.POSITIVE_INFINITY;
        }
        return shape * Math.pow(xm, k) / (shape - k);
    }

    @Override
    public double scv() {
        return shape > 2.0 ? 1.0 / (shape * (shape - 2.0)) : Double.POSITIVE_INFINITY;
    }

    @Override
    public double survival(double t) {
        return t <= xm ? 1.0 : Math.pow(xm / t, shape);
    }

    @Override
    public double logSurvival(double t) {
        // −α ln(t/x_m) = −α log1p((t − x_m)/x_m): exact also just above x_m, where ln Ḡ is tiny
        return t <= xm ? 0.0 : -shape * Math.log1p((t - xm) / xm);
    }

    @Override
    public double density(double t) {
        return t < xm ? 0.0 : shape / t * Math.pow(xm / t, shape);
    }

    @Override
    public double hazard(double t) {
        return t < xm ? 0.0 : shape / t;
    }

    @Override
    public double meanResidualLife(double a) {
        return a < xm ? mean - a : a / (shape - 1.0);
    }

    @Override
    public double survivalQuantile(double tailMass) {
        Require.open("tailMass", tailMass, 0.0, 1.0);
        return xm * Math.exp(-Math.log(tailMass) / shape);
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        final ZigguratSampler.Exponential exp = ZigguratSampler.Exponential.of(rng, 1.0 / shape);
        final double x0 = xm;
        return () -> x0 * Math.exp(exp.sample());
    }

    @Override
    public String spec() {
        return withMeanSuffix("pareto:shape=" + format(shape), mean);
    }

    @Override
    public Pareto withMean(double newMean) {
        return ofShape(shape, Require.positive("mean", newMean));
    }
}
