package org.mflb.simulation.engine;

import java.util.Arrays;

import org.mflb.simulation.state.LevelCounts;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * Exact time integrals of the tail counts {@code c_i(t) = N·x_i(t)} over a unit of observation
 * {@code [a, b]}, and optionally of the products {@code c_i(t)·c_j(t)}, i, j ≤ K. An event changes
 * exactly one count by ±1, so with the end {@code b} of the unit known in advance
 * <pre>
 *   ∫_a^b c_i dt = c_i(a)·(b − a) + Σ_{changes of c_i at t} (±1)·(b − t),
 * </pre>
 * one addition per event, without reading the count or remembering when it last changed. The
 * products are integrated lazily: just before {@code c_m} changes, {@code c_m c_j·(t − last_mj)} is
 * added for the K pairs containing m (O(K), only when covariances are requested). Every integral is
 * exact for the piecewise-constant path. A unit reports the time averages
 * <pre>
 *   x̄_i = ∫ c_i dt / (N T),      M̄_ij = ∫ c_i c_j dt / (N² T),
 * </pre>
 * from which the simulator forms the covariance {@code N·(M̄_ij − x̄_i x̄_j)} with the means of the
 * whole run (subtracting each unit's own mean would bias it by the unit mean's variance).
 *
 * <p>Servers in K classes (docs/models.md §10): the integrals are kept per class, of the class counts
 * {@code c_{k,i}} (servers of class k with at least i jobs), in the same one addition per event, and
 * summed over the classes at the end of a unit. The mean number of jobs of a class-k server follows
 * without any work of its own during the events: {@code Q̄_k = Σ_{i≥1} ∫ c_{k,i} dt / (N_k T)}.
 */
final class TailIntegrals {

    private final LevelCounts occ;
    private final double n;
    private final int covK;
    /** The number K of server classes the integrals are split by (1: servers of one speed). */
    private final int classCount;
    /**
     * {@code c_{k,i}(a)·(b − a) + Σ ±(b − t)} so far at index {@code i·K + k} (level-major, so that a new
     * level extends the array at its end; with one class, index i).
     */
    private double[] area;
    /** Pair integrals for 1 ≤ i ≤ j ≤ K at index (i−1)·K + (j−1). */
    private final double[] pairArea;
    private final double[] pairLast;
    private double start;
    private double end;

    /**
     * @param occ the counts {@code c_i} of all servers
     * @param covarianceLevels K of the products {@code c_i c_j}, i, j ≤ K (0: none)
     * @param classCount the number of server classes (1: servers of one speed)
     */
    TailIntegrals(LevelCounts occ, int covarianceLevels, int classCount) {
        this.occ = occ;
        this.n = occ.servers();
        this.covK = covarianceLevels;
        this.classCount = classCount;
        area = new double[Math.max(64, occ.highestLevel() + 2) * classCount];
        pairArea = new double[covK * covK];
        pairLast = new double[covK * covK];
    }

    /** {@code c_level} is about to go up by one at time {@code t} (servers of one speed). */
    void beforeUp(int level, double t) {
        if (level >= area.length) {
            grow(level);
        }
        area[level] += end - t;
        if (level <= covK) {
            pairsBeforeChange(level, t);
        }
    }

    /** {@code c_level} is about to go down by one at time {@code t} (servers of one speed). */
    void beforeDown(int level, double t) {
        area[level] -= end - t;
        if (level <= covK) {
            pairsBeforeChange(level, t);
        }
    }

    /** {@code c_{k,level}}, and with it {@code c_level}, is about to go up by one at time {@code t}. */
    void beforeUpInClass(int level, int k, double t) {
        final int at = level * classCount + k;
        if (at >= area.length) {
            grow(level);
        }
        area[at] += end - t;
        if (level <= covK) {
            pairsBeforeChange(level, t);
        }
    }

    /** {@code c_{k,level}}, and with it {@code c_level}, is about to go down by one at time {@code t}. */
    void beforeDownInClass(int level, int k, double t) {
        area[level * classCount + k] -= end - t;
        if (level <= covK) {
            pairsBeforeChange(level, t);
        }
    }

    private void pairsBeforeChange(int m, double t) {
        int k = covK;
        double cm = occ.countAtLeast(m);
        for (int j = 1; j <= k; j++) {
            int idx = m <= j ? (m - 1) * k + (j - 1) : (j - 1) * k + (m - 1);
            pairArea[idx] += cm * occ.countAtLeast(j) * (t - pairLast[idx]);
            pairLast[idx] = t;
        }
    }

    /** Makes room for the integrals of every class up to {@code level + 1}. */
    private void grow(int level) {
        // levels never reached so far have count 0: their integrals start at 0
        area = Arrays.copyOf(area, Math.max(area.length * 2, (level + 2) * classCount));
    }

    /** Starts a unit {@code [a, b]} of servers of one speed; all integrals restart. */
    void startUnit(double a, double b) {
        int h = restart(a, b);
        for (int i = 1; i <= h; i++) {
            area[i] = occ.countAtLeast(i) * (b - a);
        }
    }

    /**
     * Starts a unit {@code [a, b]} of servers in classes; all integrals restart.
     *
     * @param classCounts {@code c_{k,i}(a)} at index {@code i·K + k} for {@code 1 ≤ i ≤} the highest level
     *        (shorter: zero beyond), as the engine counts them when the unit starts
     */
    void startUnit(double a, double b, int[] classCounts) {
        restart(a, b);
        if (classCounts.length > area.length) {
            area = Arrays.copyOf(area, classCounts.length);
        }
        for (int at = classCount; at < classCounts.length; at++) {
            area[at] = classCounts[at] * (b - a);
        }
    }

    /** @return the highest level so far, with room for it and every integral at 0 */
    private int restart(double a, double b) {
        start = a;
        end = b;
        int h = occ.highestLevel();
        if ((h + 2) * classCount > area.length) {
            grow(h + 1);
        }
        Arrays.fill(area, 0);
        Arrays.fill(pairArea, 0);
        Arrays.fill(pairLast, a);
        return h;
    }

    /**
     * Ends the unit (at its end {@code b}).
     *
     * @return the time-averaged tail vector {@code x̄_0..x̄_H} (H = highest level reached so far)
     */
    double[] endUnitTail() {
        int h = occ.highestLevel();
        if ((h + 2) * classCount > area.length) {
            grow(h + 1);
        }
        double span = end - start;
        double[] x = new double[h + 1];
        x[0] = 1;
        for (int i = 1; i <= h; i++) {
            double sum = area[i * classCount];
            for (int k = 1; k < classCount; k++) {
                sum += area[i * classCount + k];
            }
            x[i] = sum / (n * span);
        }
        return x;
    }

    /**
     * Ends the unit for the classes (at its end {@code b}).
     *
     * @param layout the classes, of {@code N_k} servers each
     * @return {@code Q̄_k = Σ_{i≥1} ∫ c_{k,i} dt / (N_k T)}: the time-averaged jobs of a class-k server
     */
    double[] endUnitClassMeanJobs(ServerClassLayout layout) {
        int levels = area.length / classCount;
        double span = end - start;
        double[] q = new double[classCount];
        for (int k = 0; k < classCount; k++) {
            double sum = 0;
            for (int i = 1; i < levels; i++) {
                sum += area[i * classCount + k];
            }
            q[k] = sum / (layout.size(k) * span);
        }
        return q;
    }

    /**
     * Ends the unit for the products; call after {@link #endUnitTail}.
     *
     * @return {@code M̄_ij} for 1 ≤ i, j ≤ K, row-major K×K, or {@code null} when K = 0
     */
    double[] endUnitProducts() {
        if (covK == 0) {
            return null;
        }
        double span = end - start;
        double[] m = new double[covK * covK];
        for (int i = 1; i <= covK; i++) {
            for (int j = i; j <= covK; j++) {
                int idx = (i - 1) * covK + (j - 1);
                pairArea[idx] += (double) occ.countAtLeast(i) * occ.countAtLeast(j) * (end - pairLast[idx]);
                pairLast[idx] = end;
                double v = pairArea[idx] / (n * n * span);
                m[idx] = v;
                m[(j - 1) * covK + (i - 1)] = v;
            }
        }
        return m;
    }
}
