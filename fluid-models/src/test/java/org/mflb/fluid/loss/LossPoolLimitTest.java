package org.mflb.fluid.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.SmoothRouting;

/** The OU limit of loss pools at the fixed point and along transients (docs/models.md §8). */
class LossPoolLimitTest {

    private static final SmoothRouting[] POLICIES = {RandomRouting.INSTANCE, PowerOfD.withReplacement(2),
        PowerOfD.distinct(2, 10), PowerOfD.withReplacement(3), PowerOfD.distinct(3, 10)};

    @Test
    void throughputIdentityHoldsAtTheFixedPoint() {
        for (SmoothRouting p : POLICIES) {
            for (double lambda : new double[] {0.5, 4.5, 9.0}) {
                LossPoolLimit l = LossPoolLimit.of(5, p, lambda);
                double carried = 0;
                for (double xi : l.fixedPoint()) {
                    carried += xi;
                }
                // λ(1 − h(x*_C)) = Σ x*_i: arrivals carried = departures.
                assertEquals(carried, lambda * (1 - l.blocking()), 1e-12 * lambda, p.name() + " " + lambda);
            }
        }
    }

    @Test
    void paperExampleMatchesTheDocumentedValues() {
        LossPoolLimit l = LossPoolLimit.of(5, PowerOfD.withReplacement(2), 4.5);
        assertEquals(0.121280, l.blocking(), 5e-7);
        assertEquals(0.18060, l.blockingCorrection(), 5e-6);
    }

    @Test
    void randomRoutingIsErlangBWithExactCovarianceAndNoCorrection() {
        int c = 5;
        double lambda = 4.0;
        LossPoolLimit l = LossPoolLimit.of(c, RandomRouting.INSTANCE, lambda);
        double[] p = new double[c + 1];
        double sum = 0;
        double term = 1;
        for (int k = 0; k <= c; k++) {
            term = k == 0 ? 1 : term * lambda / k;
            p[k] = term;
            sum += term;
        }
        double[] tail = new double[c + 2];
        for (int k = c; k >= 0; k--) {
            tail[k] = tail[k + 1] + p[k] / sum;
        }
        assertEquals(p[c] / sum, l.blocking(), 1e-13);
        DMatrixRMaj w = l.covariance();
        for (int i = 1; i <= c; i++) {
            assertEquals(tail[i], l.fixedPoint()[i - 1], 1e-13);
            for (int j = 1; j <= c; j++) {
                // independent pools: N Cov(x_i, x_j) = P(Q ≥ max(i, j)) − P(Q ≥ i) P(Q ≥ j)
                assertEquals(tail[Math.max(i, j)] - tail[i] * tail[j], w.get(i - 1, j - 1), 1e-12);
            }
        }
        assertEquals(0.0, l.blockingCorrection(), 1e-13);
        assertEquals(0.0, l.blockingCorrectionByLittle(), 1e-13);
    }

    @Test
    void blockingCorrectionTwoWaysAgrees() {
        for (SmoothRouting p : POLICIES) {
            for (double lambda : new double[] {2.0, 4.5, 7.0}) {
                LossPoolLimit l = LossPoolLimit.of(5, p, lambda);
                assertEquals(l.blockingCorrection(), l.blockingCorrectionByLittle(), 1e-12, p.name() + " " + lambda);
            }
        }
    }

    @Test
    void ouMeanIsMinusBetaTimesTheDerivativeOfTheFixedPoint() {
        double h = 1e-4;
        double beta = 0.7;
        for (SmoothRouting p : POLICIES) {
            LossPoolLimit l = LossPoolLimit.of(5, p, 4.5);
            double[] up = l.atLoad(4.5 + h).fixedPoint();
            double[] down = l.atLoad(4.5 - h).fixedPoint();
            double[] centre = l.fixedPoint();
            double[] m = l.ouMean(beta);
            double[] second = l.fixedPointSecondDerivative();
            for (int i = 0; i < 5; i++) {
                // central differences: O(h²) ≈ 1e-8 truncation, rounding 1e-16/h = 1e-12 (first), 1e-16/h² = 1e-8 (second)
                assertEquals(-beta * (up[i] - down[i]) / (2 * h), m[i], 1e-8, p.name() + " level " + (i + 1));
                assertEquals((up[i] - 2 * centre[i] + down[i]) / (h * h), second[i], 1e-5, p.name() + " level " + (i + 1));
            }
        }
    }

    @Test
    void covarianceSolvesTheLyapunovEquationAndGapIsPositive() {
        for (SmoothRouting p : POLICIES) {
            LossPoolLimit l = LossPoolLimit.of(5, p, 4.5);
            DMatrixRMaj a = l.driftJacobian();
            DMatrixRMaj w = l.covariance();
            DMatrixRMaj q = l.noise();
            DMatrixRMaj r = new DMatrixRMaj(5, 5);
            org.ejml.dense.row.CommonOps_DDRM.mult(a, w, r);
            org.ejml.dense.row.CommonOps_DDRM.multAddTransB(w, a, r);
            org.ejml.dense.row.CommonOps_DDRM.addEquals(r, q);
            assertTrue(org.ejml.dense.row.NormOps_DDRM.normPInf(r) < 1e-12, p.name());
            double largest = Double.NEGATIVE_INFINITY;
            for (org.hipparchus.complex.Complex z : org.mflb.core.fixedpoint.FixedPointSolver.eigenvalues(a)) {
                largest = Math.max(largest, z.getReal());
            }
            assertEquals(-largest, l.spectralGap(), 1e-10);
            assertTrue(l.spectralGap() > 0);
        }
    }

    @Test
    void ouTransientTendsToTheStationaryLimitAndIsTheLoadDerivativeOfTheFluid() {
        double beta = -1.0;
        double sigma = 4.5;
        SmoothRouting p = PowerOfD.withReplacement(2);
        LossPoolLimit l = LossPoolLimit.of(5, p, sigma);
        TimeGrid grid = TimeGrid.of(0, 0.5, 1, 2, 40);
        LossPoolTransient tr = LossPoolTransient.of(5, p, sigma, beta, InitialState.empty(), grid);
        double[] m = l.ouMean(beta);
        DMatrixRMaj w = l.covariance();
        int last = grid.size() - 1;
        for (int i = 0; i < 5; i++) {
            // relaxation e^{-gap t} with gap ≈ 2.3 at t = 40: far below the integration tolerance
            assertEquals(m[i], tr.ouMean(last)[i], 1e-8);
            assertEquals(l.fixedPoint()[i], tr.tail(last)[i], 1e-9);
            for (int j = 0; j < 5; j++) {
                assertEquals(w.get(i, j), tr.covariance(last).get(i, j), 1e-8);
            }
        }
        // μ(t) = −β ∂x(t)/∂σ from the same initial state: central difference of two fluid transients.
        double h = 1e-4;
        var up = FluidModel.of(ServerSystem.lossPools(5), p, sigma + h).transientFrom(InitialState.empty(), grid);
        var down = FluidModel.of(ServerSystem.lossPools(5), p, sigma - h).transientFrom(InitialState.empty(), grid);
        for (int k = 1; k < 4; k++) {
            for (int i = 0; i < 5; i++) {
                double fd = -beta * (up.tail(k)[i + 1] - down.tail(k)[i + 1]) / (2 * h);
                assertEquals(fd, tr.ouMean(k)[i], 1e-5, "t = " + grid.time(k) + " level " + (i + 1));
            }
        }
        // Σ(t) against the project's transient refined mean field W(t).
        var refined = new org.mflb.core.refined.RefinedMeanField(1).transientRegime(
                new org.mflb.fluid.TailModel(ServerSystem.lossPools(5), p,
                        org.mflb.core.model.ArrivalRate.constant(sigma), 5), new double[5], 0, grid.toArray());
        for (int k = 0; k < grid.size(); k++) {
            DMatrixRMaj s = tr.covariance(k);
            DMatrixRMaj wk = refined.covarianceTerm(k);
            for (int i = 0; i < 5; i++) {
                for (int j = 0; j < 5; j++) {
                    assertEquals(wk.get(i, j), s.get(i, j), 1e-8);
                }
            }
        }
        assertEquals(tr.blocking(last) + 2 * Math.pow(tr.tail(last)[4], 1) * tr.ouMean(last)[4] / 10,
                tr.ouMeanBlocking(last, 100), 1e-14);
    }

    @Test
    void invalidInputsNameTheirParameter() {
        assertEquals("lambda", assertThrows(MflbException.class,
                () -> LossPoolLimit.of(5, PowerOfD.withReplacement(2), 0)).parameter());
        LossPoolLimit l = LossPoolLimit.of(5, PowerOfD.withReplacement(2), 1.0);
        assertEquals("beta", assertThrows(MflbException.class, () -> BlockingApproximations.at(l, 4, 16)).parameter());
        assertEquals("exact", assertThrows(MflbException.class,
                () -> ExactLossChain.of(5, 2, false, 40, 4.5)).parameter());
        assertEquals("init", assertThrows(MflbException.class, () -> LossPoolTransient.of(2,
                PowerOfD.withReplacement(2), 1, 0, InitialState.all(3), TimeGrid.of(0, 1))).parameter());
    }
}
