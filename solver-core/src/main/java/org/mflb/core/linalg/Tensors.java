package org.mflb.core.linalg;

import java.util.Arrays;

/**
 * Dense tensors stored flat, row-major (last axis fastest), and their mode products
 * <pre>
 *   (M ×_k X)[i_1, …, i_k, …, i_p] = Σ_a M[i_k, a] X[i_1, …, a, …, i_p].
 * </pre>
 * Used by the Kronecker-sum solver (change of basis to Schur coordinates) and by the size
 * expansions (projection on the subspace spanned by the jumps).
 */
public final class Tensors {

    private Tensors() {
    }

    /** @return the number of entries {@code Π dims[k]} */
    public static int size(int[] dims) {
        int s = 1;
        for (int d : dims) {
            s *= d;
        }
        return s;
    }

    /**
     * Mode-{@code k} product with a (possibly rectangular) matrix: {@code out = M ×_k in}, or
     * {@code Mᵀ ×_k in} when {@code transpose}. The operator maps axis {@code k} from length
     * {@code dims[k]} to length {@code rows} (or {@code cols} when transposed).
     *
     * @param in tensor of shape {@code dims} (not modified)
     * @param dims shape of {@code in} (not modified)
     * @param axis {@code k}
     * @param m matrix, {@code rows×cols} row-major (not modified)
     * @param rows rows of {@code M}
     * @param cols columns of {@code M}; must equal {@code dims[k]} unless transposed
     * @param transpose whether to apply {@code Mᵀ}: then {@code rows} must equal {@code dims[k]}
     * @param out result, length {@code size(dims)/dims[k]·(transpose ? cols : rows)} (modified)
     */
    public static void modeProduct(double[] in, int[] dims, int axis, double[] m, int rows, int cols,
                                   boolean transpose, double[] out) {
        int nIn = dims[axis];
        int nOut = transpose ? cols : rows;
        if ((transpose ? rows : cols) != nIn) {
            throw new IllegalArgumentException("matrix does not match axis " + axis + " of length " + nIn);
        }
        int inner = 1;
        for (int j = axis + 1; j < dims.length; j++) {
            inner *= dims[j];
        }
        int outer = in.length / (nIn * inner);
        Arrays.fill(out, 0, outer * nOut * inner, 0.0);
        if (inner == 1) {
            // Last axis: keep the innermost loop contiguous in both the matrix and the output.
            for (int o = 0; o < outer; o++) {
                int inBase = o * nIn;
                int outBase = o * nOut;
                if (transpose) {
                    for (int a = 0; a < nIn; a++) {
                        double value = in[inBase + a];
                        if (value == 0.0) {
                            continue;
                        }
                        int row = a * cols;
                        for (int i = 0; i < nOut; i++) {
                            out[outBase + i] += m[row + i] * value;
                        }
                    }
                } else {
                    for (int i = 0; i < nOut; i++) {
                        int row = i * cols;
                        double sum = 0;
                        for (int a = 0; a < nIn; a++) {
                            sum += m[row + a] * in[inBase + a];
                        }
                        out[outBase + i] = sum;
                    }
                }
            }
            return;
        }
        for (int o = 0; o < outer; o++) {
            int inBase = o * nIn * inner;
            int outBase = o * nOut * inner;
            for (int i = 0; i < nOut; i++) {
                int outRow = outBase + i * inner;
                for (int a = 0; a < nIn; a++) {
                    double coefficient = transpose ? m[a * cols + i] : m[i * cols + a];
                    if (coefficient == 0.0) {
                        continue;
                    }
                    int inRow = inBase + a * inner;
                    for (int q = 0; q < inner; q++) {
                        out[outRow + q] += coefficient * in[inRow + q];
                    }
                }
            }
        }
    }

    /**
     * Applies the same matrix on every axis: {@code out = X ×_1 M ×_2 M … ×_p M} (or with
     * {@code Mᵀ}). Every axis of {@code in} has length {@code dims}.
     *
     * @param in tensor with {@code p} axes of equal length (not modified)
     * @param p number of axes
     * @param m {@code rows×cols} row-major (not modified)
     * @param rows rows of {@code M}
     * @param cols columns of {@code M}
     * @param transpose whether to apply {@code Mᵀ}
     * @return the transformed tensor, each axis of length {@code transpose ? cols : rows}
     */
    public static double[] multilinear(double[] in, int p, double[] m, int rows, int cols, boolean transpose) {
        int nIn = transpose ? rows : cols;
        int nOut = transpose ? cols : rows;
        int[] dims = new int[p];
        Arrays.fill(dims, nIn);
        double[] current = in;
        for (int k = 0; k < p; k++) {
            double[] next = new double[size(dims) / nIn * nOut];
            modeProduct(current, dims, k, m, rows, cols, transpose, next);
            dims[k] = nOut;
            current = next;
        }
        return current;
    }
}
