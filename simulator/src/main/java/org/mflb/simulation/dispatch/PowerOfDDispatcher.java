package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.simulation.state.Occupancy;

/**
 * SQ(d), the power of d choices (Mitzenmacher; Vvedenskaya, Dobrushin, Karpelevich; for pools
 * Mukherjee et al.): sample d servers and send the job to one with the fewest jobs, ties uniformly
 * at random (docs/models.md §1–2). With replacement the arrival joins a server with ≥ i jobs with
 * probability exactly {@code x_i^d}; with d distinct servers (the real algorithm) this holds up to
 * O(1/N). With servers of different speeds (docs/models.md §10) the rule is the same, speed-blind;
 * speed-weighted sampling draws each sample with probability proportional to its speed
 * ({@link ServerSample}), and with d = 1 it is random routing proportional to speed.
 */
public final class PowerOfDDispatcher extends Dispatcher {

    private final UniformRandomProvider rng;
    private final Occupancy occ;
    private final int n;
    /** Two distinct servers: the common case, drawn with two calls and no permutation. */
    private final boolean twoDistinct;
    /** Two servers drawn with replacement (the default sampling, the law the drift is exact for). */
    private final boolean twoWithReplacement;
    private final ServerSample sample;

    /**
     * @param ctx the replication's context
     * @param policy the policy: d and the sampling
     */
    public PowerOfDDispatcher(DispatchContext ctx, Policy.PowerOfD policy) {
        this.rng = ctx.rng();
        this.occ = ctx.occupancy();
        this.n = occ.servers();
        int d = policy.d();
        this.twoDistinct = d == 2 && policy.sampling() == Sampling.DISTINCT;
        this.twoWithReplacement = d == 2 && policy.sampling() == Sampling.REPLACEMENT;
        this.sample = twoDistinct || twoWithReplacement ? null : ServerSample.of(ctx, d, policy.sampling());
    }

    /**
     * Lemire's exact multiply-and-reject map of 32 random bits to a uniform integer in
     * {@code [0, bound)} ("Fast random integer generation in an interval", ACM TOMACS 2019): the
     * high word of {@code bits·bound} is uniform once the rare low words below
     * {@code 2^32 mod bound} are rejected and redrawn.
     */
    static int bounded(int bits, int bound, UniformRandomProvider rng) {
        long m = (bits & 0xFFFFFFFFL) * bound;
        if ((m & 0xFFFFFFFFL) < bound) {
            return reject(m, bound, rng);
        }
        return (int) (m >>> 32);
    }

    /** The rare rejection branch of {@link #bounded}, out of line. */
    private static int reject(long m, int bound, UniformRandomProvider rng) {
        long threshold = (1L << 32) % bound;
        while ((m & 0xFFFFFFFFL) < threshold) {
            m = (rng.nextInt() & 0xFFFFFFFFL) * bound;
        }
        return (int) (m >>> 32);
    }

    @Override
    public int select(double t) {
        if (twoDistinct) {
            // (a, b) is a uniformly random ordered pair of distinct servers, so keeping a on ties
            // breaks them uniformly; both come from the two halves of one 64-bit draw
            long bits = rng.nextLong();
            int a = bounded((int) (bits >>> 32), n, rng);
            int b = bounded((int) bits, n - 1, rng);
            // branch-free (both outcomes are close to even odds, so branches would be mispredicted
            // often): b += 1 when b >= a, then keep b only when it is strictly shorter
            b += (a - b - 1) >>> 31;
            int shorter = (occ.level(b) - occ.level(a)) >> 31;
            return a ^ ((a ^ b) & shorter);
        }
        if (twoWithReplacement) {
            // the two draws ServerSample would make, in its order, compared without storing them: b
            // replaces a only when strictly shorter (the first of the tied samples, as in selectFromSample).
            // A branch, not a mask: at large N the levels come from memory, and a predicted branch lets
            // the work on the chosen server start before both loads complete (branch-free, N = 10^6 ran
            // 15% slower; N = 1000 the same speed)
            int a = rng.nextInt(n);
            int b = rng.nextInt(n);
            if (occ.level(b) < occ.level(a)) {
                return b;
            }
            return a;
        }
        return selectFromSample();
    }

    /** The general case, out of line so that {@link #select} stays small enough to be inlined. */
    private int selectFromSample() {
        int[] s = sample.draw();
        int best = s[0];
        int bestLevel = occ.level(best);
        for (int i = 1; i < s.length; i++) {
            int l = occ.level(s[i]);
            if (l < bestLevel) {
                bestLevel = l;
                best = s[i];
            }
        }
        return best;
    }
}
