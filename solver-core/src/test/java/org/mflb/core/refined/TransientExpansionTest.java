package org.mflb.core.refined;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;

/** Transient refined mean field and 1/N² expansion against exact transient laws. */
class TransientExpansionTest {

    @Test
    void timeVaryingRandomRoutingMatchesTheExactLawOfOneQueue() {
        // d = 1: N independent M/M/1/K queues with arrival rate λ(t), all empty at t = 0. Then
        // E[X^N(t)] = x(t) and N·Cov(X^N(t)) = Cov(1{Q(t)≥i}, 1{Q(t)≥j}) exactly, so V = A = B = 0.
        int k = 6;
        ArrivalRate lambda = t -> 0.6 + 0.3 * Math.sin(t);
        TailModel model = new TailModel(k, lambda, 1, false);
        double[] times = {0.5, 2, 7};
        TransientExpansion e = new RefinedMeanField(2).transientRegime(model, new double[k], 0, times);
        OrdinaryDifferentialEquation queue = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return k + 1;
            }

            @Override
            public double[] computeDerivatives(double t, double[] p) {
                double l = lambda.at(t);
                double[] dp = new double[k + 1];
                for (int j = 0; j <= k; j++) {
                    if (j < k) {
                        dp[j] -= l * p[j];
                        dp[j + 1] += l * p[j];
                    }
                    if (j > 0) {
                        dp[j] -= p[j];
                        dp[j - 1] += p[j];
                    }
                }
                return dp;
            }
        };
        DormandPrince853Integrator integrator = new DormandPrince853Integrator(0, 10, 1e-14, 1e-13);
        double[] p = new double[k + 1];
        p[0] = 1;
        double t = 0;
        for (int s = 0; s < times.length; s++) {
            p = integrator.integrate(queue, new ODEState(t, p), times[s]).getPrimaryState();
            t = times[s];
            double[] tail = RefinedMeanFieldTest.tail(p);
            DMatrixRMaj w = e.covarianceTerm(s);
            for (int i = 0; i < k; i++) {
                // Tolerance: both ODE integrations at ~1e-10 relative accuracy.
                assertEquals(tail[i], e.meanField(s)[i], 1e-9);
                assertEquals(0.0, e.firstOrderTerm(s)[i], 1e-12);
                assertEquals(0.0, e.secondOrderTerm(s)[i], 1e-12);
                for (int j = 0; j < k; j++) {
                    assertEquals(tail[Math.max(i, j)] - tail[i] * tail[j], w.get(i, j), 1e-9);
                    assertEquals(0.0, e.secondMomentTerm(s).get(i, j), 1e-12);
                }
            }
        }
    }

    @Test
    void transientTermsConvergeToTheSteadyStateOnes() {
        int k = 6;
        TailModel model = new TailModel(k, 0.7, 2, false);
        double[] pi = model.queueFixedPoint();
        SteadyStateExpansion s = new RefinedMeanField(2).steadyState(model, pi);
        TransientExpansion tr = new RefinedMeanField(2).transientRegime(model, new double[k], 0, new double[] {0, 150});
        for (int i = 0; i < k; i++) {
            assertEquals(0.0, tr.firstOrderTerm(0)[i], 0.0);
            assertEquals(0.0, tr.secondOrderTerm(0)[i], 0.0);
            // Relaxation at rate |spectral abscissa| ≈ 0.16 (measured): after t = 150 the
            // transients are below 1e-9; the remainder is integration error (tolerance 1e-10).
            assertEquals(pi[i], tr.meanField(1)[i], 1e-9);
            assertEquals(s.firstOrderTerm()[i], tr.firstOrderTerm(1)[i], 1e-8);
            assertEquals(s.secondOrderTerm()[i], tr.secondOrderTerm(1)[i], 1e-7);
            for (int j = 0; j < k; j++) {
                assertEquals(s.covarianceTerm().get(i, j), tr.covarianceTerm(1).get(i, j), 1e-8);
                assertEquals(s.secondMomentTerm().get(i, j), tr.secondMomentTerm(1).get(i, j), 1e-7);
            }
        }
        assertTrue(s.spectralAbscissa() < -0.05);
    }

    @Test
    void twoChoiceTransientMatchesExactKolmogorovEquations() {
        TailModel model = new TailModel(2, 0.8, 2, false);
        double[] times = {0.5, 2};
        TransientExpansion e = new RefinedMeanField(2).transientRegime(model, new double[2], 0, times);
        int[] sizes = {10, 20, 40};
        double[][] e1 = new double[3][times.length];
        double[][] e2 = new double[3][times.length];
        for (int r = 0; r < 3; r++) {
            double[][] exact = new ExactCtmc(model, sizes[r], new int[2]).transientMeans(new int[2], times);
            for (int s = 0; s < times.length; s++) {
                for (int i = 0; i < 2; i++) {
                    e1[r][s] = Math.max(e1[r][s], Math.abs(exact[s][i] - e.mean(s, sizes[r], 1)[i]));
                    e2[r][s] = Math.max(e2[r][s], Math.abs(exact[s][i] - e.mean(s, sizes[r], 2)[i]));
                }
            }
        }
        for (int s = 0; s < times.length; s++) {
            // O(1/N²) and O(1/N³) errors: ratios 4 and 8 up to O(1/N) (measured at t = 2:
            // 4.3, 4.2 and 6.8, 7.3; at t = 0.5: 3.9, 4.0 and 7.8, 7.9).
            assertEquals(4.0, e1[1][s] / e1[2][s], 0.5);
            double ratio = e2[1][s] / e2[2][s];
            assertTrue(ratio > 6 && ratio < 10, "t = " + times[s] + ": order-2 error ratio " + ratio);
            assertTrue(e2[0][s] < e1[0][s] / 5);
        }
    }

    @Test
    void logisticTransientMatchesExactChain() {
        LogisticModel model = new LogisticModel(2.0, 0.1);
        double[] times = {0.5, 5};
        TransientExpansion e = new RefinedMeanField(2).transientRegime(model, new double[] {0.1}, 0, times);
        double[][] e2 = new double[2][];
        int[] sizes = {100, 200};
        for (int r = 0; r < 2; r++) {
            double[][] exact = new ExactCtmc(model, sizes[r], new int[] {sizes[r] / 10}).transientMeans(
                    new int[] {sizes[r] / 10}, times);
            e2[r] = new double[times.length];
            for (int s = 0; s < times.length; s++) {
                e2[r][s] = exact[s][0] - e.mean(s, sizes[r], 2)[0];
                double e1 = exact[s][0] - e.mean(s, sizes[r], 1)[0];
                assertTrue(Math.abs(e2[r][s]) < Math.abs(e1) / 8, "N = " + sizes[r] + ", t = " + times[s]);
            }
        }
        for (int s = 0; s < times.length; s++) {
            // Measured N³·e2 = −0.270, −0.273 (t = 0.5) and −43.0, −40.5 (t = 5).
            assertEquals(8.0, e2[0][s] / e2[1][s], 1.0);
        }
    }

    @Test
    void outputAtTheInitialTimeIsTheInitialStateAndTimesAreValidated() {
        TailModel model = new TailModel(3, 0.5, 2, false);
        double[] x0 = {0.5, 0.2, 0.0};
        TransientExpansion e = new RefinedMeanField(1).transientRegime(model, x0, 3.0, new double[] {3.0, 3.0, 4.0});
        assertEquals(3, e.timeCount());
        for (int i = 0; i < 3; i++) {
            assertEquals(x0[i], e.meanField(0)[i], 0.0);
            assertEquals(0.0, e.firstOrderTerm(1)[i], 0.0);
            assertEquals(0.0, e.standardDeviation(0, 10)[i], 0.0);
        }
        assertTrue(e.standardDeviation(2, 10)[0] > 0);
        assertThrows(MflbException.class, () -> e.secondOrderTerm(0));
        RefinedMeanField rmf = new RefinedMeanField(1);
        assertThrows(MflbException.class, () -> rmf.transientRegime(model, x0, 0, new double[] {2, 1}));
        assertThrows(MflbException.class, () -> rmf.transientRegime(model, x0, 1, new double[] {0.5}));
        assertThrows(MflbException.class, () -> rmf.transientRegime(model, x0, 0, new double[0]));
        assertThrows(MflbException.class, () -> rmf.transientRegime(model, new double[2], 0, new double[] {1}));
        assertThrows(MflbException.class, () -> rmf.withTolerances(0, 1e-8));
    }
}
