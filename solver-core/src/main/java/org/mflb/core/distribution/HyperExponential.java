package org.mflb.core.distribution;

import java.util.Optional;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Two-phase hyperexponential law H2 with balanced means, parameterised by its squared coefficient
 * of variation {@code c² ≥ 1} and mean {@code m} (docs/models.md §6): with probability {@code p} an
 * exponential of rate {@code μ1}, otherwise one of rate {@code μ2}, where
 * <pre>
 *   p = (1 + √((c²−1)/(c²+1)))/2,   μ1 = 2p/m,   μ2 = 2(1−p)/m   (so p/μ1 = (1−p)/μ2 = m/2),
 *   Ḡ(t) = p e^{−μ1 t} + (1−p) e^{−μ2 t},   E[S^k] = k! (p/μ1^k + (1−p)/μ2^k).
 * </pre>
 * Hazard and mean residual life are evaluated after factoring out {@code e^{−μ2 t}} (the slower
 * phase, {@code μ2 ≤ μ1}), so they stay exact at any age; {@code c² = 1} is the exponential law.
 * Specification {@code h2:scv=c²} or {@code h2:scv=c²,mean=m}.
 */
public final class HyperExponential extends AbstractServiceDistribution {

    private final double scvParameter;
    private final double mean;
    private final double p;
    /** {@code 1 − p}, computed without cancellation for large {@code c²}. */
    private final double q;
    private final double mu1;
    private final double mu2;
    private final double mean1;
    private final double mean2;

    private HyperExponential(double scv, double mean) {
        this.scvParameter = scv;
        this.mean = mean;
        double r = (scv - 1.0) / (scv + 1.0);
        double sqrtR = Math.sqrt(r);
        this.p = 0.5 * (1.0 + sqrtR);
        // 1 − p = (1 − √r)/2 = (1 − r)/(2(1 + √r)) = 1/((c² + 1)(1 + √r))
        this.q = 1.0 / ((scv + 1.0) * (1.0 + sqrtR));
        this.mu1 = 2.0 * p / mean;
        this.mu2 = 2.0 * q / mean;
        this.mean1 = 1.0 / mu1;
        this.mean2 = 1.0 / mu2;
    }

    /** @return the balanced-means H2 law of mean 1 and squared coefficient of variation {@code scv ≥ 1} */
    public static HyperExponential balancedMeans(double scv) {
        return balancedMeans(scv, 1.0);
    }

    /** @return the balanced-means H2 law of mean {@code mean} and squared coefficient of variation {@code scv ≥ 1} */
    public static HyperExponential balancedMeans(double scv, double mean) {
        if (!(scv >= 1.0) || !Double.isFinite(scv)) {
            throw MflbException.invalid("h2 scv", scv, "a finite number >= 1 (an H2 law is at least as variable as the exponential)");
        }
        Require.positive("h2 mean", mean);
        return new HyperExponential(scv, mean);
    }

    /** @return probability {@code p} of the fast phase */
    public double p() {
        return p;
    }

    /** @return rate {@code μ1} of the fast phase */
    public double mu1() {
        return mu1;
    }

    /** @return rate {@code μ2} of the slow phase */
    public double mu2() {
        return mu2;
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        double f = 1.0;
        double a = 1.0;
        double b = 1.0;
        for (int j = 1; j <= k; j++) {
            f *= j;
            a *= mean1;
            b *= mean2;
        }
        return f * (p * a + q * b);
    }

    @Override
    public double scv() {
        return scvParameter;
    }

    /** @return {@code e^{−(μ1−μ2) t}}, the weight of the fast phase relative to the slow one */
    private double fastFactor(double t) {
        return Math.exp(-(mu1 - mu2) * t);
    }

    @Override
    public double survival(double t) {
        if (t <= 0) {
            return 1.0;
        }
        return p * Math.exp(-mu1 * t) + q * Math.exp(-mu2 * t);
    }

    @Override
    public double logSurvival(double t) {
        if (t <= 0) {
            return 0.0;
        }
        // q + p e^{−δt} = 1 + p (e^{−δt} − 1): exact also where ln Ḡ is tiny
        return -mu2 * t + Math.log1p(p * Math.expm1(-(mu1 - mu2) * t));
    }

    @Override
    public double density(double t) {
        if (t < 0) {
            return 0.0;
        }
        return p * mu1 * Math.exp(-mu1 * t) + q * mu2 * Math.exp(-mu2 * t);
    }

    @Override
    public double hazard(double t) {
        if (t < 0) {
            return 0.0;
        }
        double f = fastFactor(t);
        return (p * mu1 * f + q * mu2) / (p * f + q);
    }

    @Override
    public double meanResidualLife(double a) {
        if (a < 0) {
            return mean - a;
        }
        double f = fastFactor(a);
        return (p * mean1 * f + q * mean2) / (p * f + q);
    }

    @Override
    public double survivalQuantile(double tailMass) {
        return bisectSurvivalQuantile(tailMass);
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        final ZigguratSampler.Exponential exp = ZigguratSampler.Exponential.of(rng);
        final double prob = p;
        final double m1 = mean1;
        final double m2 = mean2;
        return () -> exp.sample() * (rng.nextDouble() < prob ? m1 : m2);
    }

    @Override
    public String spec() {
        return withMeanSuffix("h2:scv=" + format(scvParameter), mean);
    }

    @Override
    public Optional<PhaseType> asPhaseType() {
        return Optional.of(PhaseType.of(new double[] {p, q}, new double[][] {{-mu1, 0.0}, {0.0, -mu2}}));
    }

    @Override
    public HyperExponential withMean(double newMean) {
        return balancedMeans(scvParameter, Require.positive("mean", newMean));
    }
}
