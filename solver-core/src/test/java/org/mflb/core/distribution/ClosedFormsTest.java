package org.mflb.core.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** Law-specific facts: parameter transforms of docs/models.md §6, limit cases and asymptotics. */
class ClosedFormsTest {

    @Test
    void deterministicHasAnAtomAtItsValue() {
        Deterministic d = Deterministic.unit();
        assertFalse(d.hasDensity());
        assertEquals(1.0, d.survival(0.999));
        assertEquals(0.0, d.survival(1.0));
        assertEquals(0.0, d.hazard(0.5));
        assertEquals(Double.POSITIVE_INFINITY, d.hazard(1.0));
        assertEquals(0.75, d.meanResidualLife(0.25));
        assertEquals(0.0, d.scv());
        assertEquals(1.0, d.moment(5));
        assertEquals(1.0, d.survivalQuantile(1e-9));
        ContinuousSampler s = d.createSampler(RandomSource.SPLIT_MIX_64.create(1L));
        assertEquals(1.0, s.sample());
        assertEquals("det", d.spec());
    }

    @Test
    void h2ParametersFollowBalancedMeans() {
        for (double c2 : new double[] {1.0, 2.0, 4.0, 100.0, 1e6}) {
            HyperExponential h = HyperExponential.balancedMeans(c2);
            double p = 0.5 * (1 + Math.sqrt((c2 - 1) / (c2 + 1)));
            assertEquals(p, h.p(), 1e-15);
            assertEquals(2 * p, h.mu1(), 1e-15);
            // μ2 = 2(1−p) computed without cancellation: check against the exact identity p/μ1 = (1−p)/μ2 = 1/2
            assertEquals(0.5, (1 - h.p()) / h.mu2(), 1e-9);
            assertEquals(c2, h.moment(2) - 1, 1e-12 * c2);
        }
    }

    @Test
    void lognormalParametersFollowTheScv() {
        LogNormal l = LogNormal.ofScv(4);
        assertEquals(Math.log(5), l.sigma() * l.sigma(), 1e-15);
        assertEquals(-0.5 * Math.log(5), l.mu(), 1e-15);
        // E[S^k] = exp(kμ + k²σ²/2)
        for (int k = 1; k <= 4; k++) {
            double expected = Math.exp(k * l.mu() + 0.5 * k * k * l.sigma() * l.sigma());
            assertEquals(expected, l.moment(k), 1e-13 * expected);
        }
        // median e^μ
        assertEquals(0.5, l.survival(Math.exp(l.mu())), 1e-15);
    }

    @Test
    void lognormalTailFollowsMillsAsymptotics() {
        // hazard·σt = 1/M(z) with z/(1 + 1/z²) ≤ 1/M(z) ≤ z(1 + 1/z²) for large z (Mills inequalities)
        LogNormal l = LogNormal.ofScv(4);
        for (double t : new double[] {1e6, 1e12, 1e50, 1e300}) {
            double z = (Math.log(t) - l.mu()) / l.sigma();
            double inverseMills = l.hazard(t) * l.sigma() * t;
            assertTrue(inverseMills >= z && inverseMills <= z * (1 + 1 / (z * z)), t + ": " + inverseMills + " vs z " + z);
            // m(a) ~ a σ/z for large z: within the same relative order 1/z
            double m = l.meanResidualLife(t);
            assertEquals(t * l.sigma() / z, m, 2.5 * t * l.sigma() / (z * z), "m at " + t);
        }
    }

    @Test
    void gammaTailHazardTendsToTheRate() {
        Gamma g = Gamma.ofScv(0.25); // shape 4, scale 0.25
        for (double t : new double[] {1e3, 1e6, 1e12, 1e100}) {
            // η θ = 1 − (a−1)/y + O(1/y²)
            double y = t / g.scale();
            assertEquals(1.0 - 3.0 / y, g.hazard(t) * g.scale(), 10.0 / (y * y) + 1e-15);
            assertEquals(g.scale() * (1 + 3.0 / y), g.meanResidualLife(t), g.scale() * (10.0 / (y * y) + 1e-15));
        }
        Gamma heavy = Gamma.ofScv(4); // shape 1/4: hazard increases to 1/θ
        assertEquals(1.0 / heavy.scale(), heavy.hazard(1e12), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, heavy.hazard(0.0));
    }

    @Test
    void erlangSurvivalIsThePoissonSum() {
        Erlang e = Erlang.of(4);
        for (double t : new double[] {0.1, 1, 3, 10}) {
            double y = 4 * t;
            double sum = 0;
            double term = 1;
            for (int j = 0; j < 4; j++) {
                sum += term;
                term *= y / (j + 1);
            }
            double expected = Math.exp(-y) * sum;
            assertEquals(expected, e.survival(t), 1e-14 * expected);
        }
    }

    @Test
    void weibullAndParetoClosedForms() {
        Weibull w = Weibull.ofShape(0.5); // scale 1/Γ(3) = 1/2
        assertEquals(0.5, w.scale(), 1e-15);
        assertEquals(Math.exp(-Math.sqrt(2 * 3.0)), w.survival(3.0), 1e-15);
        assertEquals(6.0 - 1.0, w.scv(), 1e-12); // Γ(5)/Γ(3)² − 1 = 24/4 − 1
        double eta = 0.5 / Math.sqrt(2.0 * 1e12) * 2.0; // (k/λ)(t/λ)^{k−1}, k = 1/2, λ = 1/2
        assertEquals(eta, w.hazard(1e12), 1e-15 * eta);
        Pareto p = Pareto.ofShape(2.5);
        assertEquals(0.6, p.minimum(), 1e-15);
        assertEquals(1.0 / (2.5 * 0.5), p.scv(), 1e-15);
        assertEquals(Double.POSITIVE_INFINITY, p.moment(3));
        assertEquals(Double.POSITIVE_INFINITY, Pareto.ofShape(1.5).scv());
        assertEquals(1e12 / 1.5, p.meanResidualLife(1e12), 1e-3);
        assertEquals(2.5e-12, p.hazard(1e12), 1e-27);
    }

    @Test
    void specialFunctionsMatchTheirDefinitions() {
        // erfcx against e^{x²} erfc(x) (Hipparchus) across the switch to the continued fraction (x = 6)
        for (double x : new double[] {-3, -0.5, 0, 0.5, 2, 5.9, 6.1, 10}) {
            double direct = Math.exp(x * x) * org.hipparchus.special.Erf.erfc(x);
            assertEquals(direct, SpecialFunctions.erfcx(x), 2e-14 * direct, "x = " + x);
        }
        // where Hipparchus' erfc loses digits: 40-digit values from mpmath, exp(x**2)*erfc(x)
        assertEquals(0.021683584850562906616, SpecialFunctions.erfcx(26), 2e-16);
        assertEquals(0.056140992743822585858, SpecialFunctions.erfcx(10), 2e-16);
        assertEquals(0.091294300368683835006, SpecialFunctions.erfcx(6.1), 2e-16);
        // asymptote 1/(x√π)(1 − 1/(2x²)) for huge x
        double x = 1e8;
        assertEquals(1 / (x * Math.sqrt(Math.PI)), SpecialFunctions.erfcx(x), 1e-15 / (x * Math.sqrt(Math.PI)));
        // the incomplete-gamma continued fraction remainder reproduces Q(a, x)
        for (double a : new double[] {0.25, 1.5, 4, 30}) {
            for (double y : new double[] {a + 1.5, a + 10, 3 * a + 40}) {
                double r = SpecialFunctions.gammaCfRemainder(a, y);
                double q = Math.exp(a * Math.log(y) - y - SpecialFunctions.logGamma(a)) / (y + 1 - a - r);
                double expected = org.hipparchus.special.Gamma.regularizedGammaQ(a, y);
                assertEquals(expected, q, 1e-13 * expected, "a = " + a + ", y = " + y);
            }
        }
    }
}
