package org.mflb.core.distribution;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.LogNormalSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.Require;

/**
 * Log-normal law parameterised by its squared coefficient of variation {@code c²} and mean
 * {@code m} (docs/models.md §6): {@code S = e^{μ + σN}}, {@code N} standard normal, with
 * <pre>
 *   σ² = ln(1 + c²),   μ = ln m − σ²/2,   z(t) = (ln t − μ)/σ,
 *   Ḡ(t) = Φc(z),   g(t) = φ(z)/(σ t),   E[S^k] = m^k (1 + c²)^{k(k−1)/2},
 *   m(a) = m Φc(z − σ)/Φc(z) − a = a [M(z − σ)/M(z) − 1],
 * </pre>
 * where {@code M = Φc/φ} is the normal Mills ratio. Above the median the hazard
 * {@code 1/(σ t M(z))} and the second form of {@code m(a)} are used, which stay accurate where
 * {@code Φc(z)} underflows. Specification {@code lognormal:scv=c²} or
 * {@code lognormal:scv=c²,mean=m}. Sampled as {@code exp(μ + σN)} with the ziggurat Gaussian sampler.
 */
public final class LogNormal extends AbstractServiceDistribution {

    private final double scvParameter;
    private final double mean;
    private final double mu;
    private final double sigma;

    private LogNormal(double scv, double mean) {
        this.scvParameter = scv;
        this.mean = mean;
        double sigma2 = Math.log1p(scv);
        this.sigma = Math.sqrt(sigma2);
        this.mu = Math.log(mean) - 0.5 * sigma2;
    }

    /** @return the log-normal law of mean 1 and squared coefficient of variation {@code scv > 0} */
    public static LogNormal ofScv(double scv) {
        return ofScv(scv, 1.0);
    }

    /** @return the log-normal law of mean {@code mean} and squared coefficient of variation {@code scv > 0} */
    public static LogNormal ofScv(double scv, double mean) {
        Require.positive("lognormal scv", scv);
        Require.positive("lognormal mean", mean);
        return new LogNormal(scv, mean);
    }

    /** @return location {@code μ} of {@code ln S} */
    public double mu() {
        return mu;
    }

    /** @return scale {@code σ} of {@code ln S} */
    public double sigma() {
        return sigma;
    }

    private double z(double t) {
        return (Math.log(t) - mu) / sigma;
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        return Math.pow(mean, k) * Math.pow(1.0 + scvParameter, 0.5 * k * (k - 1.0));
    }

    @Override
    public double scv() {
        return scvParameter;
    }

    @Override
    public double survival(double t) {
        return t <= 0 ? 1.0 : SpecialFunctions.normalSurvival(z(t));
    }

    @Override
    public double logSurvival(double t) {
        return t <= 0 ? 0.0 : SpecialFunctions.logNormalSurvival(z(t));
    }

    @Override
    public double density(double t) {
        if (t <= 0) {
            return 0.0;
        }
        return SpecialFunctions.normalDensity(z(t)) / (sigma * t);
    }

    @Override
    public double hazard(double t) {
        if (t <= 0) {
            return 0.0;
        }
        double z = z(t);
        if (z < 0) {
            return SpecialFunctions.normalDensity(z) / (sigma * t * SpecialFunctions.normalSurvival(z));
        }
        return 1.0 / (sigma * t * SpecialFunctions.millsRatio(z));
    }

    @Override
    public double meanResidualLife(double a) {
        if (a <= 0) {
            return mean - a;
        }
        if (a == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        double z = z(a);
        if (z <= 0) {
            return mean * SpecialFunctions.normalSurvival(z - sigma) / SpecialFunctions.normalSurvival(z) - a;
        }
        return a * (SpecialFunctions.millsRatio(z - sigma) / SpecialFunctions.millsRatio(z) - 1.0);
    }

    @Override
    public double survivalQuantile(double tailMass) {
        return bisectSurvivalQuantile(tailMass);
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        return LogNormalSampler.of(ZigguratSampler.NormalizedGaussian.of(rng), mu, sigma);
    }

    @Override
    public String spec() {
        return withMeanSuffix("lognormal:scv=" + format(scvParameter), mean);
    }

    @Override
    public LogNormal withMean(double newMean) {
        return ofScv(scvParameter, Require.positive("mean", newMean));
    }
}
