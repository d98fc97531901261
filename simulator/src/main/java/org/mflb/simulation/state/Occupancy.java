package org.mflb.simulation.state;

/**
 * Read-only view of the occupancy of {@code N} servers (or {@code n} pools): the number of jobs
 * (the <em>level</em>) of each server, and an order of the servers in which the idle ones come
 * first. When {@link #sortedByLevel()} the order is sorted by level, so that for every level
 * {@code i}
 * <pre>
 *   positions [N − c_i, N) of the order hold exactly the servers with level ≥ i,
 *   c_i = #{s : level(s) ≥ i} = N·x_i        (x = the tail vector, docs/models.md §0);
 * </pre>
 * otherwise this holds for i = 1 only (idle servers first, then the busy ones).
 * Dispatchers read the state through this view and can therefore not corrupt it.
 */
public interface Occupancy extends LevelCounts {

    /** @return the number of jobs at server {@code s} */
    int level(int s);

    /**
     * @return the server at {@code position} of the order: positions {@code [0, N − c_1)} are the
     *         idle servers; when {@link #sortedByLevel()}, {@code [N − c_i, N − c_{i+1})} are the
     *         servers with exactly {@code i} jobs
     */
    int serverAt(int position);

    /** @return whether the order is sorted by level at every level (not only idle before busy) */
    boolean sortedByLevel();
}
