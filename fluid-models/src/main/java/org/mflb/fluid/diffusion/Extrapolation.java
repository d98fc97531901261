package org.mflb.fluid.diffusion;

/**
 * Polynomial extrapolation to {@code h = 0} (Richardson–Neville) of values computed at steps
 * {@code h_0 > h_1 > ...}, assuming an error expansion {@code c₁h + c₂h² + ...}. The last entry of
 * the tableau's bottom row is the estimate; its distance to the entry before is the error estimate.
 */
final class Extrapolation {

    private Extrapolation() {
    }

    /**
     * @param h the steps
     * @param values {@code values[i]} computed at {@code h[i]} (vectors of one length)
     * @return {@code {estimate, error estimate}} per component; the error estimate is +∞ with one value
     */
    static double[][] toZero(double[] h, double[][] values) {
        int n = h.length;
        int dim = values[0].length;
        double[] estimate = new double[dim];
        double[] error = new double[dim];
        for (int c = 0; c < dim; c++) {
            double[] p = new double[n];
            for (int i = 0; i < n; i++) {
                p[i] = values[i][c];
            }
            double previous = Double.NaN;
            // after pass k, p[i] holds the extrapolation through points i..i+k
            for (int k = 1; k < n; k++) {
                previous = p[n - 1 - k + 1];
                for (int i = 0; i + k < n; i++) {
                    p[i] = (h[i] * p[i + 1] - h[i + k] * p[i]) / (h[i] - h[i + k]);
                }
            }
            estimate[c] = p[0];
            // previous: the extrapolation through the last n−1 points
            error[c] = n > 1 ? Math.abs(p[0] - previous) : Double.POSITIVE_INFINITY;
        }
        return new double[][] {estimate, error};
    }
}
