package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The random stream of replication {@code r} of a run with seed {@code s}: a xoroshiro128++
 * generator (Blackman and Vigna) whose 128-bit state is words {@code 2r+1} and {@code 2r+2} of the
 * SplitMix64 sequence (Steele, Lea and Flood) started from {@code mix(s)}. Streams therefore depend
 * only on {@code (s, r)}, never on the thread that runs the replication.
 *
 * <p>A sweep (issue 17) runs point {@code p} of its grid with the seed {@link #pointSeed(long, int)
 * pointSeed(s, p)}, so replication {@code r} of point {@code p} uses the stream derived from
 * {@code (s, p, r)} whichever engine or thread runs the point.
 */
public final class ReplicationStreams {

    /** Name of the generator, recorded with every result. */
    public static final String GENERATOR = "XO_RO_SHI_RO_128_PP (Commons RNG), seeded by SplitMix64(seed, replication)";

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /** Separates the sequence of sweep points' seeds from the replication words (an arbitrary odd constant). */
    private static final long POINT_KEY = 0xD1B54A32D192ED03L;

    private ReplicationStreams() {
    }

    /** @return the 128-bit seed of replication {@code r} */
    public static long[] seed(long seed, int r) {
        long base = mix(seed);
        long s0 = mix(base + (2L * r + 1) * GOLDEN_GAMMA);
        long s1 = mix(base + (2L * r + 2) * GOLDEN_GAMMA);
        if ((s0 | s1) == 0) {
            s1 = GOLDEN_GAMMA; // the all-zero state is the one state xoroshiro cannot leave
        }
        return new long[] {s0, s1};
    }

    /**
     * The seed of point {@code p} of a sweep with seed {@code s}: word {@code p + 1} of the SplitMix64
     * sequence started from {@code mix(s ^ POINT_KEY)}, a sequence of its own (the key keeps it apart
     * from the replication words of the same {@code s}).
     *
     * @param seed the sweep's seed
     * @param point the point's index in the grid, {@code >= 0}
     * @return the seed the point's command runs with
     */
    public static long pointSeed(long seed, int point) {
        if (point < 0) {
            throw new IllegalArgumentException("point index " + point + " < 0");
        }
        return mix(mix(seed ^ POINT_KEY) + (point + 1L) * GOLDEN_GAMMA);
    }

    /** @return the generator of replication {@code r} */
    public static UniformRandomProvider create(long seed, int r) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed(seed, r));
    }

    /** The SplitMix64 output function (variant 13 of Stafford's mixers). */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
