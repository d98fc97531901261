package org.mflb.fluid.loss;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The exact stationary law of {@code N} loss pools of capacity {@code C} under JSQ(d) with
 * exponential service: the truth the asymptotic approximations are measured against for small
 * {@code N} ({@code docs/models.md §8}). The chain's state is the vector of occupancy counts
 * {@code (n_0, ..., n_C)}, {@code n_k} = pools holding {@code k} jobs, {@code Σ n_k = N}
 * ({@code C(N+C, C)} states). With {@code X_k = Σ_{j≥k} n_j} and {@code P(min sampled ≥ k)}
 * equal to {@code (X_k/N)^d} (with replacement) or {@code Π_{j<d} (X_k − j)/(N − j)} (distinct
 * pools), an arrival (rate {@code Nλ}) joins a pool with {@code k} jobs with probability
 * {@code P(min ≥ k) − P(min ≥ k+1)}, and is lost when {@code k = C}; a pool with {@code k} jobs
 * completes one at rate {@code k}. This class writes these rates from the counts directly; it
 * shares nothing with the fluid model's rate functions.
 *
 * <p>The balance equations {@code π Q = 0} are solved by Gauss–Seidel sweeps (states ordered by the
 * total number of jobs) to a change below 1e-15 per sweep, after which the residual
 * {@code max_j |(πQ)_j| / (π_j q_j)} is checked; not converging is an error. Statistics:
 * blocking by PASTA {@code Σ π(s) P(min ≥ C | s)}, the mean tail {@code E[x_i]}, and
 * {@code N·Cov(x_i, x_j)}. Immutable.
 */
public final class ExactLossChain {

    /** Largest number of states solved (N = 22 at C = 5: about 15 s of Gauss–Seidel sweeps on one core). */
    public static final int MAX_STATES = 100_000;

    private static final double TOLERANCE = 1e-15;
    private static final int MAX_SWEEPS = 200_000;

    private final int capacity;
    private final int d;
    private final boolean distinct;
    private final int n;
    private final double lambda;
    private final double blocking;
    private final double[] meanTail;
    private final double[][] scaledCovariance;
    private final int states;

    private ExactLossChain(int capacity, int d, boolean distinct, int n, double lambda) {
        this.capacity = capacity;
        this.d = d;
        this.distinct = distinct;
        this.n = n;
        this.lambda = lambda;
        int[][] space = enumerate(n, capacity);
        this.states = space.length;
        Map<java.nio.IntBuffer, Integer> index = new HashMap<>(2 * states);
        for (int s = 0; s < states; s++) {
            index.put(key(space[s], n), s);
        }
        // Incoming transitions per state (CSR by target) and total outflow per state.
        int[] count = new int[states + 1];
        int[][] targets = new int[states][];
        double[][] rates = new double[states][];
        double[] out = new double[states];
        double[] lost = new double[states];
        for (int s = 0; s < states; s++) {
            int[] counts = space[s];
            int[] tail = tails(counts);
            int[] tmpTarget = new int[2 * capacity];
            double[] tmpRate = new double[2 * capacity];
            int m = 0;
            for (int k = 0; k <= capacity; k++) {
                if (counts[k] == 0) {
                    continue;
                }
                double join = n * lambda * (atLeast(tail[k]) - (k < capacity ? atLeast(tail[k + 1]) : 0.0));
                if (k == capacity) {
                    lost[s] = join / (n * lambda);
                } else if (join > 0) {
                    tmpTarget[m] = index.get(key(moved(counts, k, k + 1), n));
                    tmpRate[m++] = join;
                }
                if (k > 0) {
                    tmpTarget[m] = index.get(key(moved(counts, k, k - 1), n));
                    tmpRate[m++] = (double) k * counts[k];
                }
            }
            targets[s] = Arrays.copyOf(tmpTarget, m);
            rates[s] = Arrays.copyOf(tmpRate, m);
            for (int e = 0; e < m; e++) {
                out[s] += tmpRate[e];
                count[tmpTarget[e] + 1]++;
            }
        }
        for (int s = 0; s < states; s++) {
            count[s + 1] += count[s];
        }
        int[] from = new int[count[states]];
        double[] rate = new double[count[states]];
        int[] fill = Arrays.copyOf(count, states);
        for (int s = 0; s < states; s++) {
            for (int e = 0; e < targets[s].length; e++) {
                int t = targets[s][e];
                from[fill[t]] = s;
                rate[fill[t]++] = rates[s][e];
            }
        }
        double[] pi = stationary(count, from, rate, out);
        double pb = 0;
        double[] mean = new double[capacity];
        double[][] second = new double[capacity][capacity];
        for (int s = 0; s < states; s++) {
            pb += pi[s] * lost[s];
            int[] tail = tails(space[s]);
            for (int i = 0; i < capacity; i++) {
                double xi = (double) tail[i + 1] / n;
                mean[i] += pi[s] * xi;
                for (int j = 0; j <= i; j++) {
                    second[i][j] += pi[s] * xi * tail[j + 1] / n;
                }
            }
        }
        this.blocking = pb;
        this.meanTail = mean;
        this.scaledCovariance = new double[capacity][capacity];
        for (int i = 0; i < capacity; i++) {
            for (int j = 0; j <= i; j++) {
                double c = n * (second[i][j] - mean[i] * mean[j]);
                scaledCovariance[i][j] = c;
                scaledCovariance[j][i] = c;
            }
        }
    }

    /**
     * @param capacity pool capacity {@code C ≥ 1}
     * @param d pools sampled per arrival, {@code ≥ 1} (at most {@code N} for distinct pools)
     * @param distinct whether the {@code d} pools are distinct (otherwise sampled with replacement)
     * @param n number of pools {@code N ≥ 1}
     * @param lambda per-pool arrival rate {@code λ > 0}
     * @return the solved chain
     * @throws MflbException if the state space exceeds {@link #MAX_STATES} (the message gives its size)
     */
    public static ExactLossChain of(int capacity, int d, boolean distinct, int n, double lambda) {
        Require.atLeast("capacity", capacity, 1);
        Require.atLeast("d", d, 1);
        Require.atLeast("n", n, 1);
        Require.positive("lambda", lambda);
        if (distinct && d > n) {
            throw MflbException.invalid("d", d, "<= n = " + n + " when sampling distinct pools");
        }
        double size = stateCount(n, capacity);
        if (size > MAX_STATES) {
            throw MflbException.invalid("exact", String.format("N = %d, C = %d (%.3g states)", n, capacity, size),
                    "a chain of at most " + MAX_STATES + " states (C(N+C, C)): smaller N or C");
        }
        return new ExactLossChain(capacity, d, distinct, n, lambda);
    }

    /** @return the number of states {@code C(N+C, C)} of the chain (as a double: it may be huge) */
    public static double stateCount(int n, int capacity) {
        double c = 1;
        for (int k = 1; k <= capacity; k++) {
            c = c * (n + k) / k;
        }
        return Math.rint(c);
    }

    /** @return the number of states */
    public int states() {
        return states;
    }

    /** @return {@code N} */
    public int n() {
        return n;
    }

    /** @return the exact blocking probability {@code P_B^N} (PASTA) */
    public double blocking() {
        return blocking;
    }

    /** @return {@code E[x_1..x_C]} */
    public double[] meanTail() {
        return meanTail.clone();
    }

    /** @return {@code N·Cov(x_i, x_j)}, {@code C×C} */
    public double[][] scaledCovariance() {
        double[][] copy = new double[capacity][];
        for (int i = 0; i < capacity; i++) {
            copy[i] = scaledCovariance[i].clone();
        }
        return copy;
    }

    /** @return {@code 1 − E[Σ x_i]/λ}: the blocking by Little's law (equal to {@link #blocking()}) */
    public double blockingByLittle() {
        double sum = 0;
        for (double m : meanTail) {
            sum += m;
        }
        return 1 - sum / lambda;
    }

    /** {@code P(the least loaded sampled pool has ≥ k jobs)} given {@code X_k = atLeastK} such pools. */
    private double atLeast(int atLeastK) {
        if (distinct) {
            double p = 1;
            for (int j = 0; j < d; j++) {
                if (atLeastK - j <= 0) {
                    return 0.0;
                }
                p *= (double) (atLeastK - j) / (n - j);
            }
            return p;
        }
        return Math.pow((double) atLeastK / n, d);
    }

    private int[] tails(int[] counts) {
        int[] tail = new int[capacity + 2];
        for (int k = capacity; k >= 0; k--) {
            tail[k] = tail[k + 1] + counts[k];
        }
        return tail;
    }

    private static int[] moved(int[] counts, int fromLevel, int toLevel) {
        int[] next = counts.clone();
        next[fromLevel]--;
        next[toLevel]++;
        return next;
    }

    /** A hashable view of the counts (content equality). */
    private static java.nio.IntBuffer key(int[] counts, int n) {
        return java.nio.IntBuffer.wrap(counts);
    }

    /** Every {@code (n_0..n_C)} with sum {@code N}, ordered by the total number of jobs. */
    private static int[][] enumerate(int n, int capacity) {
        java.util.List<int[]> all = new java.util.ArrayList<>();
        compose(new int[capacity + 1], 0, n, all);
        all.sort((p, q) -> Integer.compare(jobs(p), jobs(q)));
        return all.toArray(new int[0][]);
    }

    private static void compose(int[] counts, int level, int left, java.util.List<int[]> all) {
        if (level == counts.length - 1) {
            counts[level] = left;
            all.add(counts.clone());
            return;
        }
        for (int c = left; c >= 0; c--) {
            counts[level] = c;
            compose(counts, level + 1, left - c, all);
        }
    }

    private static int jobs(int[] counts) {
        int j = 0;
        for (int k = 0; k < counts.length; k++) {
            j += k * counts[k];
        }
        return j;
    }

    private double[] stationary(int[] start, int[] from, double[] rate, double[] out) {
        double[] pi = new double[states];
        Arrays.fill(pi, 1.0 / states);
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            double change = 0;
            for (int j = 0; j < states; j++) {
                double in = 0;
                for (int e = start[j]; e < start[j + 1]; e++) {
                    in += pi[from[e]] * rate[e];
                }
                double next = in / out[j];
                change = Math.max(change, Math.abs(next - pi[j]));
                pi[j] = next;
            }
            double sum = 0;
            for (double p : pi) {
                sum += p;
            }
            double largest = 0;
            for (int j = 0; j < states; j++) {
                pi[j] /= sum;
                largest = Math.max(largest, pi[j]);
            }
            if (change <= TOLERANCE * largest && sweep > 0) {
                double residual = 0;
                for (int j = 0; j < states; j++) {
                    double in = 0;
                    for (int e = start[j]; e < start[j + 1]; e++) {
                        in += pi[from[e]] * rate[e];
                    }
                    residual = Math.max(residual, Math.abs(in - pi[j] * out[j]));
                }
                if (residual <= 1e-12 * largest * maxOf(out)) {
                    return pi;
                }
            }
        }
        throw new MflbException(ErrorKind.NO_CONVERGENCE, "exact",
                "the exact chain's balance equations did not converge in " + MAX_SWEEPS + " Gauss-Seidel sweeps");
    }

    private static double maxOf(double[] values) {
        double m = 0;
        for (double v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    @Override
    public String toString() {
        return "exact chain of N = " + n + " loss pools (C = " + capacity + ", d = " + d
                + (distinct ? " distinct" : "") + ", lambda = " + lambda + ", " + states + " states)";
    }
}
