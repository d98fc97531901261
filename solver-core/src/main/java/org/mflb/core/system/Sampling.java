package org.mflb.core.system;

/**
 * How a dispatcher that samples {@code d} servers per arrival (SQ(d), SQ(d) with memory) draws them.
 * The fluid limit is the same for both; at finite {@code N} they differ by O(1/N) (docs/models.md §1, §7).
 */
public enum Sampling {
    /**
     * {@code d} independent uniform draws: the law the drift {@code λ(x_{i−1}^d − x_i^d)} holds for
     * exactly at every {@code N}, and the one the refined 1/N, 1/N² expansions are exact for (the default).
     */
    REPLACEMENT("replacement"),
    /** {@code d} distinct servers, uniformly among all subsets: the real algorithm; needs {@code d ≤ N}. */
    DISTINCT("distinct");

    private final String id;

    Sampling(String id) {
        this.id = id;
    }

    /** @return the name: {@code replacement} or {@code distinct} */
    public String id() {
        return id;
    }
}
