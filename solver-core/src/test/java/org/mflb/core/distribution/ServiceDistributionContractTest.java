package org.mflb.core.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.Stream;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties every continuous service law must have, checked against independent truths:
 * numerical quadrature of its own survival and density (double-exponential rules, see
 * {@link Quadrature}), the defining identities {@code η = g/Ḡ} and {@code m(a) = ∫Ḡ(a+u)du/Ḡ(a)},
 * and simulation with confidence intervals and a Kolmogorov–Smirnov test at fixed seeds.
 */
class ServiceDistributionContractTest {

    /** Mean-1 parameterisation: exact up to a few roundings in the parameter transforms. */
    private static final double MEAN_TOL = 1e-12;
    /**
     * Quadrature against closed forms: the DE rules reach ~1e-15 on analytic integrands; the
     * special functions (Hipparchus {@code Q(a,x)}, {@code erfc}) are accurate to ~1e-14 relative,
     * so 1e-11 leaves a margin without hiding a wrong formula (those are off by far more).
     */
    private static final double QUAD_TOL = 1e-11;
    /** Two evaluations of the same quantity by different stable formulas (CF vs ratio). */
    private static final double IDENTITY_TOL = 1e-12;
    /** Samples for moments (SE of the mean ≈ c/1000) and for the KS test. */
    private static final int MOMENT_SAMPLES = 1_000_000;
    private static final int KS_SAMPLES = 100_000;
    /** 0.1% critical value of the Kolmogorov distribution: P(√n D > 1.9495) = 0.001. */
    private static final double KS_CRITICAL = 1.9495;
    /** Mean and variance within 4.5 standard errors (two-sided 7e-6 each; fixed seeds). */
    private static final double Z_CI = 4.5;

    static Stream<ServiceDistribution> laws() {
        double[][] t = {{-3, 1, 0.5}, {0.2, -1, 0.3}, {0, 0.4, -0.8}};
        return Stream.of(
                Exponential.unit(),
                Erlang.of(1), Erlang.of(2), Erlang.of(5), Erlang.of(30),
                Gamma.ofScv(0.5), Gamma.ofScv(4), Gamma.ofScv(0.01), Gamma.ofScv(1.0 / 3), Gamma.ofScv(30),
                HyperExponential.balancedMeans(1), HyperExponential.balancedMeans(4), HyperExponential.balancedMeans(50),
                LogNormal.ofScv(0.25), LogNormal.ofScv(1), LogNormal.ofScv(4), LogNormal.ofScv(25),
                Weibull.ofShape(0.5), Weibull.ofShape(1), Weibull.ofShape(2), Weibull.ofShape(3.5), Weibull.ofShape(0.3),
                Pareto.ofShape(1.5), Pareto.ofShape(2.5), Pareto.ofShape(4.5),
                PhaseType.of(new double[] {0.6, 0.3, 0.1}, t).withMean(1.0),
                Erlang.of(3).asPhaseType().orElseThrow(),
                HyperExponential.balancedMeans(9).asPhaseType().orElseThrow());
    }

    /** Lower end of the support (the Pareto minimum), where the survival has a kink. */
    private static double start(ServiceDistribution d) {
        return d instanceof Pareto ? ((Pareto) d).minimum() : 0.0;
    }

    /** Smallest age used as a lower integration limit (see the density test). */
    private static final double MIN_AGE = 1e-290;

    /**
     * {@code ∫_a^b g}. Near 0, in the variable {@code u = ln(b/t)} on {@code [0, ln(b/a)]}, which
     * turns the gamma density's {@code t^{a−1}} singularity (a = 1/30 here) into the smooth
     * {@code e^{−au}}.
     */
    private static double integrateDensity(ServiceDistribution d, double a, double b) {
        if (a < 1e-3 * b) {
            return Quadrature.finite(u -> {
                double t = b * Math.exp(-u);
                return t * d.density(t);
            }, 0.0, Math.log(b / a));
        }
        return Quadrature.finite(d::density, a, b);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void meanIsOneAndMomentsMatchTheParameterisation(ServiceDistribution d) {
        assertEquals(1.0, d.mean(), MEAN_TOL);
        assertEquals(1.0, d.moment(1), MEAN_TOL);
        assertEquals(1.0, d.moment(0));
        double m2 = d.moment(2);
        if (Double.isFinite(m2)) {
            assertEquals(d.scv(), m2 - 1.0, 1e-12 * m2);
        } else {
            assertEquals(Double.POSITIVE_INFINITY, d.scv());
        }
        // E[S] = ∫Ḡ and E[S²] = 2∫tḠ by quadrature of the survival function
        double x0 = start(d);
        double mean = x0 + Quadrature.toInfinity(d::survival, x0);
        assertEquals(1.0, mean, QUAD_TOL);
        if (Double.isFinite(m2)) {
            double second = x0 * x0 + 2 * Quadrature.toInfinity(t -> t * d.survival(t), x0);
            assertEquals(m2, second, QUAD_TOL * m2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void densityIntegratesToTheDropInSurvival(ServiceDistribution d) {
        // Lower end: the support start, but not below 1e-290: the gamma density with a = 1/30 still
        // holds mass ~1e-10 below it, at ages where g itself overflows the double range
        double x0 = Math.max(start(d), MIN_AGE);
        double[] points = {x0, x0 + 0.1, d.survivalQuantile(0.5), 1.0, d.survivalQuantile(1e-3),
            d.survivalQuantile(1e-8)};
        Arrays.sort(points);
        for (int i = 0; i + 1 < points.length; i++) {
            double a = Math.max(points[i], x0);
            double b = points[i + 1];
            if (!(b > a)) {
                continue;
            }
            double integral = integrateDensity(d, a, b);
            double drop = d.survival(a) - d.survival(b);
            assertEquals(drop, integral, QUAD_TOL * Math.max(drop, 1e-3), d + " on [" + a + ", " + b + "]");
        }
        // and the rest of the mass: ∫_{x0}^∞ g = Ḡ(x0)
        double median = d.survivalQuantile(0.5);
        double rest = (median > x0 ? integrateDensity(d, x0, median) : 0.0)
                + Quadrature.toInfinity(d::density, Math.max(x0, median), Math.max(median, 1e-3));
        assertEquals(d.survival(x0), rest, QUAD_TOL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void hazardIsDensityOverSurvivalAndStableAtHugeAges(ServiceDistribution d) {
        double x0 = start(d);
        for (double eps : new double[] {0.9, 0.5, 1e-2, 1e-6, 1e-12, 1e-50, 1e-150, 1e-250}) {
            double t = Math.max(d.survivalQuantile(eps), x0 + 1e-3);
            double g = d.density(t);
            double s = d.survival(t);
            if (g < 1e-290) {
                continue; // density not representable (Pareto far tail): nothing to compare
            }
            assertEquals(g / s, d.hazard(t), IDENTITY_TOL * g / s, d + " at t = " + t);
            assertEquals(Math.log(s), d.logSurvival(t), IDENTITY_TOL * Math.max(1.0, -Math.log(s)), d + " at t = " + t);
        }
        for (double t : new double[] {1e3, 1e6, 1e12, 1e100, 1e300}) {
            double h = d.hazard(t);
            // finite where representable; beyond 1e12 a growing hazard (Weibull k > 1) may exceed the double range
            assertTrue((t > 1e12 || Double.isFinite(h)) && h >= 0, d + ": hazard(" + t + ") = " + h);
            double m = d.meanResidualLife(t);
            assertFalse(Double.isNaN(m), d + ": m(" + t + ") = NaN");
            assertTrue(m >= 0, d + ": m(" + t + ") = " + m);
            double ls = d.logSurvival(t);
            assertTrue(ls <= 0 && !Double.isNaN(ls), d + ": logSurvival(" + t + ") = " + ls);
        }
        assertEquals(0.0, d.hazard(-1.0));
        assertEquals(1.0, d.survival(-1.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void logSurvivalIsExactWhereSurvivalIsNearlyOne(ServiceDistribution d) {
        // ln Ḡ(t) = log1p(−∫_{x0}^t g): a tiny completed mass must not be lost to 1 − Ḡ rounding
        for (double mass : new double[] {1e-4, 1e-9, 1e-13}) {
            double t = d.survivalQuantile(1.0 - mass);
            if (d.survival(MIN_AGE) < 1.0) {
                continue; // mass below the integration limit (gamma, a = 1/30: 2e-10): no exact reference
            }
            double completed = integrateDensity(d, Math.max(start(d), MIN_AGE), t);
            double expected = Math.log1p(-completed);
            assertEquals(expected, d.logSurvival(t), 1e-10 * Math.abs(expected), d + " at t = " + t);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void meanResidualLifeMatchesIntegralOfSurvival(ServiceDistribution d) {
        double x0 = start(d);
        for (double a : new double[] {0.0, 0.3, x0, 1.0, 3.0, d.survivalQuantile(1e-6), d.survivalQuantile(1e-100)}) {
            double sa = d.survival(a);
            // the quadrature nodes are spread on the scale of m(a) itself (only efficiency depends on it)
            double scale = Math.max(1e-3, d.meanResidualLife(a));
            double integral;
            if (sa > 1e-200) {
                integral = (a < x0 ? Quadrature.finite(d::survival, a, x0) + Quadrature.toInfinity(d::survival, x0)
                        : Quadrature.toInfinity(d::survival, a, scale)) / sa;
            } else {
                // where Ḡ is tiny, integrate the ratio Ḡ(u)/Ḡ(a) through the log-survival
                double la = d.logSurvival(a);
                integral = Quadrature.toInfinity(u -> Math.exp(d.logSurvival(u) - la), a, scale);
            }
            double m = d.meanResidualLife(a);
            assertEquals(integral, m, 1e-10 * integral, d + " at a = " + a);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void survivalQuantileInvertsSurvival(ServiceDistribution d) {
        for (double eps : new double[] {0.99, 0.5, 1e-3, 1e-9, 1e-15, 1e-100}) {
            double q = d.survivalQuantile(eps);
            // Ḡ(q) = ε up to the rounding of q (relative change of Ḡ: η(q)·q·1e-16, at most ~1e-13 here)
            assertEquals(eps, d.survival(q), 1e-12 * eps, d + " at eps = " + eps);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void samplerMatchesMeanVarianceAndSurvival(ServiceDistribution d) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(20240611L);
        ContinuousSampler sampler = d.createSampler(rng);
        double m2 = d.moment(2);
        double m4 = d.moment(4);
        if (Double.isFinite(m2)) {
            double sum = 0;
            double sumSq = 0;
            for (int i = 0; i < MOMENT_SAMPLES; i++) {
                double x = sampler.sample();
                sum += x;
                sumSq += x * x;
            }
            double mean = sum / MOMENT_SAMPLES;
            double var = d.moment(2) - 1.0;
            assertEquals(1.0, mean, Z_CI * Math.sqrt(var / MOMENT_SAMPLES), d + " sample mean");
            if (Double.isFinite(m4)) {
                // Var of the sample second moment: E[S⁴] − E[S²]²
                double second = sumSq / MOMENT_SAMPLES;
                assertEquals(m2, second, Z_CI * Math.sqrt((m4 - m2 * m2) / MOMENT_SAMPLES), d + " sample E[S²]");
            }
        }
        double[] x = new double[KS_SAMPLES];
        for (int i = 0; i < KS_SAMPLES; i++) {
            x[i] = sampler.sample();
        }
        Arrays.sort(x);
        double dn = 0;
        for (int i = 0; i < KS_SAMPLES; i++) {
            double cdf = 1.0 - d.survival(x[i]);
            dn = Math.max(dn, Math.max((i + 1.0) / KS_SAMPLES - cdf, cdf - (double) i / KS_SAMPLES));
        }
        assertTrue(Math.sqrt(KS_SAMPLES) * dn < KS_CRITICAL, d + ": KS statistic √n·D = " + Math.sqrt(KS_SAMPLES) * dn);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void specRoundTrips(ServiceDistribution d) {
        ServiceDistribution parsed = ServiceDistributions.parse(d.spec());
        assertEquals(d, parsed);
        assertEquals(d.spec(), parsed.spec());
        assertEquals(d.survival(1.7), parsed.survival(1.7));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laws")
    void withMeanRescales(ServiceDistribution d) {
        double c = 2.5;
        ServiceDistribution s = d.withMean(c);
        assertEquals(c, s.mean(), 1e-12 * c);
        assertEquals(d.scv(), s.scv(), 1e-12 * Math.max(1, d.scv()));
        for (double t : new double[] {0.2, 1.0, 4.0}) {
            assertEquals(d.survival(t), s.survival(c * t), 1e-12, s + " at " + t);
            assertEquals(d.hazard(t) / c, s.hazard(c * t), 1e-12 * d.hazard(t), s + " at " + t);
            assertEquals(c * d.meanResidualLife(t), s.meanResidualLife(c * t), 1e-12 * c * d.meanResidualLife(t));
        }
        assertEquals(s, ServiceDistributions.parse(s.spec()));
    }
}
