package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;

/**
 * Equilibrium checks with independent truths: M/G/1 (Pollaczek–Khinchine) for d = 1, Little +
 * PASTA, the long-run transient; heavy tails; the infinite-mean diagnosis; bad input.
 */
class EquilibriumTest {

    /**
     * Issue 6: "d = 1 reproduces M/G/1 exactly". The age quadrature is second order (a few 1e-6
     * relative on E[Q]) and the heavy-tail remainder is extrapolated to a relative 1e-5, so 1e-4
     * relative leaves a factor 10.
     */
    static final double PK_TOL = 1e-4;
    /** Little + PASTA: both sides come from the same levels and remainders; 1e-4 as in issue 6. */
    static final double LITTLE_TOL = 1e-4;

    static ServiceDistribution law(String spec) {
        return ServiceDistributions.parse(spec);
    }

    /** d = 1 is an M/G/1 queue: x_1 = λ and E[Q] = λ + λ²E[S²]/(2(1−λ)). */
    static PdeEquilibrium checkMg1(String spec, double lambda) {
        ServiceDistribution s = law(spec);
        PdeEquilibrium eq = HydrodynamicPde.of(1, lambda, s).equilibrium();
        double pk = lambda + lambda * lambda * s.moment(2) / (2 * (1 - lambda));
        System.out.printf("M/G/1 %s lambda %.2f: x1 %.12f, E[Q] %.8f vs PK %.8f (levels %d, cut-off %.2e +- %.1e)%n",
                spec, lambda, eq.tail()[1], eq.meanQueueLength(), pk, eq.levels(), eq.cutOffMass(),
                eq.cutOffUncertainty());
        assertEquals(lambda, eq.tail()[1], 1e-12);
        assertEquals(pk, eq.meanQueueLength(), PK_TOL * pk);
        assertEquals(eq.meanQueueLength() / lambda - 1, eq.meanWait(), LITTLE_TOL);
        return eq;
    }

    @Test
    void mg1LogNormal() {
        checkMg1("lognormal:scv=4", 0.7);
    }

    @Test
    void mg1Weibull05() {
        checkMg1("weibull:shape=0.5", 0.6);
    }

    @Test
    void mg1H2() {
        checkMg1("h2:scv=10", 0.8);
    }

    /**
     * Pareto 2.5: the queue tail decays like ℓ^{−1.5}, so the mean needs the extrapolated remainder
     * (several percent of it at λ = 0.9); the reported uncertainty must cover the actual error.
     */
    @Test
    void mg1Pareto25() {
        for (double lambda : new double[] {0.5, 0.9}) {
            PdeEquilibrium eq = checkMg1("pareto:shape=2.5", lambda);
            double pk = lambda + lambda * lambda * law("pareto:shape=2.5").moment(2) / (2 * (1 - lambda));
            assertTrue(eq.cutOffMass() > 100 * eq.cutOffUncertainty(), "remainder is used and estimated");
            // the uncertainty plus the quadrature's error (2.4e-6 relative, measured against a 10x finer grid) bound it
            assertTrue(Math.abs(eq.meanQueueLength() - pk) <= eq.cutOffUncertainty() + 5e-6 * pk,
                    "error " + (eq.meanQueueLength() - pk) + " vs uncertainty " + eq.cutOffUncertainty());
        }
    }

    @Test
    void littleForSq2HeavyTails() {
        for (String spec : new String[] {"lognormal:scv=10", "weibull:shape=0.5", "pareto:shape=2.5"}) {
            double lambda = 0.9;
            PdeEquilibrium eq = HydrodynamicPde.of(2, lambda, law(spec)).equilibrium();
            double little = eq.meanQueueLength() / lambda - 1;
            System.out.printf("SQ(2) 0.9 %s: E[Q] %.6f, wait %.6f vs Little %.6f, levels %d, cut-off %.1e, residual %.1e%n",
                    spec, eq.meanQueueLength(), eq.meanWait(), little, eq.levels(), eq.cutOffMass(), eq.residual());
            assertTrue(eq.residual() < 1e-12, "residual " + eq.residual());
            assertEquals(little, eq.meanWait(), LITTLE_TOL, spec);
        }
    }

    /**
     * Two independent methods for the same limit: the equilibrium solved along the age axis and the
     * transient scheme run from an empty system until it stops moving (t = 60 for SQ(2), λ = 0.8 with
     * log-normal SCV 1 or gamma SCV 0.5: it then changes by less than 1e-5 per time unit). The
     * transient's h = 0.05 error is about 1e-4, hence 3e-4.
     */
    @Test
    void longTransientReachesTheEquilibrium() {
        for (String spec : new String[] {"lognormal:scv=1", "gamma:scv=0.5"}) {
            HydrodynamicPde pde = HydrodynamicPde.of(2, 0.8, law(spec));
            PdeEquilibrium eq = pde.equilibrium();
            PdeTransient tr = pde.transientFrom(PdeInitialState.empty(), TimeGrid.of(0, 59, 60));
            double[] a = eq.tail();
            double[] b = tr.tail(2);
            double[] before = tr.tail(1);
            double err = 0;
            double drift = 0;
            for (int i = 1; i < Math.max(a.length, b.length); i++) {
                err = Math.max(err, Math.abs((i < a.length ? a[i] : 0) - (i < b.length ? b[i] : 0)));
                drift = Math.max(drift, Math.abs((i < b.length ? b[i] : 0) - (i < before.length ? before[i] : 0)));
            }
            System.out.printf("SQ(2) 0.8 %s: transient at t = 60 vs equilibrium %.2e (drift over the last unit %.1e)%n",
                    spec, err, drift);
            assertTrue(drift < 1e-5, "not yet stationary: " + drift);
            assertTrue(err < 3e-4, "error " + err);
        }
    }

    /** d = 1 with E[S²] = ∞ and SQ(2) with Pareto 1.5 (levels ~ 0.43/ℓ) have an infinite mean: a clear error, fast. */
    @Test
    void infiniteMeanIsDiagnosedNotComputed() {
        for (int d : new int[] {1, 2}) {
            MflbException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(MflbException.class,
                    () -> HydrodynamicPde.of(d, 0.9, law("pareto:shape=1.5")).equilibrium()));
            System.out.println("d = " + d + ": " + e.getMessage());
            assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
            assertEquals("service", e.parameter());
            assertTrue(e.getMessage().contains("infinite mean"), e.getMessage());
        }
        // d = 3 is past the threshold 1 + 1/d: finite
        PdeEquilibrium eq = HydrodynamicPde.of(3, 0.9, law("pareto:shape=1.5")).equilibrium();
        assertTrue(Double.isFinite(eq.meanQueueLength()) && eq.meanQueueLength() > 0.9);
        assertEquals(eq.meanQueueLength() / 0.9 - 1, eq.meanWait(), LITTLE_TOL);
    }

    /**
     * Laws of finite E[S²] whose levels decay too slowly for any level budget (issue 29: these were reported
     * as of infinite mean): a finite mean, said so, refused as a truncation; for d = 1 the message carries the
     * Pollaczek–Khinchine values (E[W] = λE[S²]/(2(1 − λ)) = 500000.5 for SCV 1e6 at λ = 0.5).
     */
    @Test
    void slowLevelsOfAFiniteMeanAreNotCalledInfinite() {
        for (String spec : new String[] {"lognormal:scv=1e6", "h2:scv=1e6", "weibull:shape=0.05"}) {
            MflbException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(MflbException.class,
                    () -> HydrodynamicPde.of(1, 0.5, law(spec)).equilibrium()));
            assertEquals(ErrorKind.TRUNCATION, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("has a finite mean queue length") && !e.getMessage().contains("infinite"),
                    e.getMessage());
            double m2 = law(spec).moment(2);
            assertTrue(e.getMessage().contains(String.format(java.util.Locale.ROOT, "E[W] = %.10g", 0.5 * m2 / (2 * 0.5))),
                    e.getMessage());
        }
        assertTrue(law("lognormal:scv=1e6").moment(2) == 1e6 + 1, "E[S^2] = SCV + 1 at mean 1");
    }

    @Test
    void heavyTailTransientsStayFiniteAndPositive() {
        for (String spec : new String[] {"pareto:shape=1.5", "pareto:shape=2.5", "weibull:shape=0.5", "lognormal:scv=10"}) {
            // equilibrium ages cut at Ḡ = 1e-3 so the aged last cell is exercised
            PdeTransient tr = HydrodynamicPde.of(2, 0.9, law(spec)).withAgeTolerance(1e-3)
                    .transientFrom(PdeInitialState.tail(PdeInitialState.Ages.EQUILIBRIUM, 1, 0.5, 0.2),
                            TimeGrid.uniform(20, 1));
            for (int k = 0; k < tr.grid().size(); k++) {
                double[] x = tr.tail(k);
                for (int i = 1; i < x.length; i++) {
                    assertTrue(Double.isFinite(x[i]) && x[i] >= 0 && x[i] <= x[i - 1] + 1e-15, spec + " " + x[i]);
                }
                assertTrue(Double.isFinite(tr.meanWait(k)) && tr.meanWait(k) >= 0);
            }
            assertTrue(tr.agedMass() > 0, "the aged cell was used");
        }
    }

    @Test
    void badInputNamesTheParameter() {
        ServiceDistribution exp = law("exp");
        MflbException e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(0, 0.5, exp));
        assertEquals("d", e.parameter());
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, 1.0, exp).equilibrium());
        assertEquals("lambda", e.parameter());
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, 0.5, exp).withAgeStep(-1));
        assertEquals("da", e.parameter());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, -0.5, exp));
        assertEquals("lambda", e.parameter());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, 0.5, exp).withSumTolerance(0));
        assertEquals("sum-tolerance", e.parameter());
    }
}
