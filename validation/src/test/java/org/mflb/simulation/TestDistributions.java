package org.mflb.simulation;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.distribution.ServiceDistribution;

/**
 * Small service laws of mean 1 for the simulator's own tests, written independently of solver-core's
 * distribution classes so that a bug there cannot hide one here. Only the moments and the sampler
 * matter to the simulator.
 */
final class TestDistributions {

    private TestDistributions() {
    }

    /** Uniform on [0, 2]: E[S] = 1, E[S²] = 4/3. */
    static ServiceDistribution uniform02() {
        return new Base("uniform:0,2") {
            @Override
            public double moment(int k) {
                return Math.pow(2, k) / (k + 1);
            }

            @Override
            public double survival(double t) {
                return t <= 0 ? 1 : t >= 2 ? 0 : 1 - t / 2;
            }

            @Override
            public ContinuousSampler createSampler(UniformRandomProvider rng) {
                return () -> 2 * rng.nextDouble();
            }
        };
    }

    /**
     * Hyperexponential with balanced means and squared coefficient of variation c² (MODELS.md §6):
     * p = (1 + √((c²−1)/(c²+1)))/2, rates 2p and 2(1−p); E[S²] = 1 + c².
     */
    static ServiceDistribution h2(double scv) {
        double p = 0.5 * (1 + Math.sqrt((scv - 1) / (scv + 1)));
        double mu1 = 2 * p;
        double mu2 = 2 * (1 - p);
        return new Base("h2:scv=" + scv) {
            @Override
            public double moment(int k) {
                double f = 1;
                for (int j = 2; j <= k; j++) {
                    f *= j;
                }
                return f * (p / Math.pow(mu1, k) + (1 - p) / Math.pow(mu2, k));
            }

            @Override
            public double survival(double t) {
                return p * Math.exp(-mu1 * t) + (1 - p) * Math.exp(-mu2 * t);
            }

            @Override
            public ContinuousSampler createSampler(UniformRandomProvider rng) {
                ContinuousSampler e = ZigguratSampler.Exponential.of(rng);
                return () -> e.sample() / (rng.nextDouble() < p ? mu1 : mu2);
            }
        };
    }

    /** Log-normal of mean 1 and squared coefficient of variation c²: σ² = ln(1+c²), μ = −σ²/2. */
    static ServiceDistribution lognormal(double scv) {
        double s2 = Math.log(1 + scv);
        double sigma = Math.sqrt(s2);
        double mu = -s2 / 2;
        return new Base("lognormal:scv=" + scv) {
            @Override
            public double moment(int k) {
                return Math.exp(k * mu + k * k * s2 / 2);
            }

            @Override
            public double survival(double t) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ContinuousSampler createSampler(UniformRandomProvider rng) {
                ContinuousSampler z = ZigguratSampler.NormalizedGaussian.of(rng);
                return () -> Math.exp(mu + sigma * z.sample());
            }
        };
    }

    /** The parts of the interface the simulator does not use. */
    private abstract static class Base implements ServiceDistribution {
        private final String spec;

        Base(String spec) {
            this.spec = spec;
        }

        @Override
        public double mean() {
            return moment(1);
        }

        @Override
        public double density(double t) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double hazard(double t) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double meanResidualLife(double a) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double survivalQuantile(double tailMass) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String spec() {
            return spec;
        }
    }
}
