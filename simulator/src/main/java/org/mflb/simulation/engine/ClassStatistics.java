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
    private final long[] arrivals;
    private final double[] area;
    /** {@code e_c = o + Σ_{j < c} μ s_j busy_j}, as of the last {@link #busyRate}. */
    private final double[] lowerEdge;
    private double start;
    private double end;

    /**
     * @param layout the classes
     * @param mu the service rate of a server of speed 1 (exponential service; 1 otherwise)
     */
    ClassStatistics(ServerClassLayout layout, double mu) {
        this.layout = layout;
        int k = layout.count();
        rate = new double[k];
        inverseRate = new double[k];
        slowness = new double[k];
        arrivals = new long[k];
        area = new double[k];
        lowerEdge = new double[k];
        for (int c = 0; c < k; c++) {
            rate[c] = mu * layout.speed(c);
            inverseRate[c] = 1 / rate[c];
            slowness[c] = 1 / layout.speed(c);
        }
    }

    /** @return the number of classes */
    int count() {
        return rate.length;
    }

    /** A job joined a server of class {@code c} at time {@code t}. */
    void arrival(int c, double t) {
        arrivals[c]++;
        area[c] += end - t;
    }

    /** A job left a server of class {@code c} at time {@code t}. */
    void departure(int c, double t) {
        area[c] -= end - t;
    }

    /**
     * Starts a unit {@code [a, b]}.
     *
     * @param jobs the jobs held by each class's servers at time a (the engine counts them then, rather
     *        than this class at every event)
     */
    void startUnit(double a, double b, long[] jobs) {
        start = a;
        end = b;
        for (int c = 0; c < jobs.length; c++) {
            area[c] = jobs[c] * (b - a);
            arrivals[c] = 0;
        }
    }

    /** @return the time-averaged jobs per class-k server over the unit */
    double[] meanQueueLengths() {
        double[] q = new double[area.length];
        for (int c = 0; c < q.length; c++) {
            q[c] = area[c] / (layout.size(c) * (end - start));
        }
        return q;
    }

    /** @return the arrivals per class-k server and unit time over the unit */
    double[] arrivalRates() {
        double[] r = new double[area.length];
        for (int c = 0; c < r.length; c++) {
            r[c] = arrivals[c] / (layout.size(c) * (end - start));
        }
        return r;
    }

    /**
     * The total rate of service completions {@code R = Σ_k μ s_k·busy_k}, and the edges of the classes'
     * parts of {@code [o, o + R)} that {@link #departure} reads: call it whenever a class's busy count
     * changes (the engines do, when a server becomes busy or idle) or the offset does, before the next
     * {@link #departure}.
     *
     * @param busy {@code busy[k]}: the busy servers of class k
     * @param offset {@code o}: where the departures' part of the engine's uniform starts (the arrival
     *        bound, in the engines)
     * @return {@code Σ_k μ s_k·busy_k}
     */
    double busyRate(int[] busy, double offset) {
        final double[] lower = lowerEdge;
        double r = 0;
        for (int c = 0; c < busy.length; c++) {
            lower[c] = offset + r;
            r += rate[c] * busy[c];
        }
        return r;
    }

    /**
     * The class of the next service completion: {@code u} uniform in {@code [o, o + R)} (see
     * {@link #busyRate}) falls in class k with probability {@code μ s_k busy_k/R}, and the index of the
     * completing server among the class's busy ones is then {@code ⌊(u − e_k)/(μ s_k)⌋} for the lower
     * edge {@code e_k = o + Σ_{j<k} μ s_j busy_j} of the class's part (uniform). The engines pass their
     * own uniform u as it is, without subtracting the arrival bound: the class is found by comparisons
     * with edges computed when the busy counts last changed, so that it is known as soon as u is.
     *
     * @param busy {@code busy[k]}: the busy servers of class k (at least one in all), as last given to
     *        {@link #busyRate}
     * @param u uniform in {@code [o, o + busyRate(busy, o))}
     * @return {@code k·2^32 + i}: the class k and the index i of the busy server in it
     */
    long departure(int[] busy, double u) {
        // k = #{1 ≤ c < K : u ≥ e_c}: counted without branches (which class completes a job is random,
        // so a loop that stops at it mispredicts about once a departure), each term the sign of u − e_c
        // (never −0: u − e_c = 0 gives +0); the comparisons are independent, so none waits for another.
        // A class without busy servers has e_{c+1} = e_c and is never counted into, except the last one
        // when u rounds up to the total.
        final double[] lower = lowerEdge;
        int k = 0;
        for (int c = 1; c < lower.length; c++) {
            k += 1 ^ (int) (Double.doubleToRawLongBits(u - lower[c]) >>> 63);
        }
        while (busy[k] == 0) {
            k--;
        }
        int i = (int) ((u - lower[k]) * inverseRate[k]);
        if (i >= busy[k]) {
            i = busy[k] - 1;
        }
        return ((long) k << 32) | i;
    }
}
