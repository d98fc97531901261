package org.mflb.pde;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.hipparchus.special.Erf;
import org.hipparchus.special.Gamma;
import org.mflb.core.distribution.ServiceDistribution;

/**
 * Test-only service laws of mean 1 with closed-form survival {@code Ḡ} and residual integral
 * {@code I(a) = ∫_a^∞ Ḡ} (written here independently of the production distributions, which live on
 * another branch). Hazard, density and mean residual life derive from them; the quantile bisects.
 */
abstract class TestLaws implements ServiceDistribution {

    abstract double residualIntegral(double a);

    @Override
    public double mean() {
        return moment(1);
    }

    @Override
    public double hazard(double t) {
        double s = survival(t);
        return s > 0 ? density(t) / s : density(t) / 1e-300;
    }

    @Override
    public double meanResidualLife(double a) {
        double s = survival(a);
        return s > 0 ? residualIntegral(a) / s : Double.POSITIVE_INFINITY;
    }

    @Override
    public double survivalQuantile(double tailMass) {
        double hi = 1;
        while (survival(hi) > tailMass) {
            hi *= 2;
        }
        double lo = 0;
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
        throw new UnsupportedOperationException("test law");
    }

    /** Exponential, rate 1. */
    static TestLaws exponential() {
        return new TestLaws() {
            double residualIntegral(double a) {
                return Math.exp(-a);
            }
            public double moment(int k) {
                return Gamma.gamma(k + 1);
            }
            public double survival(double t) {
                return Math.exp(-t);
            }
            public double density(double t) {
                return Math.exp(-t);
            }
            public String spec() {
                return "exp";
            }
        };
    }

    /** Erlang-2 of mean 1 (two phases of rate 2). */
    static TestLaws erlang2() {
        return new TestLaws() {
            double residualIntegral(double a) {
                return Math.exp(-2 * a) * (a + 1);
            }
            public double moment(int k) {
                return Gamma.gamma(k + 2) / Math.pow(2, k);
            }
            public double survival(double t) {
                return Math.exp(-2 * t) * (1 + 2 * t);
            }
            public double density(double t) {
                return 4 * t * Math.exp(-2 * t);
            }
            public String spec() {
                return "erlang:k=2";
            }
        };
    }

    /** H2 with balanced means and the given SCV (MODELS.md §6). */
    static TestLaws h2(double scv) {
        double p = (1 + Math.sqrt((scv - 1) / (scv + 1))) / 2;
        double m1 = 2 * p;
        double m2 = 2 * (1 - p);
        return new TestLaws() {
            double residualIntegral(double a) {
                return p / m1 * Math.exp(-m1 * a) + (1 - p) / m2 * Math.exp(-m2 * a);
            }
            public double moment(int k) {
                return Gamma.gamma(k + 1) * (p / Math.pow(m1, k) + (1 - p) / Math.pow(m2, k));
            }
            public double survival(double t) {
                return p * Math.exp(-m1 * t) + (1 - p) * Math.exp(-m2 * t);
            }
            public double density(double t) {
                return p * m1 * Math.exp(-m1 * t) + (1 - p) * m2 * Math.exp(-m2 * t);
            }
            public String spec() {
                return "h2:scv=" + scv;
            }
        };
    }

    /** Log-normal of mean 1 and the given SCV: σ² = ln(1 + c²), μ = −σ²/2. */
    static TestLaws lognormal(double scv) {
        double s2 = Math.log(1 + scv);
        double s = Math.sqrt(s2);
        double mu = -s2 / 2;
        return new TestLaws() {
            double upper(double z) { // P(Z > z)
                return 0.5 * Erf.erfc(z / Math.sqrt(2));
            }
            double residualIntegral(double a) {
                if (a <= 0) {
                    return 1.0;
                }
                double la = Math.log(a);
                // E[(S − a)^+] = e^{μ+σ²/2} P(Z > (ln a − μ − σ²)/σ) − a P(Z > (ln a − μ)/σ)
                return upper((la - mu - s2) / s) - a * upper((la - mu) / s);
            }
            public double moment(int k) {
                return Math.exp(k * mu + k * k * s2 / 2);
            }
            public double survival(double t) {
                return t <= 0 ? 1.0 : upper((Math.log(t) - mu) / s);
            }
            public double density(double t) {
                if (t <= 0) {
                    return 0;
                }
                double z = (Math.log(t) - mu) / s;
                return Math.exp(-z * z / 2) / (t * s * Math.sqrt(2 * Math.PI));
            }
            public String spec() {
                return "lognormal:scv=" + scv;
            }
        };
    }

    /** Pareto of mean 1 and shape α > 1: x_m = (α−1)/α. */
    static TestLaws pareto(double alpha) {
        double xm = (alpha - 1) / alpha;
        return new TestLaws() {
            double residualIntegral(double a) {
                if (a < xm) {
                    return xm - a + xm / (alpha - 1);
                }
                return Math.pow(xm / a, alpha) * a / (alpha - 1);
            }
            public double moment(int k) {
                return k < alpha ? alpha * Math.pow(xm, k) / (alpha - k) : Double.POSITIVE_INFINITY;
            }
            public double survival(double t) {
                return t < xm ? 1.0 : Math.pow(xm / t, alpha);
            }
            public double density(double t) {
                return t < xm ? 0.0 : alpha / xm * Math.pow(xm / t, alpha + 1);
            }
            public String spec() {
                return "pareto:shape=" + alpha;
            }
        };
    }

    /** Weibull of shape 1/2 and mean 1: Ḡ = exp(−√(t/s)), s = 1/Γ(3) = 1/2. */
    static TestLaws weibullHalf() {
        double sc = 0.5;
        return new TestLaws() {
            double residualIntegral(double a) {
                double z = Math.sqrt(a / sc);
                return 2 * sc * (1 + z) * Math.exp(-z);
            }
            public double moment(int k) {
                return Math.pow(sc, k) * Gamma.gamma(1 + 2.0 * k);
            }
            public double survival(double t) {
                return Math.exp(-Math.sqrt(t / sc));
            }
            public double density(double t) {
                double z = Math.sqrt(t / sc);
                return t > 0 ? Math.exp(-z) * 0.5 * z / t : Double.MAX_VALUE;
            }
            public String spec() {
                return "weibull:shape=0.5";
            }
        };
    }
}
