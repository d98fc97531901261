package org.mflb.simulation;

/**
 * A vector of estimates with 95% confidence intervals, e.g. the tail vector {@code x_0, x_1, ...}.
 * Immutable: accessors return copies.
 */
public final class VectorEstimate {

    private final double[] mean;
    private final double[] low;
    private final double[] high;
    private final int samples;

    /**
     * @param mean point estimates (copied)
     * @param low lower ends of the 95% intervals (copied)
     * @param high upper ends of the 95% intervals (copied)
     * @param samples number of observations behind each interval
     */
    public VectorEstimate(double[] mean, double[] low, double[] high, int samples) {
        if (mean.length != low.length || mean.length != high.length) {
            throw new IllegalArgumentException("lengths differ");
        }
        this.mean = mean.clone();
        this.low = low.clone();
        this.high = high.clone();
        this.samples = samples;
    }

    /** @return the number of coordinates */
    public int size() {
        return mean.length;
    }

    /** @return the point estimates */
    public double[] mean() {
        return mean.clone();
    }

    /** @return the lower ends of the 95% intervals */
    public double[] ci95Low() {
        return low.clone();
    }

    /** @return the upper ends of the 95% intervals */
    public double[] ci95High() {
        return high.clone();
    }

    /** @return coordinate {@code i} as an estimate (0 with a zero-width interval beyond the last coordinate) */
    public Estimate get(int i) {
        if (i >= mean.length) {
            return new Estimate(0, 0, 0, samples);
        }
        return new Estimate(mean[i], low[i], high[i], samples);
    }

    /** @return this vector of fractions with every interval cut to {@code [0, 1]} ({@link Estimate#asFraction()}) */
    public VectorEstimate asFractions() {
        double[] lo = new double[low.length];
        double[] hi = new double[high.length];
        for (int i = 0; i < lo.length; i++) {
            lo[i] = Math.max(0.0, low[i]);
            hi[i] = Math.min(1.0, high[i]);
        }
        return new VectorEstimate(mean, lo, hi, samples);
    }

    /** @return the number of observations behind each interval */
    public int samples() {
        return samples;
    }
}
