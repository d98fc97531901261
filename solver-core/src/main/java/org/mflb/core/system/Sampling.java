package org.mflb.core.system;

/**
 * How a dispatcher that samples {@code d} servers per arrival (SQ(d), SED(d), LL(d), SQ(d) with memory)
 * draws them. With replacement and distinct servers have the same fluid limit; at finite {@code N} they
 * differ by O(1/N) (docs/models.md §1, §7). Speed-weighted sampling, for servers of different speeds,
 * changes the limit itself (docs/models.md §10).
 */
public enum Sampling {
    /**
     * {@code d} independent uniform draws: the law the drift {@code λ(x_{i−1}^d − x_i^d)} holds for
     * exactly at every {@code N}, and the one the refined 1/N, 1/N² expansions are exact for (the default).
     */
    REPLACEMENT("replacement"),
    /** {@code d} distinct servers, uniformly among all subsets: the real algorithm; needs {@code d ≤ N}. */
    DISTINCT("distinct"),
    /**
     * {@code d} independent draws, each picking a server with probability proportional to its speed
     * (docs/models.md §10): with servers of different speeds it is stable for every {@code λ} below the
     * capacity; with equal speeds it is {@link #REPLACEMENT}.
     */
    SPEED("speed");

    private final String id;

    Sampling(String id) {
        this.id = id;
    }

    /** @return the name: {@code replacement}, {@code distinct} or {@code speed} */
    public String id() {
        return id;
    }
}
