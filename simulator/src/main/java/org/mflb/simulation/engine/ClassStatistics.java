package org.mflb.simulation.engine;

import org.mflb.simulation.state.ServerClassLayout;

/**
 * Per-class measurements over a unit of observation {@code [a, b]} for servers of different speeds
 * (docs/models.md §10): the arrivals each class received, whose rate {@code λ_k} per class-k server
 * gives, with the mean queue length {@code Q̄_k} of the class (from the per-class integrals of
 * {@link TailIntegrals}), its mean response time {@code Q̄_k/λ_k} by Little's law per class. Also the
 * rates of the classes' exponential services ({@code μ s_k}), from which the engines draw which class
 * completes a job.
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

    /** A job joined a server of class {@code c}. */
    void arrival(int c) {
        arrivals[c]++;
    }

    /** Starts a unit {@code [a, b]}. */
    void startUnit(double a, double b) {
        start = a;
        end = b;
        java.util.Arrays.fill(arrivals, 0);
    }

    /** @return the arrivals per class-k server and unit time over the unit */
    double[] arrivalRates() {
        double[] r = new double[arrivals.length];
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
        final double[] rt = rate;
        // the usual few classes in straight lines: the JIT gives a loop of 2 to 4 turns the shape of a
        // long one (entry checks, pre- and post-loops), which cost 2–3% of the events/s with 3 classes;
        // the same sums in the same order as the loop, so the same numbers
        switch (lower.length) {
            case 2: {
                lower[0] = offset;
                double r = rt[0] * busy[0];
                lower[1] = offset + r;
                return r + rt[1] * busy[1];
            }
            case 3: {
                lower[0] = offset;
                double r = rt[0] * busy[0];
                lower[1] = offset + r;
                r += rt[1] * busy[1];
                lower[2] = offset + r;
                return r + rt[2] * busy[2];
            }
            case 4: {
                lower[0] = offset;
                double r = rt[0] * busy[0];
                lower[1] = offset + r;
                r += rt[1] * busy[1];
                lower[2] = offset + r;
                r += rt[2] * busy[2];
                lower[3] = offset + r;
                return r + rt[3] * busy[3];
            }
            default: {
                double r = 0;
                for (int c = 0; c < lower.length; c++) {
                    lower[c] = offset + r;
                    r += rt[c] * busy[c];
                }
                return r;
            }
        }
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
        // (straight lines for 2 to 4 classes, as in busyRate)
        final double[] lower = lowerEdge;
        int k;
        switch (lower.length) {
            case 1:
                k = 0;
                break;
            case 2:
                k = atOrAbove(u, lower[1]);
                break;
            case 3:
                k = atOrAbove(u, lower[1]) + atOrAbove(u, lower[2]);
                break;
            case 4:
                k = atOrAbove(u, lower[1]) + atOrAbove(u, lower[2]) + atOrAbove(u, lower[3]);
                break;
            default:
                k = 0;
                for (int c = 1; c < lower.length; c++) {
                    k += atOrAbove(u, lower[c]);
                }
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

    /** @return 1 when {@code u ≥ e}, else 0, without a branch: the sign bit of {@code u − e} (never −0) */
    private static int atOrAbove(double u, double e) {
        return 1 ^ (int) (Double.doubleToRawLongBits(u - e) >>> 63);
    }
}
