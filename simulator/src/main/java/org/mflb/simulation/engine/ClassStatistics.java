package org.mflb.simulation.engine;

import org.mflb.simulation.state.ServerClassLayout;

/**
 * Per-class measurements over a unit of observation {@code [a, b]} for servers of different speeds
 * (docs/models.md §10): the exact time integral of the jobs held by each class's servers (one addition
 * per event, as {@link TailIntegrals} does for the counts: {@code ∫ Q_k dt = Q_k(a)(b − a) +
 * Σ ±(b − t)}) and the arrivals each class received; from them the mean queue length of a class-k
 * server {@code ∫Q_k dt/(N_k T)} and, by Little's law per class, its mean response time
 * {@code Q̄_k/λ_k} with {@code λ_k} = the arrivals per class-k server and unit time. Also the rates of
 * the classes' exponential services ({@code μ s_k}), from which the engines draw which class completes
 * a job.
 */
final class ClassStatistics {

    private final ServerClassLayout layout;
    /** {@code μ·s_k}: the service rate of a class-k server (exponential service). */
    final double[] rate;
    /** {@code 1/(μ·s_k)}. */
    final double[] inverseRate;
    /** {@code 1/s_k}: the factor of a class-k server's service times (general service). */
    final double[] slowness;
    private final long[] jobs;
    private final long[] arrivals;
    private final double[] area;
    private double start;
    private double end;

    /**
     * @param layout the classes
     * @param mu the service rate of a server of speed 1 (exponential service; 1 otherwise)
     * @param initialCounts {@code c_{k,i}} of each class at time 0
     */
    ClassStatistics(ServerClassLayout layout, double mu, int[][] initialCounts) {
        this.layout = layout;
        int k = layout.count();
        rate = new double[k];
        inverseRate = new double[k];
        slowness = new double[k];
        jobs = new long[k];
        arrivals = new long[k];
        area = new double[k];
        for (int c = 0; c < k; c++) {
            rate[c] = mu * layout.speed(c);
            inverseRate[c] = 1 / rate[c];
            slowness[c] = 1 / layout.speed(c);
            for (int i = 1; i < initialCounts[c].length; i++) {
                jobs[c] += initialCounts[c][i];
            }
        }
    }

    /** @return the number of classes */
    int count() {
        return rate.length;
    }

    /** A job joined a server of class {@code c} at time {@code t}. */
    void arrival(int c, double t) {
        jobs[c]++;
        arrivals[c]++;
        area[c] += end - t;
    }

    /** A job left a server of class {@code c} at time {@code t}. */
    void departure(int c, double t) {
        jobs[c]--;
        area[c] -= end - t;
    }

    /** Starts a unit {@code [a, b]}. */
    void startUnit(double a, double b) {
        start = a;
        end = b;
        for (int c = 0; c < jobs.length; c++) {
            area[c] = jobs[c] * (b - a);
            arrivals[c] = 0;
        }
    }

    /** @return the time-averaged jobs per class-k server over the unit */
    double[] meanQueueLengths() {
        double[] q = new double[jobs.length];
        for (int c = 0; c < q.length; c++) {
            q[c] = area[c] / (layout.size(c) * (end - start));
        }
        return q;
    }

    /** @return the arrivals per class-k server and unit time over the unit */
    double[] arrivalRates() {
        double[] r = new double[jobs.length];
        for (int c = 0; c < r.length; c++) {
            r[c] = arrivals[c] / (layout.size(c) * (end - start));
        }
        return r;
    }

    /**
     * @param busy {@code busy[k]}: the busy servers of class k
     * @return the total rate of service completions, {@code Σ_k μ s_k·busy_k}
     */
    double busyRate(int[] busy) {
        double r = 0;
        for (int c = 0; c < busy.length; c++) {
            r += rate[c] * busy[c];
        }
        return r;
    }

    /**
     * The class of the next service completion: {@code v} uniform in {@code [0, busyRate)} falls in class
     * k with probability {@code μ s_k busy_k/busyRate}; the index of the completing server among the
     * class's busy ones is then {@code ⌊v_k/(μ s_k)⌋} for the remainder {@code v_k} (uniform).
     *
     * @param busy {@code busy[k]}: the busy servers of class k (at least one in all)
     * @param v uniform in {@code [0, busyRate(busy))}
     * @return {@code k·2^32 + i}: the class k and the index i of the busy server in it
     */
    long departure(int[] busy, double v) {
        int last = busy.length - 1;
        while (busy[last] == 0) {
            last--;
        }
        // the class is the first c < last with v_c < w_c (else last), for the remainders v_0 = v,
        // v_{c+1} = v_c − w_c and the weights w_c = μ s_c busy_c: found without branches (which class
        // completes a job is random, so a loop that stops at it mispredicts about once a departure),
        // with the same arithmetic as a loop that stops, hence the same numbers; the remainder v_k of
        // the class found is carried in a register (its bits selected by a mask), not stored and
        // reloaded by a computed index, which kept it on the event's critical path
        long remainderBits = Double.doubleToRawLongBits(v);
        int k = 0;
        int searching = 1;
        for (int c = 0; c < last; c++) {
            double w = rate[c] * busy[c];
            // v < w iff v − w < 0: its sign bit (v − w is never −0 here: v ≥ 0, and v = w gives +0)
            searching &= (int) (Double.doubleToRawLongBits(v - w) >>> 63) ^ 1;
            k += searching;
            v -= w;
            long keep = -(long) searching; // all ones while class c + 1 may still be the one
            remainderBits ^= (remainderBits ^ Double.doubleToRawLongBits(v)) & keep;
        }
        int i = (int) (Double.longBitsToDouble(remainderBits) * inverseRate[k]);
        if (i >= busy[k]) {
            i = busy[k] - 1;
        }
        return ((long) k << 32) | i;
    }
}
