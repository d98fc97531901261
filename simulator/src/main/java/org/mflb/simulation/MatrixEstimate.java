package org.mflb.simulation;

/**
 * A symmetric matrix of estimates with the half-widths of their 95% confidence intervals, e.g. the
 * stationary covariance {@code N·Cov(X_i, X_j)} of the tail coordinates {@code 1 ≤ i, j ≤ K}
 * (index 0 is coordinate 1). Immutable: accessors return copies.
 */
public final class MatrixEstimate {

    private final double[][] mean;
    private final double[][] halfWidth;
    private final int samples;

    /**
     * @param mean point estimates (copied)
     * @param halfWidth half-widths of the 95% intervals (copied)
     * @param samples number of observations behind each interval
     */
    public MatrixEstimate(double[][] mean, double[][] halfWidth, int samples) {
        this.mean = copy(mean);
        this.halfWidth = copy(halfWidth);
        this.samples = samples;
    }

    private static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }

    /** @return the dimension K */
    public int dimension() {
        return mean.length;
    }

    /** @return the point estimates */
    public double[][] mean() {
        return copy(mean);
    }

    /** @return the half-widths of the 95% intervals */
    public double[][] halfWidth() {
        return copy(halfWidth);
    }

    /** @return entry (i, j), 0-based (coordinate i+1, j+1), with its interval */
    public Estimate get(int i, int j) {
        return new Estimate(mean[i][j], mean[i][j] - halfWidth[i][j], mean[i][j] + halfWidth[i][j], samples);
    }

    /** @return the number of observations behind each interval */
    public int samples() {
        return samples;
    }
}
