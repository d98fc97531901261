package org.mflb.simulation;

import java.util.Arrays;

import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;

/**
 * The state of {@code N} individual servers at time 0, rounded from a state of the population: an
 * initial state is a tail vector {@code x} (fractions of servers with at least {@code i} jobs) and
 * SQ(d) with memory's is a law of (queue, observation) pairs, while the agent engine needs a number of
 * jobs (and an observation) per server and the occupancy engine the counts {@code c_i}. Both roundings
 * keep every simulated fraction within {@code 1/N} of the one asked for, and {@code all:K} and
 * {@code empty} are exact.
 */
final class InitialServers {

    private InitialServers() {
    }

    /**
     * The integer state nearest to the tail vector {@code x} of {@code initial}: {@code c_i = ⌊N·x_i + 1/2⌋}
     * servers hold at least {@code i} jobs (round half up; monotone, so {@code c_i} stays
     * non-increasing), servers {@code 0..c_i−1} being the ones with at least {@code i}.
     *
     * @return a new array of length {@code n}, the jobs of each server
     */
    static int[] levels(InitialState initial, int n) {
        double[] x = initial.levels(initial.occupiedLevels());
        int[] l = new int[n];
        for (double xi : x) {
            long c = (long) Math.floor(n * xi + 0.5);
            for (int s = 0; s < c; s++) {
                l[s]++;
            }
        }
        return l;
    }

    /**
     * The counts of {@link #levels} computed without the per-server array.
     *
     * @return a new array {@code c_0 = n, c_1, ..., c_H}, without trailing zeros
     */
    static int[] counts(InitialState initial, int n) {
        double[] x = initial.levels(initial.occupiedLevels());
        int[] c = new int[x.length + 1];
        c[0] = n;
        for (int i = 0; i < x.length; i++) {
            c[i + 1] = (int) Math.min(n, (long) Math.floor(n * x[i] + 0.5));
        }
        int len = c.length;
        while (len > 1 && c[len - 1] == 0) {
            len--;
        }
        return Arrays.copyOf(c, len);
    }

    /**
     * Servers given (queue, observation) pairs in the proportions {@code y_{i,j}} of {@code memory},
     * rounded to whole servers by largest remainders (the counts sum to {@code n}; each within 1 of
     * {@code n·y_{i,j}}), in order of observation, then queue.
     *
     * @param queues whether to return each server's queue length (else the dispatcher's observation of it)
     * @return a new array of length {@code n}
     */
    static int[] fromMemory(MemoryState memory, int n, boolean queues) {
        int top = memory.maxObservation();
        int pairs = (top + 1) * (top + 2) / 2;
        long[] count = new long[pairs];
        double[] remainder = new double[pairs];
        long assigned = 0;
        int k = 0;
        for (int j = 0; j <= top; j++) {
            for (int i = 0; i <= j; i++, k++) {
                double exact = n * memory.share(i, j);
                count[k] = (long) Math.floor(exact);
                remainder[k] = exact - count[k];
                assigned += count[k];
            }
        }
        while (assigned < n) {
            int best = 0;
            for (int p = 1; p < pairs; p++) {
                if (remainder[p] > remainder[best]) {
                    best = p;
                }
            }
            count[best]++;
            remainder[best] = -1;
            assigned++;
        }
        int[] out = new int[n];
        int s = 0;
        k = 0;
        for (int j = 0; j <= top; j++) {
            for (int i = 0; i <= j; i++, k++) {
                for (long c = 0; c < count[k] && s < n; c++) {
                    out[s++] = queues ? i : j;
                }
            }
        }
        return out;
    }

    /** @return the tail vector {@code (1, x_1, ...)} of the queue lengths of {@code memory} */
    static InitialState queueTail(MemoryState memory) {
        double[] x = memory.queueLevels();
        double[] tail = new double[x.length + 1];
        tail[0] = 1.0;
        for (int i = 0; i < x.length; i++) {
            tail[i + 1] = Math.min(x[i], tail[i]);
        }
        return InitialState.tail(tail);
    }
}
