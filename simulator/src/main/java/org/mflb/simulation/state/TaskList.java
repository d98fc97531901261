package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * All tasks in service in a system of infinite-server (or loss) pools with exponential service,
 * as a flat array of the pools that hold them. Every task completes at rate 1, so the next
 * completion is a uniformly random entry: it is removed in O(1) by moving the last entry into its
 * place. The array only grows (doubling).
 */
public final class TaskList {

    private int[] pool;
    private int size;

    /** @param initialCapacity initial number of slots ({@code ≥ 1}) */
    public TaskList(int initialCapacity) {
        pool = new int[Math.max(4, initialCapacity)];
    }

    /** @return the number of tasks */
    public int size() {
        return size;
    }

    /** Adds a task at pool {@code p}. */
    public void add(int p) {
        if (size == pool.length) {
            pool = Arrays.copyOf(pool, size * 2);
        }
        pool[size++] = p;
    }

    /** Removes the task at {@code index} ∈ [0, size) and returns its pool. */
    public int removeAt(int index) {
        int p = pool[index];
        pool[index] = pool[--size];
        return p;
    }
}
