package org.mflb.core.distribution;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.core.Require;

/**
 * The law of {@code cS}, {@code c = m/E[S]}, for a law {@code S} that has no rescaling of its own
 * (the default of {@link ServiceDistribution#withMean}): {@code Ḡ_c(t) = Ḡ(t/c)},
 * {@code g_c(t) = g(t/c)/c}, {@code η_c(t) = η(t/c)/c}, {@code m_c(a) = c·m(a/c)},
 * {@code E[(cS)^k] = c^k E[S^k]}. The built-in laws override {@code withMean} with their own type.
 */
final class ScaledDistribution extends AbstractServiceDistribution {

    private final ServiceDistribution base;
    private final double mean;
    private final double factor;

    ScaledDistribution(ServiceDistribution base, double mean) {
        this.base = base;
        this.mean = Require.positive("mean", mean);
        this.factor = mean / base.mean();
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        return Math.pow(factor, k) * base.moment(k);
    }

    @Override
    public double scv() {
        return base.scv();
    }

    @Override
    public double survival(double t) {
        return base.survival(t / factor);
    }

    @Override
    public double logSurvival(double t) {
        return base.logSurvival(t / factor);
    }

    @Override
    public double density(double t) {
        return base.density(t / factor) / factor;
    }

    @Override
    public boolean hasDensity() {
        return base.hasDensity();
    }

    @Override
    public double hazard(double t) {
        return base.hazard(t / factor) / factor;
    }

    @Override
    public double meanResidualLife(double a) {
        return factor * base.meanResidualLife(a / factor);
    }

    @Override
    public double survivalQuantile(double tailMass) {
        return factor * base.survivalQuantile(tailMass);
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        final ContinuousSampler s = base.createSampler(rng);
        final double c = factor;
        return () -> c * s.sample();
    }

    @Override
    public String spec() {
        return withMeanSuffix(base.spec(), mean);
    }

    @Override
    public ServiceDistribution withMean(double newMean) {
        return new ScaledDistribution(base, newMean);
    }
}
