package org.mflb.core.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

class PhaseTypeTest {

    /**
     * Phase-type evaluation (Taylor + squaring of non-negative matrices) against the closed forms:
     * entrywise relative accuracy of a few dozen roundings, so 1e-12 relative.
     */
    private static final double CLOSED_FORM_TOL = 1e-12;
    private static final double[] AGES = {0.0, 1e-6, 0.01, 0.3, 1.0, 2.5, 7.0, 20.0, 60.0, 1e3, 1e6, 1e12};

    private static void assertAgrees(ServiceDistribution closed, PhaseType ph) {
        assertEquals(closed.mean(), ph.mean(), CLOSED_FORM_TOL);
        for (int k = 1; k <= 5; k++) {
            assertEquals(closed.moment(k), ph.moment(k), CLOSED_FORM_TOL * closed.moment(k), closed + " moment " + k);
        }
        for (double t : AGES) {
            double s = closed.survival(t);
            assertEquals(s, ph.survival(t), CLOSED_FORM_TOL * s, closed + " survival at " + t);
            double g = closed.density(t);
            assertEquals(g, ph.density(t), CLOSED_FORM_TOL * g, closed + " density at " + t);
            double h = closed.hazard(t);
            assertEquals(h, ph.hazard(t), CLOSED_FORM_TOL * h, closed + " hazard at " + t);
            double m = closed.meanResidualLife(t);
            assertEquals(m, ph.meanResidualLife(t), CLOSED_FORM_TOL * m, closed + " m(a) at " + t);
            double ls = closed.logSurvival(t);
            assertEquals(ls, ph.logSurvival(t), CLOSED_FORM_TOL * Math.max(1.0, Math.abs(ls)), closed + " log Ḡ at " + t);
        }
    }

    @Test
    void erlangH2AndExponentialAgreeWithTheirClosedForms() {
        for (ServiceDistribution d : List.of(Exponential.unit(), Exponential.ofMean(0.4), Erlang.of(2), Erlang.of(3),
                Erlang.of(7, 2.0), Erlang.of(20), HyperExponential.balancedMeans(1.0), HyperExponential.balancedMeans(4),
                HyperExponential.balancedMeans(30, 0.5))) {
            assertAgrees(d, d.asPhaseType().orElseThrow());
        }
    }

    @Test
    void hugeAgesFollowTheSlowestPhase() {
        // Erlang: one Jordan block, hazard → rate; the log-domain squaring keeps all rows
        PhaseType erlang = Erlang.of(4).asPhaseType().orElseThrow();
        for (double t : new double[] {1e50, 1e100, 1e300}) {
            assertEquals(4.0, erlang.hazard(t), 1e-12);
            assertEquals(0.25, erlang.meanResidualLife(t), 1e-12);
            assertEquals(-4.0 * t, erlang.logSurvival(t), 1e-12 * 4 * t);
        }
        PhaseType h2 = HyperExponential.balancedMeans(9).asPhaseType().orElseThrow();
        HyperExponential closed = HyperExponential.balancedMeans(9);
        assertEquals(closed.mu2(), h2.hazard(1e200), 1e-14);
    }

    @Test
    void generalPhaseTypeAgreesWithTheKolmogorovEquations() {
        // Independent truth: integrate v' = vT, v(0) = α (Dormand–Prince 8(5,3), tolerance 1e-14)
        double[] alpha = {0.5, 0.3, 0.2};
        double[][] t = {{-2.0, 1.5, 0.0}, {0.5, -1.0, 0.25}, {0.1, 0.2, -0.7}};
        PhaseType ph = PhaseType.of(alpha, t);
        OrdinaryDifferentialEquation ode = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return 3;
            }

            @Override
            public double[] computeDerivatives(double time, double[] v) {
                double[] d = new double[3];
                for (int j = 0; j < 3; j++) {
                    for (int i = 0; i < 3; i++) {
                        d[j] += v[i] * t[i][j];
                    }
                }
                return d;
            }
        };
        DormandPrince853Integrator integrator = new DormandPrince853Integrator(1e-8, 1.0, 1e-16, 1e-14);
        double[] exit = ph.exitRates();
        assertArrayEquals(new double[] {0.5, 0.25, 0.4}, exit, 1e-15);
        double[] v = alpha.clone();
        double now = 0;
        for (double age : new double[] {0.5, 2.0, 5.0, 15.0, 40.0}) {
            v = integrator.integrate(ode, new ODEState(now, v), age).getPrimaryState();
            now = age;
            double s = v[0] + v[1] + v[2];
            double g = v[0] * exit[0] + v[1] * exit[1] + v[2] * exit[2];
            // the ODE's local tolerance 1e-14 accumulates over ~100s of steps: 1e-11 relative
            assertEquals(s, ph.survival(age), 1e-11 * s, "survival at " + age);
            assertEquals(g, ph.density(age), 1e-11 * g, "density at " + age);
            assertEquals(g / s, ph.hazard(age), 1e-11 * g / s, "hazard at " + age);
        }
        // moments: k! α (−T)^{−k} 1 against E[S^k] = k ∫ t^{k−1} Ḡ(t) dt
        for (int k = 1; k <= 3; k++) {
            final int kk = k;
            double quad = k * Quadrature.toInfinity(x -> Math.pow(x, kk - 1) * ph.survival(x), 0.0);
            assertEquals(quad, ph.moment(k), 1e-11 * quad, "moment " + k);
        }
    }

    @Test
    void atomAtZeroWhenAlphaSumsBelowOne() {
        PhaseType ph = PhaseType.of(new double[] {0.4}, new double[][] {{-2.0}});
        assertFalse(ph.hasDensity());
        assertEquals(0.4, ph.survival(0.0));
        assertEquals(0.4 * Math.exp(-2.0), ph.survival(1.0), 1e-15);
        assertEquals(0.2, ph.mean(), 1e-15);
        assertEquals(2.0, ph.hazard(3.0), 1e-14);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7L);
        ContinuousSampler s = ph.createSampler(rng);
        int zeros = 0;
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            zeros += s.sample() == 0.0 ? 1 : 0;
        }
        // binomial(1e5, 0.6): sd = 155; 5 sd
        assertEquals(0.6 * n, zeros, 5 * Math.sqrt(n * 0.24));
    }

    @Test
    void accessorsReturnCopiesOfTheParameters() {
        double[] alpha = {1.0, 0.0};
        double[][] t = {{-1.0, 1.0}, {0.0, -2.0}};
        PhaseType ph = PhaseType.of(alpha, t);
        alpha[0] = 0.5;
        t[0][0] = -5;
        assertArrayEquals(new double[] {1.0, 0.0}, ph.alpha());
        assertEquals(-1.0, ph.subGenerator()[0][0]);
        ph.subGenerator()[0][0] = 9;
        assertEquals(-1.0, ph.subGenerator()[0][0]);
        assertEquals(2, ph.phases());
        assertSame(ph, ph.asPhaseType().orElseThrow());
        assertEquals(1.5, ph.mean(), 1e-15);
    }

    @Test
    void invalidParametersAreRejectedWithTheirName() {
        assertInvalid("ph alpha[0]", () -> PhaseType.of(new double[] {-0.1, 1.0}, new double[][] {{-1, 0}, {0, -1}}));
        assertInvalid("ph sum(alpha)", () -> PhaseType.of(new double[] {0.7, 0.7}, new double[][] {{-1, 0}, {0, -1}}));
        assertInvalid("ph sum(alpha)", () -> PhaseType.of(new double[] {0.0}, new double[][] {{-1}}));
        assertInvalid("ph T[0][0]", () -> PhaseType.of(new double[] {1.0}, new double[][] {{0.0}}));
        assertInvalid("ph T[0][1]", () -> PhaseType.of(new double[] {1, 0}, new double[][] {{-1, -0.5}, {0, -1}}));
        assertInvalid("ph row sum of T[0]", () -> PhaseType.of(new double[] {1, 0}, new double[][] {{-1, 2}, {0, -1}}));
        assertInvalid("ph T", () -> PhaseType.of(new double[] {1, 0}, new double[][] {{-1, 1}}));
        assertInvalid("ph T", () -> PhaseType.of(new double[] {1, 0}, new double[][] {{-1, 1, 0}, {0, -1}}));
        // phases 1 and 2 feed each other and never exit: −T singular, mean infinite
        assertInvalid("ph T", () -> PhaseType.of(new double[] {1, 0, 0},
                new double[][] {{-1, 1, 0}, {0, -1, 1}, {0, 1, -1}}));
        assertInvalid("ph T[0][0]", () -> PhaseType.of(new double[] {1.0}, new double[][] {{Double.NaN}}));
        assertInvalid("ph alpha", () -> PhaseType.of(new double[0], new double[0][]));
    }

    private static void assertInvalid(String parameter, Runnable r) {
        MflbException e = assertThrows(MflbException.class, r::run);
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals(parameter, e.parameter(), e.getMessage());
        assertTrue(e.getMessage().startsWith(parameter), e.getMessage());
    }
}
