package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.system.Sampling;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * Draws {@code d} of {@code N} servers, either {@code d} distinct ones (uniform over subsets, in a
 * uniformly random order) by a partial Fisher–Yates shuffle of a permutation kept between calls,
 * or {@code d} independent uniform draws (with replacement). Either way the sample is exchangeable,
 * so "the first sampled server of minimal level" is uniform among the tied sampled servers.
 * With servers of different speeds, speed-weighted sampling ({@link Sampling#SPEED}, docs/models.md
 * §10) makes {@code d} independent draws, each a server with probability proportional to its speed:
 * a class with probability {@code ∝ N_k s_k}, then a uniform server of the class.
 * O(d) per call (O(d log K) speed-weighted), no allocation.
 */
final class ServerSample {

    private final UniformRandomProvider rng;
    private final int n;
    private final int d;
    private final boolean distinct;
    /** A permutation of the servers; any permutation works as the starting point of a partial shuffle. */
    private final int[] perm;
    private final int[] out;
    /** The classes, when the draws are speed-weighted; else {@code null}. */
    private final ServerClassLayout speedWeighted;

    ServerSample(UniformRandomProvider rng, int n, int d, boolean distinct) {
        this(rng, n, d, distinct, null);
    }

    /**
     * @param ctx the replication's context (its classes, if any)
     * @param d the sample size
     * @param sampling how the servers are drawn; speed-weighted draws are uniform ones when the
     *        servers all have the same speed
     * @return a sampler of {@code d} servers
     */
    static ServerSample of(DispatchContext ctx, int d, Sampling sampling) {
        ServerClassLayout layout = ctx.scenario().classLayout();
        return new ServerSample(ctx.rng(), ctx.occupancy().servers(), d, sampling == Sampling.DISTINCT,
                PolicyImplementation.speedWeighted(sampling, layout) ? layout : null);
    }

    private ServerSample(UniformRandomProvider rng, int n, int d, boolean distinct, ServerClassLayout speedWeighted) {
        this.speedWeighted = speedWeighted;
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
        if (speedWeighted != null) {
            final ServerClassLayout layout = speedWeighted;
            final double total = layout.totalSpeed();
            for (int i = 0; i < d; i++) {
                int k = layout.classAtSpeed(rng.nextDouble() * total);
                out[i] = layout.start(k) + rng.nextInt(layout.size(k));
            }
        } else if (distinct) {
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
