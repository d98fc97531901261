package org.mflb.fluid.heterogeneous;

/**
 * How a dispatcher chooses among the {@code d} servers it samples when servers have different speeds
 * (docs/models.md §10). Each rule treats the sampled servers of one level (SQ(d)) or one value
 * (SED(d)) alike and breaks ties uniformly at random, which makes the arrival shares
 * {@code r_{k,q}(y)} polynomials in the state.
 */
public enum ClassRule {
    /** One sampled server, whatever its length (d = 1): {@code r_{k,q} = w_{k,q}}. */
    RANDOM("random"),
    /** The fewest jobs, blind to speeds: {@code r_{k,q} = w_{k,q}·h_d(W_q, W_{q+1})}. */
    SHORTEST_QUEUE("sqd"),
    /**
     * The smallest expected delay {@code (Q+1)/s}: {@code r_{k,q} = w_{k,q}·h_d(T_v, T_v − M_v)} with
     * {@code v = (q+1)/s_k}, {@code T_v} the mass of value at least {@code v} and {@code M_v} that of value
     * exactly {@code v} (values compared exactly: ties across classes are real).
     */
    SHORTEST_EXPECTED_DELAY("sed");

    private final String id;

    ClassRule(String id) {
        this.id = id;
    }

    /** @return the policy's name: random, sqd or sed */
    public String id() {
        return id;
    }
}
