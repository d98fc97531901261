package org.mflb.core.fixedpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

class FixedPointSolverTest {

    /**
     * A birth–death chain on levels 1..K written as a population model: the M/M/1 tail equations
     * {@code dx_i/dt = λ(x_{i−1} − x_i) − (x_i − x_{i+1})}, whose fixed point is the truncated
     * geometric tail {@code (λ^i − λ^{K+1})/(1 − λ^{K+1})}. Only rates are given, so drift and
     * Jacobian come from the interface defaults (sum over jumps, finite differences).
     */
    static PopulationModel tailChain(double lambda, int k) {
        List<Transition> jumps = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            jumps.add(Transition.unit(i, 1));
        }
        for (int i = 0; i < k; i++) {
            jumps.add(Transition.unit(i, -1));
        }
        return new PopulationModel() {
            @Override
            public List<Transition> transitions() {
                return jumps;
            }

            @Override
            public void rates(double t, double[] x, double[] beta) {
                for (int i = 0; i < k; i++) {
                    beta[i] = lambda * ((i == 0 ? 1 : x[i - 1]) - x[i]);
                    beta[k + i] = x[i] - (i + 1 < k ? x[i + 1] : 0);
                }
            }

            @Override
            public ArrivalRate arrivalRate() {
                return ArrivalRate.constant(lambda);
            }

            @Override
            public int getDimension() {
                return k;
            }

            @Override
            public int[] jacobianBandwidth() {
                return new int[] {1, 1};
            }
        };
    }

    @Test
    void findsTheTruncatedGeometricTailWithDefaultsOnly() {
        double lambda = 0.8;
        int k = 30;
        FixedPoint fp = new FixedPointSolver().solve(tailChain(lambda, k), new double[k]);
        double top = Math.pow(lambda, k + 1);
        for (int i = 1; i <= k; i++) {
            assertEquals((Math.pow(lambda, i) - top) / (1 - top), fp.state()[i - 1], 1e-13);
        }
        assertTrue(fp.residual() < 1e-14);
        assertTrue(fp.isStable());
        // The spectrum of this tridiagonal Jacobian: −(1+λ) + 2√λ cos(jπ/(K+1)) for the untruncated
        // boundary; here simply check it is real and negative.
        for (var c : fp.spectrum().orElseThrow()) {
            assertTrue(c.getReal() < 0 && Math.abs(c.getImaginary()) < 1e-10);
        }
    }

    @Test
    void bandedPathHandlesThousandsOfLevels() {
        double lambda = 0.995;
        int k = 2000;
        FixedPoint fp = new FixedPointSolver().solve(tailChain(lambda, k), new double[k]);
        double top = Math.pow(lambda, k + 1);
        for (int i = 1; i <= k; i += 97) {
            assertEquals((Math.pow(lambda, i) - top) / (1 - top), fp.state()[i - 1], 1e-11);
        }
        assertTrue(fp.spectrum().isEmpty(), "dimension above the spectrum limit");
    }

    @Test
    void repellingEquilibriumIsNotReported() {
        // dx/dt = x(1 − x)(x − 0.5): 0.5 repels; from 0.45 the flow, and so the iteration, goes to 0.
        PopulationModel bistable = new PopulationModel() {
            @Override
            public List<Transition> transitions() {
                return List.of(Transition.unit(0, 1), Transition.unit(0, -1));
            }

            @Override
            public void rates(double t, double[] x, double[] beta) {
                double f = x[0] * (1 - x[0]) * (x[0] - 0.5);
                beta[0] = Math.max(f, 0);
                beta[1] = Math.max(-f, 0);
            }

            @Override
            public ArrivalRate arrivalRate() {
                return ArrivalRate.constant(1);
            }

            @Override
            public int getDimension() {
                return 1;
            }
        };
        FixedPoint fp = new FixedPointSolver().solve(bistable, new double[] {0.45});
        assertEquals(0.0, fp.state()[0], 1e-12);
        assertTrue(fp.isStable());
    }

    @Test
    void noFixedPointIsAClearError() {
        // dx/dt = 1: no equilibrium at all.
        PopulationModel drifting = new PopulationModel() {
            @Override
            public List<Transition> transitions() {
                return List.of(Transition.unit(0, 1));
            }

            @Override
            public void rates(double t, double[] x, double[] beta) {
                beta[0] = 1;
            }

            @Override
            public ArrivalRate arrivalRate() {
                return ArrivalRate.constant(1);
            }

            @Override
            public int getDimension() {
                return 1;
            }
        };
        MflbException e = assertThrows(MflbException.class,
                () -> new FixedPointSolver().solve(drifting, new double[] {0}));
        assertEquals(ErrorKind.NO_CONVERGENCE, e.kind());
        assertFalse(e.getMessage().isEmpty());
    }

    @Test
    void bandedEliminationAgreesWithDenseLu() {
        Random random = new Random(42);
        int n = 60;
        DMatrixRMaj jacobian = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = Math.max(0, i - 2); j <= Math.min(n - 1, i + 1); j++) {
                jacobian.set(i, j, random.nextGaussian());
            }
        }
        double[] rhs = random.doubles(n).toArray();
        double shift = 0.3;
        double[][] band = new double[n][4];
        for (int i = 0; i < n; i++) {
            for (int j = Math.max(0, i - 2); j <= Math.min(n - 1, i + 1); j++) {
                band[i][j - i + 2] = jacobian.get(i, j);
            }
        }
        double[] banded = new BandedLinearSolver(n, 2, 1).solveShifted(band, shift, rhs);
        assertNotNull(banded);
        DMatrixRMaj system = CommonOps_DDRM.identity(n);
        CommonOps_DDRM.scale(shift, system);
        CommonOps_DDRM.subtractEquals(system, jacobian);
        DMatrixRMaj x = new DMatrixRMaj(n, 1);
        assertTrue(CommonOps_DDRM.solve(system, DMatrixRMaj.wrap(n, 1, rhs.clone()), x));
        for (int i = 0; i < n; i++) {
            // Both are backward stable; this system's condition number is moderate (random band).
            assertEquals(x.get(i), banded[i], 1e-9 * (1 + Math.abs(x.get(i))));
        }
    }
}
