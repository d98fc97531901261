package org.mflb.simulation.dispatch;

/**
 * The law of the level an arrival joins on the occupancy engine, which keeps only the counts
 * {@code c_i} of servers (pools) with at least {@code i} jobs ({@code org.mflb.simulation.engine}):
 * for a policy that looks only at queue lengths of exchangeable servers, where the job goes is a
 * function of the counts and of uniform draws, written from the policy's definition
 * (docs/models.md §1–3).
 *
 * @param rule which policy's law
 * @param d the servers sampled per arrival ({@link Rule#SQD}), 1 for the others
 * @param distinct whether the {@code d} servers are distinct ({@link Rule#SQD}), else drawn with replacement
 * @param threshold ℓ of {@link Rule#THRESHOLD}, ℓ at time 0 of {@link Rule#ADAPTIVE_THRESHOLD}, 0 for the others
 * @param alpha α of {@link Rule#ADAPTIVE_THRESHOLD}, NaN for the others
 */
public record OccupancyArrivals(Rule rule, int d, boolean distinct, int threshold, double alpha) {

    /** The laws, one per policy the counts are exact for (SQ(d) with d = 1 is random routing). */
    public enum Rule {
        /** A uniformly random server. */
        RANDOM,
        /** The shortest of {@code d ≥ 2} sampled servers. */
        SQD,
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
        return new OccupancyArrivals(rule, 1, false, 0, Double.NaN);
    }
}
