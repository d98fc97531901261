package org.mflb.core.distribution;

import java.util.Optional;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.Require;

/**
 * Exponential law of mean {@code m} (rate {@code 1/m}), docs/models.md §6:
 * <pre>
 *   Ḡ(t) = e^{-t/m},  g(t) = e^{-t/m}/m,  η(t) = 1/m,  m(a) = m,  E[S^k] = k!·m^k.
 * </pre>
 * Specification {@code exp} (mean 1) or {@code exp:mean=m}. Sampled with the ziggurat
 * exponential sampler of Commons RNG.
 */
public final class Exponential extends AbstractServiceDistribution {

    private static final Exponential UNIT = new Exponential(1.0);

    private final double mean;
    private final double rate;

    private Exponential(double mean) {
        this.mean = Require.positive("exp mean", mean);
        this.rate = 1.0 / mean;
    }

    /** @return the exponential law of mean 1 */
    public static Exponential unit() {
        return UNIT;
    }

    /** @return the exponential law of mean {@code mean} ({@code > 0}, finite) */
    public static Exponential ofMean(double mean) {
        return mean == 1.0 ? UNIT : new Exponential(mean);
    }

    /** @return the exponential law of rate {@code rate} ({@code > 0}, finite) */
    public static Exponential ofRate(double rate) {
        return ofMean(1.0 / Require.positive("exp rate", rate));
    }

    /** @return the rate {@code 1/m} */
    public double rate() {
        return rate;
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        double r = 1.0;
        for (int j = 1; j <= k; j++) {
            r *= j * mean;
        }
        return r;
    }

    @Override
    public double scv() {
        return 1.0;
    }

    @Override
    public double survival(double t) {
        return t <= 0 ? 1.0 : Math.exp(-t * rate);
    }

    @Override
    public double logSurvival(double t) {
        return t <= 0 ? 0.0 : -t * rate;
    }

    @Override
    public double density(double t) {
        return t < 0 ? 0.0 : rate * Math.exp(-t * rate);
    }

    @Override
    public double hazard(double t) {
        return t < 0 ? 0.0 : rate;
    }

    @Override
    public double meanResidualLife(double a) {
        return a < 0 ? mean - a : mean;
    }

    @Override
    public double survivalQuantile(double tailMass) {
        Require.open("tailMass", tailMass, 0.0, 1.0);
        return -Math.log(tailMass) * mean;
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        return ZigguratSampler.Exponential.of(rng, mean);
    }

    @Override
    public String spec() {
        return withMeanSuffix("exp", mean);
    }

    @Override
    public Optional<PhaseType> asPhaseType() {
        return Optional.of(PhaseType.of(new double[] {1.0}, new double[][] {{-rate}}));
    }

    @Override
    public Exponential withMean(double newMean) {
        return ofMean(Require.positive("mean", newMean));
    }
}
