package org.mflb.simulation;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.distribution.ServiceDistribution;

/**
 * Small service laws of mean 1 for the simulator's own tests, written independently of solver-core's
 * distribution classes so that a bug there cannot hide one here. The simulator uses the moments and
 * the sampler; the other functions are the closed forms, for completeness of the interface.
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
            public double density(double t) {
                return t >= 0 && t < 2 ? 0.5 : 0;
            }

            @Override
            public double hazard(double t) {
                return t < 2 ? 1 / (2 - Math.max(t, 0)) : Double.POSITIVE_INFINITY;
            }

            @Override
            public double meanResidualLife(double a) {
                return a < 2 ? (2 - Math.max(a, 0)) / 2 : 0;
            }

            @Override
            public double survivalQuantile(double tailMass) {
                return 2 * (1 - tailMass);
            }

            @Override
            public ContinuousSampler createSampler(UniformRandomProvider rng) {
                return () -> 2 * rng.nextDouble();
            }
        };
    }

    /**
     * Hyperexponential with balanced means and squared coefficient of variation c² (docs/models.md §6):
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
            public double density(double t) {
                return p * mu1 * Math.exp(-mu1 * t) + (1 - p) * mu2 * Math.exp(-mu2 * t);
            }

            @Override
            public double hazard(double t) {
                return density(t) / survival(t);
            }

            @Override
            public double meanResidualLife(double a) {
                return (p / mu1 * Math.exp(-mu1 * a) + (1 - p) / mu2 * Math.exp(-mu2 * a)) / survival(a);
            }

            @Override
            public double survivalQuantile(double tailMass) {
                // Ḡ decreases: bisection on [0, upper] with Ḡ(upper) <= tailMass.
                double lo = 0;
                double hi = -Math.log(tailMass) / Math.min(mu1, mu2);
                for (int i = 0; i < 200; i++) {
                    double mid = 0.5 * (lo + hi);
                    if (survival(mid) > tailMass) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                return hi;
            }

            @Override
            public ContinuousSampler createSampler(UniformRandomProvider rng) {
                ContinuousSampler e = ZigguratSampler.Exponential.of(rng);
                return () -> e.sample() / (rng.nextDouble() < p ? mu1 : mu2);
            }
        };
    }

    /** The specification string and the mean, shared by the laws above. */
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
        public String spec() {
            return spec;
        }
    }
}
