package org.mflb.simulation.state;

/**
 * The occupancy counts of {@code N} servers (pools): {@code c_i} = number of servers holding at
 * least {@code i} jobs, so that the tail vector is {@code x_i = c_i / N} (docs/models.md §0). This is
 * all the observers of a replication (the time integrals, the grid snapshots) read; the agent engine
 * keeps it inside its per-server {@link Occupancy}, the occupancy engine keeps nothing else.
 */
public interface LevelCounts {

    /** @return the number {@code N} of servers (pools) */
    int servers();

    /** @return {@code c_i}, the number of servers with at least {@code i} jobs ({@code c_0 = N}) */
    int countAtLeast(int i);

    /** @return the highest level any server has reached so far (an upper bound of the current maximum) */
    int highestLevel();
}
