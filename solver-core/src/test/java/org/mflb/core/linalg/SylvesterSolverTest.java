package org.mflb.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

class SylvesterSolverTest {

    /**
     * Agreement with the Kronecker oracle, relative to the largest entry of the solution. Both
     * methods are backward stable; for the well-conditioned random problems below (eigenvalue
     * sums bounded away from 0 by about 1) their forward errors are a few hundred ε.
     */
    private static final double ORACLE_TOLERANCE = 1e-10;

    /** Random stable matrix: Gaussian entries scaled so the spectrum fills a disc of radius ≈ 1, shifted to Re λ ≈ −1.5 ± 1. */
    static DMatrixRMaj randomStable(int n, Random rng) {
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        for (int i = 0; i < n * n; i++) {
            a.data[i] = rng.nextGaussian() / Math.sqrt(n);
        }
        for (int i = 0; i < n; i++) {
            a.add(i, i, -1.5);
        }
        return a;
    }

    static DMatrixRMaj randomMatrix(int r, int c, Random rng) {
        DMatrixRMaj m = new DMatrixRMaj(r, c);
        for (int i = 0; i < r * c; i++) {
            m.data[i] = rng.nextGaussian();
        }
        return m;
    }

    static DMatrixRMaj randomSymmetricPsd(int n, Random rng) {
        DMatrixRMaj g = randomMatrix(n, n, rng);
        DMatrixRMaj q = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(g, g, q);
        return q;
    }

    private static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }

    private static void assertClose(double[] expected, double[] actual, double relative) {
        double scale = maxAbs(expected);
        double err = 0;
        for (int i = 0; i < expected.length; i++) {
            err = Math.max(err, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(err <= relative * scale, "max error " + err + " > " + relative + " × " + scale);
    }

    @Test
    void schurFormReconstructsTheMatrixWithAnOrthogonalFactor() {
        Random rng = new Random(11);
        for (int n : new int[] {1, 2, 5, 20}) {
            DMatrixRMaj a = randomStable(n, rng);
            RealSchurForm s = RealSchurForm.of(a);
            DMatrixRMaj u = s.getU();
            DMatrixRMaj ut = CommonOps_DDRM.transpose(u, null);
            DMatrixRMaj utu = new DMatrixRMaj(n, n);
            CommonOps_DDRM.mult(ut, u, utu);
            DMatrixRMaj back = new DMatrixRMaj(n, n);
            DMatrixRMaj tmp = new DMatrixRMaj(n, n);
            CommonOps_DDRM.mult(u, s.getT(), tmp);
            CommonOps_DDRM.mult(tmp, ut, back);
            // Backward stability of Hessenberg-QR: ‖A − U T Uᵀ‖ = O(n ε ‖A‖).
            assertTrue(NormOps_DDRM.normF(CommonOps_DDRM.subtract(back, a, null)) < 1e-13 * n * NormOps_DDRM.normF(a));
            assertTrue(NormOps_DDRM.normF(CommonOps_DDRM.subtract(utu, CommonOps_DDRM.identity(n), null)) < 1e-13 * n);
            // Eigenvalue sum = trace.
            double sum = 0;
            for (double re : s.getEigenvaluesReal()) {
                sum += re;
            }
            assertEquals(CommonOps_DDRM.trace(a), sum, 1e-12 * n);
        }
    }

    @Test
    void rotationGeneratorGivesOneTwoByTwoBlockWithConjugateEigenvalues() {
        DMatrixRMaj a = new DMatrixRMaj(new double[][] {{-1, 2}, {-2, -1}});
        RealSchurForm s = RealSchurForm.of(a);
        assertEquals(1, s.blockCount());
        assertTrue(s.hasComplexBlocks());
        assertEquals(-1, s.getEigenvaluesReal()[0], 1e-15);
        assertEquals(2, Math.abs(s.getEigenvaluesImaginary()[0]), 1e-14);
        assertEquals(-1, s.spectralAbscissa(), 1e-15);
    }

    @Test
    void lyapunovAgreesWithKroneckerOracleForRandomStableMatrices() {
        Random rng = new Random(2024);
        int complexBlocksSeen = 0;
        for (int n : new int[] {1, 2, 3, 4, 7, 12, 20}) {
            for (int rep = 0; rep < 3; rep++) {
                DMatrixRMaj a = randomStable(n, rng);
                DMatrixRMaj q = randomSymmetricPsd(n, rng);
                RealSchurForm schur = RealSchurForm.of(a);
                if (schur.hasComplexBlocks()) {
                    complexBlocksSeen++;
                }
                DMatrixRMaj w = SylvesterSolver.solveLyapunov(schur, q);
                double[] minusQ = q.data.clone();
                for (int i = 0; i < minusQ.length; i++) {
                    minusQ[i] = -minusQ[i];
                }
                double[] oracle = KroneckerOracle.solve(new DMatrixRMaj[] {a, a}, minusQ);
                assertClose(oracle, w.data, ORACLE_TOLERANCE);
            }
        }
        // The random matrices must exercise the 2×2 (complex pair) blocks.
        assertTrue(complexBlocksSeen >= 10, "complex blocks in " + complexBlocksSeen + " matrices");
    }

    @Test
    void sylvesterWithRectangularUnknownAgreesWithOracle() {
        Random rng = new Random(7);
        for (int[] mn : new int[][] {{1, 1}, {1, 5}, {6, 1}, {7, 12}, {20, 13}}) {
            DMatrixRMaj a = randomStable(mn[0], rng);
            // B need not be stable: only λ_i(A) + λ_j(B) ≠ 0 matters; shift B to the right half plane.
            DMatrixRMaj b = randomStable(mn[1], rng);
            CommonOps_DDRM.scale(-0.7, b);
            DMatrixRMaj c = randomMatrix(mn[0], mn[1], rng);
            DMatrixRMaj x = SylvesterSolver.solveSylvester(a, b, c);
            double[] oracle = KroneckerOracle.solve(new DMatrixRMaj[] {a, CommonOps_DDRM.transpose(b, null)}, c.data);
            assertClose(oracle, x.data, ORACLE_TOLERANCE);
        }
    }

    @Test
    void thirdOrderKroneckerSumAgreesWithOracle() {
        Random rng = new Random(99);
        for (int n : new int[] {1, 2, 3, 6, 8}) {
            DMatrixRMaj a = randomStable(n, rng);
            RealSchurForm s = RealSchurForm.of(a);
            double[] c = randomMatrix(1, n * n * n, rng).data;
            double[] x = SylvesterSolver.solveKroneckerSum(new RealSchurForm[] {s, s, s}, c);
            assertClose(KroneckerOracle.solve(new DMatrixRMaj[] {a, a, a}, c), x, ORACLE_TOLERANCE);
        }
        // Mixed sizes and matrices per axis.
        DMatrixRMaj a1 = randomStable(3, rng);
        DMatrixRMaj a2 = randomStable(5, rng);
        DMatrixRMaj a3 = randomStable(4, rng);
        double[] c = randomMatrix(1, 60, rng).data;
        double[] x = SylvesterSolver.solveKroneckerSum(
                new RealSchurForm[] {RealSchurForm.of(a1), RealSchurForm.of(a2), RealSchurForm.of(a3)}, c);
        assertClose(KroneckerOracle.solve(new DMatrixRMaj[] {a1, a2, a3}, c), x, ORACLE_TOLERANCE);
    }

    @Test
    void linearSolveThroughSchurFormMatchesLu() {
        Random rng = new Random(5);
        DMatrixRMaj a = randomStable(15, rng);
        double[] b = randomMatrix(1, 15, rng).data;
        double[] x = RealSchurForm.of(a).solve(b);
        DMatrixRMaj expected = new DMatrixRMaj(15, 1);
        CommonOps_DDRM.solve(a, DMatrixRMaj.wrap(15, 1, b.clone()), expected);
        assertClose(expected.data, x, 1e-12);
    }

    @Test
    void lyapunovResidualIsAtRoundingLevelForDimensionSixty() {
        Random rng = new Random(60);
        int n = 60;
        for (int rep = 0; rep < 2; rep++) {
            DMatrixRMaj a = randomStable(n, rng);
            DMatrixRMaj q = randomSymmetricPsd(n, rng);
            DMatrixRMaj w = SylvesterSolver.solveLyapunov(a, q);
            DMatrixRMaj r = new DMatrixRMaj(n, n);
            CommonOps_DDRM.mult(a, w, r);
            CommonOps_DDRM.multAddTransB(w, a, r);
            CommonOps_DDRM.addEquals(r, q);
            double scale = 2 * NormOps_DDRM.normF(a) * NormOps_DDRM.normF(w) + NormOps_DDRM.normF(q);
            // Bartels–Stewart is backward stable in the sense ‖R‖ ≤ c n ε (2‖A‖‖W‖ + ‖Q‖) with
            // a modest c; 1e-14 · n ≈ 30 n ε.
            double relative = NormOps_DDRM.normF(r) / scale;
            assertTrue(relative < 1e-14 * n, "relative residual " + relative);
            // W symmetric positive definite (Q positive definite, A Hurwitz).
            for (int i = 0; i < n; i++) {
                assertTrue(w.get(i, i) > 0);
                for (int j = 0; j < n; j++) {
                    assertEquals(w.get(i, j), w.get(j, i), 0.0);
                }
            }
            // Sylvester residual at the same size with non-symmetric data.
            DMatrixRMaj b = randomStable(n, rng);
            DMatrixRMaj c = randomMatrix(n, n, rng);
            DMatrixRMaj x = SylvesterSolver.solveSylvester(a, b, c);
            DMatrixRMaj rs = new DMatrixRMaj(n, n);
            CommonOps_DDRM.mult(a, x, rs);
            CommonOps_DDRM.multAdd(x, b, rs);
            CommonOps_DDRM.subtractEquals(rs, c);
            double sScale = (NormOps_DDRM.normF(a) + NormOps_DDRM.normF(b)) * NormOps_DDRM.normF(x) + NormOps_DDRM.normF(c);
            assertTrue(NormOps_DDRM.normF(rs) / sScale < 1e-14 * n);
        }
    }

    @Test
    void conservationLawMakesLyapunovSingularWithClearError() {
        // Generator-like matrix: columns sum to zero, so 1ᵀA = 0 and λ = 0 is an eigenvalue.
        DMatrixRMaj a = new DMatrixRMaj(new double[][] {{-1, 2, 0}, {1, -3, 1}, {0, 1, -1}});
        DMatrixRMaj q = CommonOps_DDRM.identity(3);
        MflbException e = assertThrows(MflbException.class, () -> SylvesterSolver.solveLyapunov(a, q));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertTrue(e.getMessage().contains("singular"), e.getMessage());
        assertThrows(MflbException.class, () -> RealSchurForm.of(a).solve(new double[] {1, 0, 0}));
    }

    @Test
    void oppositeEigenvaluesMakeLyapunovSingular() {
        // λ = ±2i: λ_1 + λ_2 = 0 although A is invertible.
        DMatrixRMaj a = new DMatrixRMaj(new double[][] {{0, 2}, {-2, 0}});
        assertThrows(MflbException.class, () -> SylvesterSolver.solveLyapunov(a, CommonOps_DDRM.identity(2)));
        DMatrixRMaj d = CommonOps_DDRM.diag(1.0, -1.0, -3.0);
        MflbException e = assertThrows(MflbException.class, () -> SylvesterSolver.solveLyapunov(d, CommonOps_DDRM.identity(3)));
        assertTrue(e.getMessage().contains("eigenvalue sum"), e.getMessage());
    }

    @Test
    void badShapesAndNonFiniteEntriesAreRejected() {
        assertThrows(MflbException.class, () -> RealSchurForm.of(new DMatrixRMaj(2, 3)));
        DMatrixRMaj nan = CommonOps_DDRM.identity(2);
        nan.set(0, 1, Double.NaN);
        MflbException e = assertThrows(MflbException.class, () -> RealSchurForm.of(nan));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertThrows(MflbException.class,
                () -> SylvesterSolver.solveSylvester(CommonOps_DDRM.identity(2), CommonOps_DDRM.identity(3), new DMatrixRMaj(3, 2)));
        assertThrows(MflbException.class,
                () -> SylvesterSolver.solveKroneckerSum(new RealSchurForm[] {RealSchurForm.of(CommonOps_DDRM.identity(2))}, new double[3]));
    }

    @Test
    void subnormalEntriesDoNotSpoilTheSchurForm() {
        // Tail models put 2λx_i ≈ 1e-319 (subnormal) in the Jacobian; the QR iteration must not
        // turn them into NaNs. Lower bidiagonal with a defective eigenvalue −1 below a small block.
        int n = 8;
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            a.set(i, i, i < 3 ? -2.0 - i : -1.0);
            if (i + 1 < n) {
                a.set(i, i + 1, 1.0);
                a.set(i + 1, i, i == 3 ? 1.2729e-319 : i < 3 ? 0.5 : 0.0);
            }
        }
        RealSchurForm s = RealSchurForm.of(a);
        for (double v : s.getU().data) {
            assertTrue(Double.isFinite(v));
        }
        DMatrixRMaj q = CommonOps_DDRM.identity(n);
        DMatrixRMaj w = SylvesterSolver.solveLyapunov(s, q);
        double[] minusQ = q.data.clone();
        for (int i = 0; i < minusQ.length; i++) {
            minusQ[i] = -minusQ[i];
        }
        assertClose(KroneckerOracle.solve(new DMatrixRMaj[] {a, a}, minusQ), w.data, ORACLE_TOLERANCE);
    }
}
