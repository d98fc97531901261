package org.mflb.fluid;

/**
 * Functions of a tail vector {@code (x_1, ..., x_K)} ({@code x_i} = fraction with at least
 * {@code i} jobs; the implicit {@code x_0 = 1} is not stored).
 */
public final class TailVectors {

    private TailVectors() {
    }

    /** @return mean jobs per server, {@code Σ_{i≥1} x_i} */
    public static double mean(double[] x) {
        double sum = 0;
        for (int i = x.length - 1; i >= 0; i--) {
            sum += x[i];
        }
        return sum;
    }

    /**
     * Estimates the mass cut off beyond level {@code K}, {@code Σ_{i>K} x_i}, by continuing the tail
     * geometrically. A truncated solution is distorted near its last level (the boundary turns the
     * M/M/1 ratio {@code λ} into {@code λ/(1+λ)} there), so the ratio {@code r = x_{j+1}/x_j} is read
     * in the middle of the decaying part, {@code j = ⌊(h + K)/2⌋} with {@code h} the first level where
     * {@code x_h < 1/2} ({@code ⌊K/2⌋} when {@code x_1 < 1/2}), and continued from there: {@code x_j r^{K+1−j}/(1−r)}. This is
     * exact for geometric tails (M/M/1) and an over-estimate for tails whose ratios decrease (SQ(d),
     * Poisson); the larger of it and the same continuation from the last ratio is returned. It is
     * {@code +∞} when the tail does not decrease.
     *
     * @param x tail vector {@code (x_1, ..., x_K)}
     * @return the estimate, {@code ≥ 0}
     */
    public static double cutOffMass(double[] x) {
        int k = x.length;
        if (!(x[k - 1] > 0)) {
            return 0.0;
        }
        double fromLast = geometricTail(k >= 2 ? x[k - 2] : 1.0, x[k - 1], 1);
        // the middle of the decaying part: a tail still flat at 1 there (Poisson of mean 1000 in
        // infinite-server pools) has no ratio below 1 to continue
        int decay = 0;
        while (decay < k && x[decay] >= 0.5) {
            decay++;
        }
        int j = Math.max(1, (decay + k) / 2);
        double fromMiddle = j < k ? geometricTail(x[j - 1], x[j], k - j) : fromLast;
        return Math.max(fromLast, fromMiddle);
    }

    /** {@code Σ_{m ≥ 1} b·r^{m + skip − 1}} with {@code r = b/a}: the mass beyond {@code skip} more levels past {@code b}. */
    private static double geometricTail(double a, double b, int skip) {
        if (!(b > 0)) {
            return 0.0;
        }
        if (!(a > b)) {
            return Double.POSITIVE_INFINITY;
        }
        double r = b / a;
        return b * Math.pow(r, skip) / (1 - r);
    }

    /**
     * Projects {@code x} onto the tail vectors {@code 1 ≥ x_1 ≥ … ≥ x_K ≥ 0}: each entry clamped to
     * {@code [0, x_{i−1}]} (NaN entries are left for the caller to detect).
     *
     * @param x tail vector {@code (x_1, ..., x_K)} (modified in place)
     * @return whether an entry changed
     */
    public static boolean project(double[] x) {
        boolean changed = false;
        double previous = 1.0;
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            double clamped = v > previous ? previous : v < 0 ? 0.0 : v;
            if (clamped != v && !Double.isNaN(v)) {
                x[i] = clamped;
                changed = true;
            }
            previous = x[i];
        }
        return changed;
    }

    /** @return {@code (1, x_1, ..., x_K)}: the tail with {@code x_0 = 1} prepended, as published */
    public static double[] withLevelZero(double[] x) {
        double[] tail = new double[x.length + 1];
        tail[0] = 1.0;
        System.arraycopy(x, 0, tail, 1, x.length);
        return tail;
    }

    /** @return {@code x} cut or zero-padded to {@code levels} levels */
    public static double[] resize(double[] x, int levels) {
        double[] y = new double[levels];
        System.arraycopy(x, 0, y, 0, Math.min(levels, x.length));
        return y;
    }

    /**
     * Extends {@code x} to {@code levels} levels, continuing a decreasing tail geometrically (a
     * warm start for a larger truncation).
     */
    public static double[] extend(double[] x, int levels) {
        double[] y = resize(x, levels);
        int k = x.length;
        double previous = k >= 2 ? x[k - 2] : 1.0;
        double r = previous > 0 && x[k - 1] < previous ? x[k - 1] / previous : 0.5;
        for (int i = k; i < levels; i++) {
            y[i] = y[i - 1] * r;
        }
        return y;
    }
}
