package org.mflb.core.linalg;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * Bartels–Stewart solver for Sylvester, Lyapunov and higher-order Kronecker-sum equations.
 *
 * <p>The general problem is, for a tensor {@code X} with {@code p} axes ({@code p = 1, 2, 3, ...})
 * and one square matrix {@code M_k} per axis,
 * <pre>
 *   Σ_k  M_k ×_k X = C,      (M ×_k X)[…, i_k, …] = Σ_a M[i_k, a] X[…, a, …],
 * </pre>
 * i.e. {@code (M_1 ⊕ M_2 ⊕ … ⊕ M_p) vec(X) = vec(C)}. Special cases:
 * <ul>
 * <li>{@code p = 1}: the linear system {@code M x = c};</li>
 * <li>{@code p = 2}, {@code M_1 = A}, {@code M_2 = Bᵀ}: the Sylvester equation {@code A X + X B = C};</li>
 * <li>{@code p = 2}, {@code M_1 = M_2 = A}: the Lyapunov equation {@code A W + W Aᵀ = C};</li>
 * <li>{@code p = 3}, all {@code M_k = A}: the third-moment equation of the 1/N² size expansion
 *     (Gast, Bortolussi &amp; Tribastone 2019, Thm 2).</li>
 * </ul>
 *
 * <p>Method (Bartels &amp; Stewart 1972, generalised to {@code p} axes): with real Schur forms
 * {@code M_k = U_k T_k U_kᵀ}, the unknown {@code Y = X ×_1 U_1ᵀ … ×_p U_pᵀ} solves
 * {@code Σ_k T_k ×_k Y = C ×_1 U_1ᵀ … ×_p U_pᵀ}. Because every {@code T_k} is upper
 * quasi-triangular, the blocks of {@code Y} are found by back substitution, from the last diagonal
 * block of every axis to the first; each step solves a dense system of size at most {@code 2^p}
 * (the 1×1 and 2×2 diagonal blocks). Cost: {@code O(Σ n_k³)} for the Schur forms plus
 * {@code O(Π n_k · Σ n_k)} for the transforms and the substitution, i.e. {@code O(n³)} for
 * Lyapunov/Sylvester and {@code O(n⁴)} for {@code p = 3}.
 *
 * <p>The operator is singular iff some sum of eigenvalues {@code λ_{i_1}(M_1) + … + λ_{i_p}(M_p)}
 * vanishes; sums smaller than {@value #SINGULARITY_TOLERANCE} times {@code Σ‖M_k‖_F} are reported
 * as an {@link MflbException} rather than returning a meaningless solution.
 */
public final class SylvesterSolver {

    /**
     * Relative size below which an eigenvalue sum is taken as zero. The Schur form is backward
     * stable (eigenvalue errors of a few {@code ε‖M‖} for well-conditioned eigenvalues); 1e-12
     * leaves a margin of about 4500 ε for non-normal matrices while still rejecting the exact zero
     * eigenvalues produced by conservation laws.
     */
    public static final double SINGULARITY_TOLERANCE = 1e-12;

    private SylvesterSolver() {
    }

    /**
     * Solves the Sylvester equation {@code A X + X B = C}.
     *
     * @param a {@code m×m} (not modified)
     * @param b {@code n×n} (not modified)
     * @param c {@code m×n} (not modified)
     * @return {@code X}, {@code m×n}
     * @throws MflbException if the shapes disagree or {@code λ_i(A) + λ_j(B) ≈ 0} for some {@code i, j}
     */
    public static DMatrixRMaj solveSylvester(DMatrixRMaj a, DMatrixRMaj b, DMatrixRMaj c) {
        if (c.numRows != a.numRows || c.numCols != b.numRows) {
            throw MflbException.invalid("c", c.numRows + "x" + c.numCols,
                    "a " + a.numRows + "x" + b.numRows + " matrix (rows of A by columns of B)");
        }
        RealSchurForm sa = RealSchurForm.of(a);
        RealSchurForm sbt = RealSchurForm.of(CommonOps_DDRM.transpose(b, null));
        double[] x = solveKroneckerSum(new RealSchurForm[] {sa, sbt}, c.data);
        return DMatrixRMaj.wrap(a.numRows, b.numRows, x);
    }

    /**
     * Solves the continuous Lyapunov equation {@code A W + W Aᵀ + Q = 0}. For a Hurwitz {@code A}
     * and a symmetric positive semi-definite {@code Q}, {@code W} is the stationary covariance of
     * {@code dY = A Y dt + Q^{1/2} dB}.
     *
     * @param a {@code n×n} (not modified)
     * @param q {@code n×n} (not modified)
     * @return {@code W}, symmetrised when {@code Q} is symmetric
     * @throws MflbException if the shapes disagree or {@code λ_i(A) + λ_j(A) ≈ 0}
     */
    public static DMatrixRMaj solveLyapunov(DMatrixRMaj a, DMatrixRMaj q) {
        return solveLyapunov(RealSchurForm.of(a), q);
    }

    /**
     * Solves {@code A W + W Aᵀ + Q = 0} with a precomputed Schur form of {@code A}.
     *
     * @param a Schur form of {@code A}
     * @param q {@code n×n} (not modified)
     * @return {@code W}
     */
    public static DMatrixRMaj solveLyapunov(RealSchurForm a, DMatrixRMaj q) {
        int n = a.getDimension();
        if (q.numRows != n || q.numCols != n) {
            throw MflbException.invalid("q", q.numRows + "x" + q.numCols, "a " + n + "x" + n + " matrix");
        }
        double[] rhs = new double[n * n];
        boolean symmetric = true;
        for (int i = 0; i < n * n; i++) {
            rhs[i] = -q.data[i];
        }
        for (int i = 0; i < n && symmetric; i++) {
            for (int j = i + 1; j < n; j++) {
                if (q.data[i * n + j] != q.data[j * n + i]) {
                    symmetric = false;
                    break;
                }
            }
        }
        double[] w = solveKroneckerSum(new RealSchurForm[] {a, a}, rhs);
        if (symmetric) {
            // The exact solution is symmetric; averaging removes the rounding asymmetry.
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    double s = 0.5 * (w[i * n + j] + w[j * n + i]);
                    w[i * n + j] = s;
                    w[j * n + i] = s;
                }
            }
        }
        return DMatrixRMaj.wrap(n, n, w);
    }

    /**
     * Solves {@code Σ_k M_k ×_k X = C} for a tensor {@code X} with one axis per Schur form.
     * Tensors are flat row-major arrays: the last axis varies fastest.
     *
     * @param axes Schur forms of {@code M_1, …, M_p}, {@code p ≥ 1}
     * @param c right-hand side, length {@code Π n_k} (not modified)
     * @return {@code X}, same layout as {@code c}
     * @throws MflbException if the length of {@code c} is wrong or the operator is singular
     */
    public static double[] solveKroneckerSum(RealSchurForm[] axes, double[] c) {
        int p = axes.length;
        if (p == 0) {
            throw MflbException.invalid("axes", 0, "at least one Schur form");
        }
        int[] dims = new int[p];
        int size = 1;
        for (int k = 0; k < p; k++) {
            dims[k] = axes[k].getDimension();
            size *= dims[k];
        }
        if (c.length != size) {
            throw MflbException.invalid("c.length", c.length, "the product of the dimensions, " + size);
        }
        checkNonSingular(axes);
        double[] y = c.clone();
        double[] work = new double[size];
        // Y = C ×_k U_kᵀ on every axis.
        for (int k = 0; k < p; k++) {
            Tensors.modeProduct(y, dims, k, axes[k].u(), dims[k], dims[k], true, work);
            double[] swap = y;
            y = work;
            work = swap;
        }
        backSubstitute(axes, dims, y);
        // X = Y ×_k U_k on every axis.
        for (int k = 0; k < p; k++) {
            Tensors.modeProduct(y, dims, k, axes[k].u(), dims[k], dims[k], false, work);
            double[] swap = y;
            y = work;
            work = swap;
        }
        return y;
    }

    /** Throws if some sum of one eigenvalue per axis is (numerically) zero. */
    private static void checkNonSingular(RealSchurForm[] axes) {
        double scale = 0;
        for (RealSchurForm s : axes) {
            scale += s.norm();
        }
        double tolerance = SINGULARITY_TOLERANCE * Math.max(scale, Double.MIN_NORMAL);
        int p = axes.length;
        int[] index = new int[p];
        double best = Double.POSITIVE_INFINITY;
        int[] worst = new int[p];
        while (true) {
            double re = 0;
            double im = 0;
            for (int k = 0; k < p; k++) {
                re += axes[k].eigenRe()[index[k]];
                im += axes[k].eigenIm()[index[k]];
            }
            double modulus2 = re * re + im * im;
            if (modulus2 < best) {
                best = modulus2;
                System.arraycopy(index, 0, worst, 0, p);
            }
            int k = p - 1;
            while (k >= 0 && ++index[k] == axes[k].getDimension()) {
                index[k] = 0;
                k--;
            }
            if (k < 0) {
                break;
            }
        }
        best = Math.sqrt(best);
        if (best <= tolerance) {
            StringBuilder sum = new StringBuilder();
            for (int k = 0; k < p; k++) {
                if (k > 0) {
                    sum.append(" + ");
                }
                double re = axes[k].eigenRe()[worst[k]];
                double im = axes[k].eigenIm()[worst[k]];
                sum.append(im == 0 ? String.format("%.3g", re) : String.format("(%.3g%+.3gi)", re, im));
            }
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "a",
                    "singular " + (p == 1 ? "matrix" : p == 2 ? "Sylvester/Lyapunov operator" : "Kronecker-sum operator")
                            + ": eigenvalue sum " + sum + " = " + String.format("%.3g", best)
                            + " is zero to " + String.format("%.1g", tolerance)
                            + " (a conservation law or a non-isolated equilibrium?)");
        }
    }

    /** Solves {@code Σ_k T_k ×_k Y = F} in place ({@code y} holds {@code F} on entry, {@code Y} on exit). */
    private static void backSubstitute(RealSchurForm[] axes, int[] dims, double[] y) {
        int p = axes.length;
        int[] stride = new int[p];
        stride[p - 1] = 1;
        for (int k = p - 2; k >= 0; k--) {
            stride[k] = stride[k + 1] * dims[k + 1];
        }
        int maxBlock = 1 << p;
        double[] small = new double[maxBlock * maxBlock];
        double[] rhs = new double[maxBlock];
        int[] global = new int[maxBlock];
        int[] local = new int[p];
        int[] lo = new int[p];
        int[] sz = new int[p];
        int[] block = new int[p];
        for (int k = 0; k < p; k++) {
            block[k] = axes[k].blockCount() - 1;
        }
        while (true) {
            int s = 1;
            for (int k = 0; k < p; k++) {
                int[] starts = axes[k].blockStart();
                lo[k] = starts[block[k]];
                sz[k] = starts[block[k] + 1] - lo[k];
                s *= sz[k];
            }
            // Right-hand side of every entry of the block: F minus the couplings to later blocks.
            java.util.Arrays.fill(local, 0);
            for (int e = 0; e < s; e++) {
                int g = 0;
                for (int k = 0; k < p; k++) {
                    g += (lo[k] + local[k]) * stride[k];
                }
                global[e] = g;
                double r = y[g];
                for (int k = 0; k < p; k++) {
                    double[] t = axes[k].t();
                    int nk = dims[k];
                    int i = lo[k] + local[k];
                    int hi = lo[k] + sz[k];
                    int row = i * nk;
                    int st = stride[k];
                    int offset = g - i * st;
                    for (int a = hi; a < nk; a++) {
                        r -= t[row + a] * y[offset + a * st];
                    }
                }
                rhs[e] = r;
                increment(local, sz);
            }
            if (s == 1) {
                double diagonal = 0;
                for (int k = 0; k < p; k++) {
                    diagonal += axes[k].t()[lo[k] * dims[k] + lo[k]];
                }
                y[global[0]] = rhs[0] / diagonal;
            } else {
                // Small dense system: Kronecker sum of the diagonal blocks.
                java.util.Arrays.fill(small, 0, s * s, 0.0);
                java.util.Arrays.fill(local, 0);
                for (int e = 0; e < s; e++) {
                    int localStride = 1;
                    for (int k = p - 1; k >= 0; k--) {
                        double[] t = axes[k].t();
                        int nk = dims[k];
                        int i = lo[k] + local[k];
                        for (int r2 = 0; r2 < sz[k]; r2++) {
                            int e2 = e + (r2 - local[k]) * localStride;
                            small[e * s + e2] += t[i * nk + lo[k] + r2];
                        }
                        localStride *= sz[k];
                    }
                    increment(local, sz);
                }
                solveSmall(small, rhs, s);
                for (int e = 0; e < s; e++) {
                    y[global[e]] = rhs[e];
                }
            }
            // Next block tuple, in decreasing lexicographic order.
            int k = p - 1;
            while (k >= 0 && block[k] == 0) {
                block[k] = axes[k].blockCount() - 1;
                k--;
            }
            if (k < 0) {
                return;
            }
            block[k]--;
        }
    }

    /** Odometer increment of a local multi-index, last axis fastest. */
    private static void increment(int[] local, int[] sz) {
        for (int k = local.length - 1; k >= 0; k--) {
            if (++local[k] < sz[k]) {
                return;
            }
            local[k] = 0;
        }
    }

    /** Gaussian elimination with partial pivoting on an {@code s×s} system; {@code b} is overwritten by the solution. */
    private static void solveSmall(double[] m, double[] b, int s) {
        double scale = 0;
        for (int i = 0; i < s * s; i++) {
            scale = Math.max(scale, Math.abs(m[i]));
        }
        for (int col = 0; col < s; col++) {
            int pivot = col;
            for (int r = col + 1; r < s; r++) {
                if (Math.abs(m[r * s + col]) > Math.abs(m[pivot * s + col])) {
                    pivot = r;
                }
            }
            if (Math.abs(m[pivot * s + col]) <= SINGULARITY_TOLERANCE * scale) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "a",
                        "singular Kronecker-sum operator: a diagonal block system has a zero pivot");
            }
            if (pivot != col) {
                for (int c = 0; c < s; c++) {
                    double tmp = m[col * s + c];
                    m[col * s + c] = m[pivot * s + c];
                    m[pivot * s + c] = tmp;
                }
                double tmp = b[col];
                b[col] = b[pivot];
                b[pivot] = tmp;
            }
            for (int r = col + 1; r < s; r++) {
                double factor = m[r * s + col] / m[col * s + col];
                if (factor != 0.0) {
                    for (int c = col; c < s; c++) {
                        m[r * s + c] -= factor * m[col * s + c];
                    }
                    b[r] -= factor * b[col];
                }
            }
        }
        for (int r = s - 1; r >= 0; r--) {
            double sum = b[r];
            for (int c = r + 1; c < s; c++) {
                sum -= m[r * s + c] * b[c];
            }
            b[r] = sum / m[r * s + r];
        }
    }
}
