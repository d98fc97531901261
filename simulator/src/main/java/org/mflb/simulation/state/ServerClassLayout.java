package org.mflb.simulation.state;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.mflb.core.system.ServerClasses;

/**
 * Where the server classes of a finite system sit (docs/models.md §10): class {@code k} has
 * {@code N_k = N·a_k} servers ({@link ServerClasses#sizes}), numbered {@code [start(k), end(k))}, so
 * that the class of a server is a function of its number. Also the exact comparison of the SED values
 * {@code (q+1)/s_k} in integers: the decimal speeds scaled to integers {@code S_k} with a common power
 * of ten and divided by their greatest common divisor, so that {@code (q1+1)/s_{k1} < (q2+1)/s_{k2}}
 * iff {@code (q1+1)·S_{k2} < (q2+1)·S_{k1}}, compared exactly in 128 bits — never a division.
 * Immutable.
 */
public final class ServerClassLayout {

    private final ServerClasses classes;
    private final int n;
    private final int[] size;
    /** {@code end[k]}: one past the last server of class k. */
    private final int[] end;
    /** {@code start[k] = end[k] − N_k}: the first server of class k (read in the simulators' hot loops). */
    private final int[] start;
    private final double[] speed;
    /** Integer speeds {@code S_k} (see the class comment), or null when they do not fit in 62 bits. */
    private final long[] integerSpeed;
    /** Whether every {@code S_k ≤ 2^31}, so that {@code (q+1)·S_k < 2^62} for every level q: plain long products. */
    private final boolean smallIntegerSpeeds;
    /** {@code Σ_{j ≤ k} N_j s_j}: cumulative speed of the classes, for speed-weighted sampling. */
    private final double[] cumulativeSpeed;
    /** {@code W_k = M/S_k} with {@code M = lcm(S_k)} (see {@link #delayWeights}), or null. */
    private final long[] delayWeights;

    /**
     * @param classes the classes
     * @param n number of servers
     * @throws org.mflb.core.MflbException naming {@code n} when a class would not have a whole number
     *         of servers ({@link ServerClasses#sizes})
     */
    public ServerClassLayout(ServerClasses classes, int n) {
        this.classes = classes;
        this.n = n;
        this.size = classes.sizes(n);
        int k = size.length;
        this.end = new int[k];
        this.start = new int[k];
        this.speed = classes.speeds();
        this.cumulativeSpeed = new double[k];
        int e = 0;
        double w = 0;
        for (int c = 0; c < k; c++) {
            start[c] = e;
            e += size[c];
            end[c] = e;
            w += size[c] * speed[c];
            cumulativeSpeed[c] = w;
        }
        this.integerSpeed = integerSpeeds(speed);
        boolean small = integerSpeed != null;
        for (int c = 0; small && c < k; c++) {
            small = integerSpeed[c] <= 1L << 31;
        }
        this.smallIntegerSpeeds = small;
        this.delayWeights = delayWeights(integerSpeed);
    }

    /** @return {@code M/S_k} for {@code M = lcm(S_k)}, or null when M exceeds {@code 2^31} (or the speeds have no integer form) */
    private static long[] delayWeights(long[] integerSpeed) {
        if (integerSpeed == null) {
            return null;
        }
        BigInteger m = BigInteger.ONE;
        for (long v : integerSpeed) {
            BigInteger b = BigInteger.valueOf(v);
            m = m.divide(m.gcd(b)).multiply(b);
            if (m.bitLength() > 31) {
                return null;
            }
        }
        long[] w = new long[integerSpeed.length];
        for (int c = 0; c < w.length; c++) {
            w[c] = m.longValueExact() / integerSpeed[c];
        }
        return w;
    }

    /**
     * Integer weights that turn the SED values into integers with the same order and the same ties:
     * {@code (q+1)/s_k} is proportional to {@code (q+1)·W_k} for {@code W_k = M/S_k}, the integer speeds
     * {@code S_k} (see the class comment) and their least common multiple {@code M} — so a server's
     * value can be kept as one integer and compared with one subtraction. Null when {@code M > 2^31}
     * (then {@code (q+1)·W_k} could leave a long for levels near {@code 2^31}; {@link #compareValues}
     * decides instead).
     *
     * @return a copy of the weights {@code W_k}, or null
     */
    public long[] delayWeights() {
        return delayWeights == null ? null : delayWeights.clone();
    }

    /** @return the speeds as integers {@code S_k} with the ratios of the decimal speeds, or null if too large */
    private static long[] integerSpeeds(double[] speeds) {
        int scale = 0;
        BigDecimal[] exact = new BigDecimal[speeds.length];
        for (int c = 0; c < speeds.length; c++) {
            exact[c] = BigDecimal.valueOf(speeds[c]).stripTrailingZeros();
            scale = Math.max(scale, exact[c].scale());
        }
        BigInteger[] ints = new BigInteger[speeds.length];
        BigInteger gcd = BigInteger.ZERO;
        for (int c = 0; c < speeds.length; c++) {
            ints[c] = exact[c].movePointRight(scale).toBigIntegerExact();
            gcd = gcd.gcd(ints[c]);
        }
        long[] out = new long[speeds.length];
        for (int c = 0; c < speeds.length; c++) {
            BigInteger v = ints[c].divide(gcd);
            if (v.bitLength() > 62) {
                return null;
            }
            out[c] = v.longValueExact();
        }
        return out;
    }

    /** @return the classes */
    public ServerClasses classes() {
        return classes;
    }

    /** @return the number of servers {@code N} */
    public int servers() {
        return n;
    }

    /** @return the number of classes {@code K} */
    public int count() {
        return size.length;
    }

    /** @return {@code N_k} */
    public int size(int k) {
        return size[k];
    }

    /** @return the first server of class {@code k} */
    public int start(int k) {
        return start[k];
    }

    /** @return one past the last server of class {@code k} */
    public int end(int k) {
        return end[k];
    }

    /** @return the speed {@code s_k} */
    public double speed(int k) {
        return speed[k];
    }

    /** @return the class of server {@code s ∈ [0, N)} */
    public int classOf(int s) {
        final int[] e = end;
        if (e.length <= 8) {
            // k = #{c < K − 1 : s ≥ end(c)}, without branches: the class of a sampled server is random,
            // so a loop that stops at it would mispredict about once a call (the simulators' hot spot);
            // end(c) − 1 − s < 0 iff s ≥ end(c), and no difference overflows (0 ≤ s < N, end(c) ≤ N)
            int k = 0;
            for (int c = 0; c < e.length - 1; c++) {
                k += (e[c] - 1 - s) >>> 31;
            }
            return k;
        }
        int lo = 0;
        int hi = e.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (s < e[mid]) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** @return {@code Σ_k N_k s_k}: the total speed */
    public double totalSpeed() {
        return cumulativeSpeed[cumulativeSpeed.length - 1];
    }

    /**
     * @param u uniform in {@code [0, totalSpeed())}
     * @return the class {@code k} with {@code Σ_{j<k} N_j s_j ≤ u < Σ_{j≤k} N_j s_j}: a class drawn
     *         with probability proportional to {@code N_k s_k}
     */
    public int classAtSpeed(double u) {
        final double[] w = cumulativeSpeed;
        int last = w.length - 1;
        if (w.length <= 8) {
            int k = 0;
            while (k < last && u >= w[k]) {
                k++;
            }
            return k;
        }
        int lo = 0;
        int hi = last;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (u < w[mid]) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** @return whether every class has the same speed (exact decimal comparison) */
    public boolean equalSpeeds() {
        return classes.equalSpeeds();
    }

    /**
     * The SED comparison of the dispatchers' hot loops, as a mask: whether {@code (q1+1)/s_{k1} <
     * (q2+1)/s_{k2}}, exactly, as {@link #compareValues} decides it. With integer speeds below
     * {@code 2^31} (the usual decimal speeds) the cross products fit a long and the sign of their
     * difference answers without a branch; otherwise {@link #compareValues}.
     *
     * @return −1 (all bits set) when the first value is strictly smaller, else 0
     */
    public int smallerValueMask(int k1, int q1, int k2, int q2) {
        if (smallIntegerSpeeds) {
            final long[] is = integerSpeed;
            // both products are below 2^62 (q + 1 ≤ 2^31, S ≤ 2^31): the difference does not overflow
            return (int) (((q1 + 1L) * is[k2] - (q2 + 1L) * is[k1]) >> 63);
        }
        return compareValues(k1, q1, k2, q2) >> 31;
    }

    /**
     * Compares the SED values {@code (q1+1)/s_{k1}} and {@code (q2+1)/s_{k2}} exactly (the same answer
     * as {@link ServerClasses#compareValues}, in integers).
     *
     * @return negative, zero or positive as the first value is smaller, equal or larger
     */
    public int compareValues(int k1, int q1, int k2, int q2) {
        final long[] is = integerSpeed;
        if (is == null) {
            return classes.compareValues(k1, q1, k2, q2);
        }
        // (q1+1)·S_{k2} against (q2+1)·S_{k1}: 128-bit products of non-negative numbers
        long a = q1 + 1L;
        long b = is[k2];
        long c = q2 + 1L;
        long d = is[k1];
        long hi1 = Math.multiplyHigh(a, b);
        long hi2 = Math.multiplyHigh(c, d);
        if (hi1 != hi2) {
            return hi1 < hi2 ? -1 : 1;
        }
        return Long.compareUnsigned(a * b, c * d);
    }
}
