package org.mflb.simulation.engine;

import java.util.Arrays;

import org.mflb.simulation.state.Occupancy;

/**
 * Exact time integrals of the tail counts {@code c_i(t) = N·x_i(t)} over a unit of observation,
 * and optionally of the products {@code c_i(t)·c_j(t)}, i, j ≤ K. The integrals are updated lazily:
 * an event changes exactly one count {@code c_m}, and just before it does the engine calls
 * {@link #beforeChange}, which adds {@code c_m·(t − last_m)} to the integral of level m (O(1)) and,
 * when products are kept, {@code c_m c_j·(t − last_mj)} for the K pairs containing m (O(K)).
 * Every integral is therefore exact for the piecewise-constant path. A unit reports the time
 * averages
 * <pre>
 *   x̄_i = ∫ c_i dt / (N T),      M̄_ij = ∫ c_i c_j dt / (N² T),
 * </pre>
 * from which the simulator forms the covariance {@code N·(M̄_ij − x̄_i x̄_j)} with the means of the
 * whole run (subtracting each unit's own mean would bias it by the unit mean's variance).
 */
final class TailIntegrals {

    private final Occupancy occ;
    private final double n;
    private final int covK;
    private double[] area;
    private double[] last;
    /** Pair integrals for 1 ≤ i ≤ j ≤ K at index (i−1)·K + (j−1). */
    private final double[] pairArea;
    private final double[] pairLast;
    private double start;

    TailIntegrals(Occupancy occ, int covarianceLevels) {
        this.occ = occ;
        this.n = occ.servers();
        this.covK = covarianceLevels;
        int len = Math.max(64, occ.highestLevel() + 2);
        area = new double[len];
        last = new double[len];
        pairArea = new double[covK * covK];
        pairLast = new double[covK * covK];
    }

    /** Brings the integral of level {@code level} up to {@code t}; call before {@code c_level} changes. */
    void beforeChange(int level, double t) {
        if (level >= area.length) {
            grow(level);
        }
        int c = occ.countAtLeast(level);
        area[level] += c * (t - last[level]);
        last[level] = t;
        if (level <= covK) {
            pairsBeforeChange(level, c, t);
        }
    }

    private void pairsBeforeChange(int m, int cm, double t) {
        int k = covK;
        for (int j = 1; j <= k; j++) {
            int idx = m <= j ? (m - 1) * k + (j - 1) : (j - 1) * k + (m - 1);
            pairArea[idx] += (double) cm * occ.countAtLeast(j) * (t - pairLast[idx]);
            pairLast[idx] = t;
        }
    }

    private void grow(int level) {
        int old = area.length;
        int len = Math.max(old * 2, level + 2);
        area = Arrays.copyOf(area, len);
        last = Arrays.copyOf(last, len);
        // counts of the new levels were 0 so far: nothing to integrate before now
        Arrays.fill(last, old, len, start);
    }

    /** Starts a unit at {@code t}: all integrals restart from 0. */
    void startUnit(double t) {
        start = t;
        Arrays.fill(area, 0);
        Arrays.fill(last, t);
        Arrays.fill(pairArea, 0);
        Arrays.fill(pairLast, t);
    }

    /**
     * Ends the unit at {@code t}.
     *
     * @return the time-averaged tail vector {@code x̄_0..x̄_H} (H = highest level reached so far)
     */
    double[] endUnitTail(double t) {
        int h = occ.highestLevel();
        if (h + 1 >= area.length) {
            grow(h + 1);
        }
        double span = t - start;
        double[] x = new double[h + 1];
        x[0] = 1;
        for (int i = 1; i <= h; i++) {
            area[i] += occ.countAtLeast(i) * (t - last[i]);
            last[i] = t;
            x[i] = area[i] / (n * span);
        }
        return x;
    }

    /**
     * Ends the unit at {@code t} for the products; call after {@link #endUnitTail}.
     *
     * @return {@code M̄_ij} for 1 ≤ i, j ≤ K, row-major K×K, or {@code null} when K = 0
     */
    double[] endUnitProducts(double t) {
        if (covK == 0) {
            return null;
        }
        double span = t - start;
        double[] m = new double[covK * covK];
        for (int i = 1; i <= covK; i++) {
            for (int j = i; j <= covK; j++) {
                int idx = (i - 1) * covK + (j - 1);
                pairArea[idx] += (double) occ.countAtLeast(i) * occ.countAtLeast(j) * (t - pairLast[idx]);
                pairLast[idx] = t;
                double v = pairArea[idx] / (n * n * span);
                m[idx] = v;
                m[(j - 1) * covK + (i - 1)] = v;
            }
        }
        return m;
    }
}
