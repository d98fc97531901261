package org.mflb.simulation.dispatch;

import org.mflb.core.system.Sampling;

/**
 * The law of the level an arrival joins on the occupancy engine, which keeps only the counts
 * {@code c_i} of servers (pools) with at least {@code i} jobs ({@code org.mflb.simulation.engine}):
 * for a policy that looks only at queue lengths of exchangeable servers, where the job goes is a
 * function of the counts and of uniform draws, written from the policy's definition
 * (docs/models.md §1–3).
 *
 * @param rule which policy's law
 * <p>With servers of different speeds (docs/models.md §10) the counts are kept per class, and
 * {@link Rule#RANDOM}, {@link Rule#SQD} and {@link Rule#SED} draw their d servers one by one as
 * (class, level) pairs, uniformly or proportionally to speed.
 *
 * @param d the servers sampled per arrival ({@link Rule#SQD}, {@link Rule#SED}), 1 for the others
 * @param sampling how the {@code d} servers are drawn ({@link Rule#SQD}, {@link Rule#SED}; speed-weighted
 *        only with servers of different speeds), {@link Sampling#REPLACEMENT} for the others
 * @param threshold ℓ of {@link Rule#THRESHOLD}, ℓ at time 0 of {@link Rule#ADAPTIVE_THRESHOLD}, 0 for the others
 * @param alpha α of {@link Rule#ADAPTIVE_THRESHOLD}, NaN for the others
 */
public record OccupancyArrivals(Rule rule, int d, Sampling sampling, int threshold, double alpha) {

    /** The laws, one per policy the counts are exact for (SQ(d) with d = 1 is random routing). */
    public enum Rule {
        /** A uniformly random server. */
        RANDOM,
        /** The shortest of {@code d ≥ 2} sampled servers (or one speed-weighted server, d = 1). */
        SQD,
        /** The smallest {@code (Q+1)/s} of {@code d ≥ 2} sampled servers of different speeds. */
        SED,
        /** A shortest queue. */
        JSQ,
        /** An idle server if any, else a uniformly random one. */
        JIQ,
        /** Below ℓ if any, else at ℓ, else uniformly at random. */
        THRESHOLD,
        /** As {@link #THRESHOLD}, ℓ moving with the α rule after each arrival. */
        ADAPTIVE_THRESHOLD
    }

    /** @return the law of a policy without parameters ({@code d = 1}, no threshold) */
    static OccupancyArrivals of(Rule rule) {
        return new OccupancyArrivals(rule, 1, Sampling.REPLACEMENT, 0, Double.NaN);
    }

    /** @return whether the {@code d} servers are distinct (else drawn independently) */
    public boolean distinct() {
        return sampling == Sampling.DISTINCT;
    }
}
