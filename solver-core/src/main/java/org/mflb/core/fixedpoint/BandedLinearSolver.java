package org.mflb.core.fixedpoint;

/**
 * Gaussian elimination with partial pivoting for a banded matrix (LAPACK {@code dgbsv} layout
 * idea): {@code O(n·b²)} instead of {@code O(n³)}. Used by the fixed-point iteration for long
 * truncations (thousands of levels) where the Jacobian of a tail-vector drift is tridiagonal.
 * Row interchanges widen the upper band by at most the lower bandwidth, which the storage allows.
 */
final class BandedLinearSolver {

    private final int n;
    private final int lower;
    private final int upper;
    /** Row i holds columns i − lower .. i + lower + upper at offsets 0 .. 2·lower + upper. */
    private final double[][] rows;
    private final int width;

    BandedLinearSolver(int n, int lower, int upper) {
        this.n = n;
        this.lower = lower;
        this.upper = upper;
        this.width = 2 * lower + upper + 1;
        this.rows = new double[n][width];
    }

    /**
     * Solves {@code (diagonalShift·I − jacobian)·s = rhs} where only the band of {@code jacobian}
     * is read.
     *
     * @param jacobian the band of the Jacobian, {@code jacobian[i][j − i + lower] = J_ij} (not modified)
     * @param diagonalShift added to the diagonal of {@code −jacobian}
     * @param rhs right-hand side (not modified)
     * @return the solution, or {@code null} if the matrix is singular to working precision
     */
    double[] solveShifted(double[][] jacobian, double diagonalShift, double[] rhs) {
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(rows[i], 0.0);
            int from = Math.max(0, i - lower);
            int to = Math.min(n - 1, i + upper);
            for (int j = from; j <= to; j++) {
                rows[i][j - i + lower] = -jacobian[i][j - i + lower];
            }
            rows[i][lower] += diagonalShift;
        }
        double[] b = rhs.clone();
        // Forward elimination with partial pivoting; row i's entry for column j sits at j − i + lower.
        for (int k = 0; k < n; k++) {
            int last = Math.min(n - 1, k + lower);
            int pivot = k;
            double best = Math.abs(rows[k][lower]);
            for (int i = k + 1; i <= last; i++) {
                double v = Math.abs(rows[i][k - i + lower]);
                if (v > best) {
                    best = v;
                    pivot = i;
                }
            }
            if (best == 0.0 || !Double.isFinite(best)) {
                return null;
            }
            int lastCol = Math.min(n - 1, k + lower + upper);
            if (pivot != k) {
                for (int j = k; j <= lastCol; j++) {
                    double tmp = rows[k][j - k + lower];
                    rows[k][j - k + lower] = rows[pivot][j - pivot + lower];
                    rows[pivot][j - pivot + lower] = tmp;
                }
                double tmp = b[k];
                b[k] = b[pivot];
                b[pivot] = tmp;
            }
            double diag = rows[k][lower];
            for (int i = k + 1; i <= last; i++) {
                double factor = rows[i][k - i + lower] / diag;
                if (factor == 0.0) {
                    continue;
                }
                rows[i][k - i + lower] = 0.0;
                for (int j = k + 1; j <= lastCol; j++) {
                    rows[i][j - i + lower] -= factor * rows[k][j - k + lower];
                }
                b[i] -= factor * b[k];
            }
        }
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double sum = b[i];
            int lastCol = Math.min(n - 1, i + lower + upper);
            for (int j = i + 1; j <= lastCol; j++) {
                sum -= rows[i][j - i + lower] * x[j];
            }
            x[i] = sum / rows[i][lower];
        }
        return x;
    }
}
