package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Draws {@code d} of {@code N} servers, either {@code d} distinct ones (uniform over subsets, in a
 * uniformly random order) by a partial Fisher–Yates shuffle of a permutation kept between calls,
 * or {@code d} independent uniform draws (with replacement). Either way the sample is exchangeable,
 * so "the first sampled server of minimal level" is uniform among the tied sampled servers.
 * O(d) per call, no allocation.
 */
final class ServerSample {

    private final UniformRandomProvider rng;
    private final int n;
    private final int d;
    private final boolean distinct;
    /** A permutation of the servers; any permutation works as the starting point of a partial shuffle. */
    private final int[] perm;
    private final int[] out;

    ServerSample(UniformRandomProvider rng, int n, int d, boolean distinct) {
        this.rng = rng;
        this.n = n;
        this.d = d;
        this.distinct = distinct;
        this.out = new int[d];
        if (distinct) {
            perm = new int[n];
            for (int s = 0; s < n; s++) {
                perm[s] = s;
            }
        } else {
            perm = null;
        }
    }

    /** @return the sample size {@code d} */
    int size() {
        return d;
    }

    /** Draws a new sample; returns the internal array holding it (valid until the next draw). */
    int[] draw() {
        if (distinct) {
            for (int i = 0; i < d; i++) {
                int j = i + rng.nextInt(n - i);
                int tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
                out[i] = perm[i];
            }
        } else {
            for (int i = 0; i < d; i++) {
                out[i] = rng.nextInt(n);
            }
        }
        return out;
    }
}
