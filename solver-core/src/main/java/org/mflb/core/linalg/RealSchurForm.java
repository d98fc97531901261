package org.mflb.core.linalg;

import org.ejml.data.DMatrixRMaj;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.SchurTransformer;
import org.hipparchus.util.Precision;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The real Schur form of a square matrix,
 * <pre>
 *   A = U T Uᵀ,   U orthogonal,   T upper quasi-triangular,
 * </pre>
 * where the diagonal of {@code T} holds 1×1 blocks (real eigenvalues) and 2×2 blocks (complex
 * conjugate pairs). It is computed once (Hipparchus {@link SchurTransformer}: Hessenberg reduction
 * then shifted QR, Golub &amp; Van Loan §7.5) and reused by every solve against {@code A}: linear
 * systems, Lyapunov and Sylvester equations and their higher-order (tensor) analogues
 * ({@link SylvesterSolver}).
 *
 * <p>Instances are immutable. Matrices are stored row-major in {@code double[]}, as EJML does.
 */
public final class RealSchurForm {

    private final int n;
    /** {@code T}, row-major, entries below the diagonal blocks set to exactly zero. */
    private final double[] t;
    /** {@code U}, row-major. */
    private final double[] u;
    /** {@code blockOf[i]}: index of the diagonal block holding row {@code i}. */
    private final int[] blockOf;
    /** {@code blockStart[b]}: first row of block {@code b}; {@code blockStart[nb] = n}. */
    private final int[] blockStart;
    private final double[] eigenRe;
    private final double[] eigenIm;
    private final double norm;

    private RealSchurForm(int n, double[] t, double[] u, double norm) {
        this.n = n;
        this.t = t;
        this.u = u;
        this.norm = norm;
        this.blockOf = new int[n];
        int[] starts = new int[n + 1];
        int nb = 0;
        int i = 0;
        while (i < n) {
            starts[nb] = i;
            // A 2×2 block is signalled by a subdiagonal entry that is not negligible by the QR
            // iteration's own deflation test; negligible ones are set to zero.
            int size = 1;
            if (i + 1 < n) {
                if (negligibleSubdiagonal(t, n, i + 1, norm)) {
                    t[(i + 1) * n + i] = 0.0;
                } else {
                    size = 2;
                    if (i + 2 < n && !negligibleSubdiagonal(t, n, i + 2, norm)) {
                        throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                                "real Schur form did not converge: two consecutive non-zero subdiagonal entries at row "
                                        + (i + 1));
                    }
                }
            }
            for (int k = 0; k < size; k++) {
                blockOf[i + k] = nb;
            }
            nb++;
            i += size;
        }
        starts[nb] = n;
        this.blockStart = java.util.Arrays.copyOf(starts, nb + 1);
        // Zero everything below the diagonal blocks: T is quasi-triangular by construction, this
        // only removes rounding noise so that back substitution can rely on the structure.
        for (int r = 0; r < n; r++) {
            int first = blockStart[blockOf[r]];
            for (int c = 0; c < first; c++) {
                t[r * n + c] = 0.0;
            }
        }
        this.eigenRe = new double[n];
        this.eigenIm = new double[n];
        for (int b = 0; b < nb; b++) {
            int s = blockStart[b];
            if (blockStart[b + 1] - s == 1) {
                eigenRe[s] = t[s * n + s];
            } else {
                double a11 = t[s * n + s];
                double a12 = t[s * n + s + 1];
                double a21 = t[(s + 1) * n + s];
                double a22 = t[(s + 1) * n + s + 1];
                double half = 0.5 * (a11 + a22);
                double det = a11 * a22 - a12 * a21;
                double disc = half * half - det;
                if (disc >= 0) {
                    // A 2×2 block with real eigenvalues (rare; the solver treats it like any block).
                    double root = Math.sqrt(disc);
                    double big = half + Math.copySign(root, half);
                    eigenRe[s] = big;
                    eigenRe[s + 1] = big == 0.0 ? 0.0 : det / big;
                } else {
                    double im = Math.sqrt(-disc);
                    eigenRe[s] = half;
                    eigenRe[s + 1] = half;
                    eigenIm[s] = im;
                    eigenIm[s + 1] = -im;
                }
            }
        }
    }

    /** Deflation test of the QR iteration: {@code |T[r][r-1]| ≤ ε(|T[r-1][r-1]| + |T[r][r]|)}. */
    private static boolean negligibleSubdiagonal(double[] t, int n, int r, double norm) {
        double sub = Math.abs(t[r * n + r - 1]);
        double scale = Math.abs(t[(r - 1) * n + r - 1]) + Math.abs(t[r * n + r]);
        if (scale == 0.0) {
            scale = norm;
        }
        return sub <= 2 * Precision.EPSILON * scale;
    }

    /**
     * Computes the real Schur form of {@code a}.
     *
     * @param a square matrix, finite entries (not modified)
     * @return its Schur form
     * @throws MflbException if {@code a} is not square, is empty or has non-finite entries
     */
    public static RealSchurForm of(DMatrixRMaj a) {
        int n = a.numRows;
        if (n == 0 || a.numCols != n) {
            throw MflbException.invalid("a", a.numRows + "x" + a.numCols, "a non-empty square matrix");
        }
        double[][] rows = new double[n][n];
        double frob = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double v = a.unsafe_get(i, j);
                if (!Double.isFinite(v)) {
                    throw MflbException.invalid("a[" + i + "][" + j + "]", v, "finite");
                }
                rows[i][j] = v;
                frob += v * v;
            }
        }
        double norm = Math.sqrt(frob);
        if (n == 1) {
            return new RealSchurForm(1, new double[] {rows[0][0]}, new double[] {1.0}, norm);
        }
        // Entries below ε²‖A‖ are flushed to zero: a backward perturbation far below the ε‖A‖ of
        // the Schur form itself, which keeps subnormal numbers (e.g. 2λx_i for tail levels near
        // 1e-310) out of the QR iteration, where they produce NaNs in Hipparchus 4.0.2.
        double negligible = Precision.EPSILON * Precision.EPSILON * norm;
        for (double[] row : rows) {
            for (int j = 0; j < n; j++) {
                if (Math.abs(row[j]) < negligible) {
                    row[j] = 0.0;
                }
            }
        }
        SchurTransformer schur = new SchurTransformer(new Array2DRowRealMatrix(rows, false));
        double[] t = flatten(schur.getT());
        double[] u = flatten(schur.getP());
        for (int i = 0; i < n * n; i++) {
            if (!Double.isFinite(t[i]) || !Double.isFinite(u[i])) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "real Schur form failed (non-finite entries) for a " + n + "x" + n + " matrix of norm " + norm);
            }
        }
        return new RealSchurForm(n, t, u, norm);
    }

    private static double[] flatten(RealMatrix m) {
        int r = m.getRowDimension();
        int c = m.getColumnDimension();
        double[] out = new double[r * c];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                out[i * c + j] = m.getEntry(i, j);
            }
        }
        return out;
    }

    /** @return the dimension {@code n} */
    public int getDimension() {
        return n;
    }

    /** @return a copy of the quasi-triangular factor {@code T} */
    public DMatrixRMaj getT() {
        return new DMatrixRMaj(n, n, true, t);
    }

    /** @return a copy of the orthogonal factor {@code U} */
    public DMatrixRMaj getU() {
        return new DMatrixRMaj(n, n, true, u);
    }

    /** @return real parts of the eigenvalues, in the order of the diagonal of {@code T} */
    public double[] getEigenvaluesReal() {
        return eigenRe.clone();
    }

    /** @return imaginary parts of the eigenvalues, in the order of the diagonal of {@code T} */
    public double[] getEigenvaluesImaginary() {
        return eigenIm.clone();
    }

    /** @return the spectral abscissa {@code max Re λ}: negative iff {@code A} is Hurwitz (stable) */
    public double spectralAbscissa() {
        double max = Double.NEGATIVE_INFINITY;
        for (double re : eigenRe) {
            max = Math.max(max, re);
        }
        return max;
    }

    /** @return the Frobenius norm of {@code A}, the scale for singularity tests */
    public double norm() {
        return norm;
    }

    /** @return the number of diagonal blocks of {@code T} */
    public int blockCount() {
        return blockStart.length - 1;
    }

    /** @return whether {@code T} has a 2×2 block */
    public boolean hasComplexBlocks() {
        return blockCount() < n;
    }

    /**
     * Solves {@code A x = b}.
     *
     * @param b right-hand side, length {@code n} (not modified)
     * @return {@code x}
     * @throws MflbException if {@code A} is singular (an eigenvalue is zero relative to its norm)
     */
    public double[] solve(double[] b) {
        return SylvesterSolver.solveKroneckerSum(new RealSchurForm[] {this}, b);
    }

    // Package-private accessors for the solvers: no copies.

    double[] t() {
        return t;
    }

    double[] u() {
        return u;
    }

    int[] blockStart() {
        return blockStart;
    }

    int[] blockOf() {
        return blockOf;
    }

    double[] eigenRe() {
        return eigenRe;
    }

    double[] eigenIm() {
        return eigenIm;
    }
}
