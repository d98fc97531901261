package org.mflb.core.refined;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.IntToDoubleFunction;

import org.ejml.data.DMatrixRMaj;
import org.hipparchus.CalculusFieldElement;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;

/** Steady-state refined mean field and 1/N² expansion against closed forms and exact Markov chains. */
class RefinedMeanFieldTest {

    /** P(Q = j), j = 0..K, for Q ∝ weight(j) (truncated geometric or Poisson). */
    static double[] truncatedLaw(int k, IntToDoubleFunction weight) {
        double[] p = new double[k + 1];
        double total = 0;
        for (int j = 0; j <= k; j++) {
            p[j] = weight.applyAsDouble(j);
            total += p[j];
        }
        for (int j = 0; j <= k; j++) {
            p[j] /= total;
        }
        return p;
    }

    /** Tail P(Q ≥ i), i = 1..K (index i−1). */
    static double[] tail(double[] p) {
        int k = p.length - 1;
        double[] t = new double[k];
        double s = 0;
        for (int i = k; i >= 1; i--) {
            s += p[i];
            t[i - 1] = s;
        }
        return t;
    }

    /** Third central moment of the indicator vector (1{Q ≥ i})_i under law p. */
    static double thirdCentralMoment(double[] law, double[] tail, int i, int j, int m) {
        double sum = 0;
        for (int q = 0; q < law.length; q++) {
            sum += law[q] * ((q > i ? 1 : 0) - tail[i]) * ((q > j ? 1 : 0) - tail[j]) * ((q > m ? 1 : 0) - tail[m]);
        }
        return sum;
    }

    private static void checkIndependentServers(TailModel model, double[] law, int order) {
        int k = model.k;
        double[] tail = tail(law);
        SteadyStateExpansion e = new RefinedMeanField(order).steadyState(model, tail);
        DMatrixRMaj w = e.covarianceTerm();
        double[] v = e.firstOrderTerm();
        for (int i = 0; i < k; i++) {
            // Linear rates: the Hessian vanishes identically, so V = 0 up to rounding.
            assertEquals(0.0, v[i], 1e-15);
            for (int j = 0; j < k; j++) {
                // Exact for every N: N·Cov of the empirical tail vector of N i.i.d. servers is
                // Cov(1{Q≥i}, 1{Q≥j}). Tolerance: Bartels–Stewart forward error, cond·ε with
                // cond ≲ 1/(1−√λ)² ≈ 400 at λ = 0.9, i.e. below 1e-13.
                double exact = tail[Math.max(i, j)] - tail[i] * tail[j];
                assertEquals(exact, w.get(i, j), 1e-13, "W[" + i + "][" + j + "]");
            }
        }
        if (order == 2) {
            // Independent servers: E[X^N] = π and N·Cov = W for every N, so A = 0 and B − VVᵀ = B = 0;
            // E[(X−π)⊗³] = κ₃/N² with κ₃ the third central moment of the indicator vector.
            double[] a = e.secondOrderTerm();
            DMatrixRMaj b = e.secondMomentTerm();
            double[] c = e.thirdMomentTerm();
            for (int i = 0; i < k; i++) {
                assertEquals(0.0, a[i], 1e-13);
                for (int j = 0; j < k; j++) {
                    assertEquals(0.0, b.get(i, j), 1e-13);
                    for (int m = 0; m < k; m++) {
                        assertEquals(thirdCentralMoment(law, tail, i, j, m), c[(i * k + j) * k + m], 1e-13,
                                "C[" + i + "," + j + "," + m + "]");
                    }
                }
            }
        }
    }

    @Test
    void randomRoutingToQueuesIsExactlyIndependentMM1K() {
        for (double lambda : new double[] {0.5, 0.9}) {
            TailModel model = new TailModel(12, lambda, 1, false);
            double[] law = truncatedLaw(12, j -> Math.pow(lambda, j));
            checkIndependentServers(model, law, 1);
            checkIndependentServers(model, law, 2);
        }
    }

    @Test
    void randomRoutingToPoolsIsExactlyIndependentErlangLoss() {
        double lambda = 3.5;
        TailModel model = new TailModel(15, lambda, 1, true);
        double[] law = truncatedLaw(15, j -> {
            double w = 1;
            for (int r = 1; r <= j; r++) {
                w *= lambda / r;
            }
            return w;
        });
        checkIndependentServers(model, law, 1);
        checkIndependentServers(model, law, 2);
    }

    @Test
    void oneDimensionalLogisticChainErrorsShrinkAsOneOverNSquaredAndCubed() {
        LogisticModel model = new LogisticModel(2.0, 0.1);
        SteadyStateExpansion e = new RefinedMeanField(2).steadyState(model, new double[] {model.fixedPoint()});
        double[] e1 = new double[3];
        double[] e2 = new double[3];
        int[] sizes = {100, 200, 400};
        for (int r = 0; r < 3; r++) {
            double exact = model.exactMean(sizes[r]);
            e1[r] = exact - e.mean(sizes[r], 1)[0];
            e2[r] = exact - e.mean(sizes[r], 2)[0];
        }
        // The refined errors are c₂/N² + O(1/N³) and c₃/N³ + O(1/N⁴): doubling N divides them by
        // 4 and 8 up to a relative O(1/N) correction (measured 4.13/4.06 and 8.35/8.16; a wrong
        // 1/N² term would leave a 1/N² error, ratio 4).
        for (int r = 0; r < 2; r++) {
            assertEquals(4.0, e1[r] / e1[r + 1], 0.4);
            assertEquals(8.0, e2[r] / e2[r + 1], 0.8);
        }
        assertTrue(Math.abs(e2[0]) < Math.abs(e1[0]) / 10);
    }

    @Test
    void twoChoiceWithTwoLevelsMatchesExactMarkovChain() {
        TailModel model = new TailModel(2, 0.8, 2, false);
        SteadyStateExpansion e = new RefinedMeanField(2).steadyState(model, model.queueFixedPoint());
        int[] sizes = {10, 20, 40};
        double[] e0 = new double[3];
        double[] e1 = new double[3];
        double[] e2 = new double[3];
        for (int r = 0; r < 3; r++) {
            double[] exact = new ExactCtmc(model, sizes[r], new int[2]).mean();
            for (int i = 0; i < 2; i++) {
                e0[r] = Math.max(e0[r], Math.abs(exact[i] - e.mean(sizes[r], 0)[i]));
                e1[r] = Math.max(e1[r], Math.abs(exact[i] - e.mean(sizes[r], 1)[i]));
                e2[r] = Math.max(e2[r], Math.abs(exact[i] - e.mean(sizes[r], 2)[i]));
            }
        }
        for (int r = 0; r < 3; r++) {
            // Each order is at least 10 times better than the previous one (measured 7–60×).
            assertTrue(e1[r] < e0[r] / 6 && e2[r] < e1[r] / 10, "N = " + sizes[r]);
        }
        // Rates of convergence (measured e1 ratios 3.92, 3.99; e2 ratios 5.6, 6.8 → 8 as N grows).
        assertEquals(4.0, e1[1] / e1[2], 0.4);
        assertTrue(e2[1] / e2[2] > 5.5 && e2[1] / e2[2] < 9, "e2 ratio " + e2[1] / e2[2]);
    }

    @Test
    void twoChoiceWithThreeLevelsImprovesOnEveryOrder() {
        // Three coordinates exercise index placements a 2-D model cannot distinguish.
        TailModel model = new TailModel(3, 0.5, 2, false);
        SteadyStateExpansion e = new RefinedMeanField(2).steadyState(model, model.queueFixedPoint());
        double[] err = new double[3];
        double[] errPrevious = null;
        for (int size : new int[] {8, 16}) {
            double[] exact = new ExactCtmc(model, size, new int[3]).mean();
            err = new double[3];
            for (int order = 0; order <= 2; order++) {
                for (int i = 0; i < 3; i++) {
                    err[order] = Math.max(err[order], Math.abs(exact[i] - e.mean(size, order)[i]));
                }
            }
            // Measured: err1/err0 = 0.14, 0.07 and err2/err1 = 0.10, 0.04 at N = 8, 16.
            assertTrue(err[1] < err[0] / 5 && err[2] < err[1] / 5, java.util.Arrays.toString(err));
            if (errPrevious != null) {
                // O(1/N³): doubling N divides the order-2 error by ≈ 8 (measured 8.9 from N = 8 to 16).
                double ratio = errPrevious[2] / err[2];
                assertTrue(ratio > 5.5 && ratio < 12, "order-2 error ratio " + ratio);
            }
            errPrevious = err;
        }
        // N·Cov → W: the exact covariance at N = 16 agrees with W/N + (B − VVᵀ)/N² to O(1/N³).
        double[] cov = new ExactCtmc(model, 16, new int[3]).covariance();
        DMatrixRMaj approx1 = e.covariance(16, 1);
        DMatrixRMaj approx2 = e.covariance(16, 2);
        double d1 = 0;
        double d2 = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                d1 = Math.max(d1, Math.abs(cov[i * 3 + j] - approx1.get(i, j)));
                d2 = Math.max(d2, Math.abs(cov[i * 3 + j] - approx2.get(i, j)));
            }
        }
        // Measured 5.6e-4 → 9.7e-5 (the 1/N² covariance term removes most of the error).
        assertTrue(d2 < d1 / 3, "covariance errors " + d1 + " " + d2);
    }

    @Test
    void thirdMomentTensorIsSymmetric() {
        TailModel model = new TailModel(8, 0.7, 2, false);
        double[] c = new RefinedMeanField(2).steadyState(model, model.queueFixedPoint()).thirdMomentTerm();
        int n = 8;
        double max = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < n; k++) {
                    double v = c[(i * n + j) * n + k];
                    max = Math.max(max, Math.abs(v));
                    // E[Y_iY_jY_k] is symmetric; a misplaced index in the source would break it.
                    assertEquals(v, c[(j * n + i) * n + k], 1e-14);
                    assertEquals(v, c[(k * n + j) * n + i], 1e-14);
                    assertEquals(v, c[(i * n + k) * n + j], 1e-14);
                }
            }
        }
        assertTrue(max > 0.1);
    }

    @Test
    void busyFractionOfQueuesAndMeanOccupancyOfPoolsHaveNoCorrection() {
        // Single-server queues without loss: E[X_1^N] = λ exactly for every N (busy fraction =
        // throughput), so V_1 = A_1 = 0. With K = 14 the truncation loss λπ_K² underflows.
        TailModel queues = new TailModel(14, 0.9, 2, false);
        SteadyStateExpansion q = new RefinedMeanField(2).steadyState(queues, queues.queueFixedPoint());
        assertEquals(0.9, q.fixedPoint()[0], 1e-15);
        assertEquals(0.0, q.firstOrderTerm()[0], 1e-13);
        assertEquals(0.0, q.secondOrderTerm()[0], 1e-12);
        assertTrue(q.firstOrderTerm()[1] > 0.1, "the refinement is not trivial");
        // Pools: the number of tasks is M/M/∞ whatever the routing, E[Σ X_i^N] = λ for every N,
        // so Σ V_i = Σ A_i = 0 (docs/models.md §2). Loss at K = 12 is λπ_K² ≈ 1e-30.
        TailModel pools = new TailModel(12, 3.5, 2, true);
        double[] start = new double[12];
        double[] pi = TestFixedPoints.of(pools, start, 200);
        SteadyStateExpansion p = new RefinedMeanField(2).steadyState(pools, pi);
        double sumV = 0;
        double sumA = 0;
        for (int i = 0; i < 12; i++) {
            sumV += p.firstOrderTerm()[i];
            sumA += p.secondOrderTerm()[i];
        }
        assertEquals(3.5, p.meanTotal(10, 0), 1e-12);
        assertEquals(0.0, sumV, 1e-12);
        assertEquals(0.0, sumA, 1e-11);
        assertEquals(3.5, p.meanTotal(10, 2), 1e-12);
    }

    @Test
    void conservedMassIsReducedAndAgreesWithTailCoordinates() {
        int k = 6;
        OccupancyModel occupancy = new OccupancyModel(k, 0.7, 2);
        TailModel tails = new TailModel(k, 0.7, 2, false);
        double[] x = tails.queueFixedPoint();
        SteadyStateExpansion eo = new RefinedMeanField(2).steadyState(occupancy, OccupancyModel.fromTail(x));
        SteadyStateExpansion et = new RefinedMeanField(2).steadyState(tails, x);
        assertEquals(k, eo.reducedDimension());
        assertEquals(k, et.reducedDimension());
        // x_i = Σ_{j≥i} y_j is linear, so every term maps through it.
        double[] vo = eo.firstOrderTerm();
        double[] ao = eo.secondOrderTerm();
        DMatrixRMaj wo = eo.covarianceTerm();
        DMatrixRMaj bo = eo.secondMomentTerm();
        double vSum = 0;
        for (double vj : vo) {
            vSum += vj;
        }
        assertEquals(0.0, vSum, 1e-13);
        for (int i = 1; i <= k; i++) {
            double v = 0;
            double a = 0;
            for (int j = i; j <= k; j++) {
                v += vo[j];
                a += ao[j];
            }
            // Tolerance: both computations are backward stable; the reduction adds an orthogonal change of basis.
            assertEquals(et.firstOrderTerm()[i - 1], v, 1e-12);
            assertEquals(et.secondOrderTerm()[i - 1], a, 1e-11);
            for (int m = 1; m <= k; m++) {
                double w = 0;
                double b = 0;
                for (int j = i; j <= k; j++) {
                    for (int l = m; l <= k; l++) {
                        w += wo.get(j, l);
                        b += bo.get(j, l);
                    }
                }
                assertEquals(et.covarianceTerm().get(i - 1, m - 1), w, 1e-12);
                assertEquals(et.secondMomentTerm().get(i - 1, m - 1), b, 1e-11);
            }
        }
    }

    @Test
    void closedFormAutomaticAndFiniteDifferenceDerivativesGiveTheSameExpansion() {
        ClosedFormTailModel closed = new ClosedFormTailModel(10, 0.85, 2, false);
        double[] pi = closed.queueFixedPoint();
        RefinedMeanField order2 = new RefinedMeanField(2);
        SteadyStateExpansion viaClosed = order2.steadyState(closed, pi);
        SteadyStateExpansion viaAd = order2.steadyState(closed, new AutomaticRateDerivatives(closed), pi);
        SteadyStateExpansion viaFd = new RefinedMeanField(1).steadyState(new PlainModel(closed), pi);
        for (int i = 0; i < 10; i++) {
            // AD and closed forms are both exact: they differ by rounding only.
            assertEquals(viaClosed.firstOrderTerm()[i], viaAd.firstOrderTerm()[i], 1e-13);
            assertEquals(viaClosed.secondOrderTerm()[i], viaAd.secondOrderTerm()[i], 1e-12);
            // Finite-difference Hessians are accurate to about 1e-7 (step ε^{1/4}).
            assertEquals(viaClosed.firstOrderTerm()[i], viaFd.firstOrderTerm()[i], 1e-6);
            for (int j = 0; j < 10; j++) {
                assertEquals(viaClosed.covarianceTerm().get(i, j), viaFd.covarianceTerm().get(i, j), 1e-9);
            }
        }
        MflbException e = assertThrows(MflbException.class, () -> order2.steadyState(new PlainModel(closed), pi));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals("order", e.parameter());
    }

    @Test
    void orderOutsideOneTwoIsRejected() {
        for (int order : new int[] {0, 3}) {
            MflbException e = assertThrows(MflbException.class, () -> new RefinedMeanField(order));
            assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
            assertEquals("order", e.parameter());
        }
        SteadyStateExpansion e1 = new RefinedMeanField(1).steadyState(new TailModel(3, 0.5, 2, false),
                new TailModel(3, 0.5, 2, false).queueFixedPoint());
        assertThrows(MflbException.class, e1::secondOrderTerm);
        assertThrows(MflbException.class, () -> e1.mean(10, 2));
        assertThrows(MflbException.class, () -> e1.mean(0, 1));
    }

    @Test
    void unstableFixedPointIsRejected() {
        // Logistic growth without immigration: 0 is a fixed point, unstable since a = 2 > 1.
        LogisticModel model = new LogisticModel(2.0, 0.0);
        MflbException e = assertThrows(MflbException.class, () -> new RefinedMeanField(1).steadyState(model, new double[] {0}));
        assertEquals(ErrorKind.UNSTABLE, e.kind());
        assertTrue(e.getMessage().contains("not exponentially stable"), e.getMessage());
        // The stable one is accepted.
        new RefinedMeanField(1).steadyState(model, new double[] {model.fixedPoint()});
    }

    @Test
    void nonIsolatedFixedPointIsRejected() {
        // Symmetric exchange between two coordinates: f ≡ 0, every point is a fixed point.
        SmoothPopulationModel exchange = new SmoothPopulationModel() {
            @Override
            public int getDimension() {
                return 2;
            }

            @Override
            public List<Transition> transitions() {
                return List.of(new Transition(new int[] {0, 1}, new double[] {1, -1}),
                        new Transition(new int[] {0, 1}, new double[] {-1, 1}));
            }

            @Override
            public ArrivalRate arrivalRate() {
                return ArrivalRate.constant(0);
            }

            @Override
            public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta) {
                beta[0] = x[0].multiply(x[1]);
                beta[1] = x[0].multiply(x[1]);
            }
        };
        MflbException e = assertThrows(MflbException.class,
                () -> new RefinedMeanField(1).steadyState(exchange, new double[] {0.3, 0.7}));
        assertEquals(ErrorKind.UNSTABLE, e.kind());
        assertTrue(e.getMessage().contains("singular"), e.getMessage());
    }

    @Test
    void badFixedPointsAndTimeVaryingArrivalsAreRejected() {
        TailModel model = new TailModel(4, 0.6, 2, false);
        double[] pi = model.queueFixedPoint();
        double[] off = pi.clone();
        off[1] += 1e-4;
        MflbException e = assertThrows(MflbException.class, () -> new RefinedMeanField(1).steadyState(model, off));
        assertEquals("fixedPoint", e.parameter());
        assertThrows(MflbException.class, () -> new RefinedMeanField(1).steadyState(model, new double[3]));
        double[] nan = pi.clone();
        nan[0] = Double.NaN;
        assertThrows(MflbException.class, () -> new RefinedMeanField(1).steadyState(model, nan));
        TailModel varying = new TailModel(4, t -> 0.6 + 0.1 * Math.sin(t), 2, false);
        MflbException v = assertThrows(MflbException.class, () -> new RefinedMeanField(1).steadyState(varying, pi));
        assertEquals("arrivalRate", v.parameter());
    }
}
