package org.mflb.core.markov;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * Gauss–Seidel with the residual stopping rule against closed forms and a dense direct solve.
 */
class StationaryDistributionTest {

    /** M/M/1/K: π_k = ρ^k (1 − ρ)/(1 − ρ^{K+1}). */
    @Test
    void birthDeathChainIsTheTruncatedGeometricLaw() {
        int k = 40;
        double lambda = 0.8;
        TransitionRates.Builder b = TransitionRates.builder(k + 1);
        for (int s = 0; s < k; s++) {
            b.rate(s, s + 1, lambda).rate(s + 1, s, 1.0);
        }
        TransitionRates q = b.build();
        StationaryDistribution pi = StationaryDistribution.solve(q, 1e-14, 1_000_000);
        assertTrue(pi.relativeResidual() <= 1e-14);
        assertEquals(pi.relativeResidual(), q.relativeResidual(pi.probabilities()), 0);
        double norm = (1 - lambda) / (1 - Math.pow(lambda, k + 1));
        for (int s = 0; s <= k; s++) {
            // the error is the residual times the chain's condition number (here below 100)
            assertEquals(norm * Math.pow(lambda, s), pi.probability(s), 1e-12, "state " + s);
        }
    }

    @Test
    void randomChainAgreesWithADenseDirectSolve() {
        int n = 60;
        SplittableRandom rng = new SplittableRandom(12);
        TransitionRates.Builder b = TransitionRates.builder(n);
        DMatrixRMaj generator = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            // a ring keeps the chain irreducible; a few random jumps of uneven rates on top
            double ring = 0.1 + rng.nextDouble();
            b.rate(i, (i + 1) % n, ring);
            generator.add(i, (i + 1) % n, ring);
            for (int e = 0; e < 3; e++) {
                int j = rng.nextInt(n);
                if (j != i) {
                    double q = Math.pow(10, 2 * rng.nextDouble() - 1);
                    b.rate(i, j, q);
                    generator.add(i, j, q);
                }
            }
        }
        TransitionRates q = b.build();
        // direct: solve Qᵀ π = 0 with the first equation replaced by Σ π = 1
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            double out = 0;
            for (int j = 0; j < n; j++) {
                out += generator.get(i, j);
            }
            assertEquals(out, q.outflow(i), 1e-14);
            for (int j = 0; j < n; j++) {
                a.set(j, i, generator.get(i, j) - (i == j ? out : 0));
            }
        }
        DMatrixRMaj rhs = new DMatrixRMaj(n, 1);
        for (int j = 0; j < n; j++) {
            a.set(0, j, 1.0);
        }
        rhs.set(0, 0, 1.0);
        DMatrixRMaj direct = new DMatrixRMaj(n, 1);
        assertTrue(CommonOps_DDRM.solve(a, rhs, direct));
        StationaryDistribution pi = StationaryDistribution.solve(q, 1e-14, 100_000);
        for (int j = 0; j < n; j++) {
            assertEquals(direct.get(j), pi.probability(j), 1e-13 * Math.max(1, direct.get(j) * n), "state " + j);
        }
        // the direct solution's own residual is at the rounding level
        double[] d = direct.getData().clone();
        assertTrue(q.relativeResidual(d) < 1e-13, "direct residual " + q.relativeResidual(d));
    }

    @Test
    void stopsOnTheResidualAndReportsIt() {
        // a slowly mixing chain: two rings of 30 states joined by one slow link each way
        int half = 30;
        TransitionRates.Builder b = TransitionRates.builder(2 * half);
        for (int i = 0; i < half; i++) {
            b.rate(i, (i + 1) % half, 1.0).rate(half + i, half + (i + 1) % half, 2.0);
        }
        b.rate(0, half, 1e-3).rate(half, 0, 3e-3);
        TransitionRates q = b.build();
        StationaryDistribution loose = StationaryDistribution.solve(q, 1e-4, 1_000_000);
        StationaryDistribution tight = StationaryDistribution.solve(q, 1e-13, 1_000_000);
        assertTrue(loose.relativeResidual() <= 1e-4 && loose.sweeps() % StationaryDistribution.CHECK_INTERVAL == 0);
        assertTrue(tight.relativeResidual() <= 1e-13 && tight.sweeps() > loose.sweeps());
        // Summed over one ring, the balance equations give the flow balance across the links, so its
        // defect is at most the ring's summed residual: half x rho x max_j pi_j q_j.
        double[] p = tight.probabilities();
        double maxFlow = 0;
        for (int j = 0; j < 2 * half; j++) {
            maxFlow = Math.max(maxFlow, p[j] * q.outflow(j));
        }
        assertEquals(p[0] * 1e-3, p[half] * 3e-3, half * tight.relativeResidual() * maxFlow);
        double sum = 0;
        for (double v : p) {
            sum += v;
        }
        assertEquals(1.0, sum, 1e-14);
        MflbException e = assertThrows(MflbException.class, () -> StationaryDistribution.solve(q, 1e-13, 3));
        assertEquals(ErrorKind.NO_CONVERGENCE, e.kind());
    }

    @Test
    void rejectsInvalidRatesAndChains() {
        assertThrows(MflbException.class, () -> TransitionRates.builder(3).rate(1, 1, 1.0));
        assertThrows(MflbException.class, () -> TransitionRates.builder(3).rate(0, 1, -1.0));
        assertThrows(MflbException.class, () -> TransitionRates.builder(3).rate(0, 3, 1.0));
        assertThrows(MflbException.class, () -> TransitionRates.builder(3).rate(0, 1, Double.NaN));
        TransitionRates absorbing = TransitionRates.builder(2).rate(0, 1, 1.0).build();
        assertThrows(MflbException.class, () -> StationaryDistribution.solve(absorbing, 1e-10, 100));
        assertThrows(MflbException.class, () -> StationaryDistribution.solve(absorbing, 0, 100));
        assertEquals(1.0, StationaryDistribution.solve(TransitionRates.builder(1).build(), 1e-10, 1).probability(0));
    }
}
