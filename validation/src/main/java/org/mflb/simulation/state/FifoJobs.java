package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * The FIFO queues of {@code N} single servers, holding each job's arrival time: one singly linked
 * list per server threaded through a shared pool of job slots with a free list. Memory is
 * proportional to the number of jobs in the system (O(N) for a stable system), and the pool only
 * grows (doubling) when the total number of jobs exceeds every earlier total, so the hot loop
 * allocates nothing.
 *
 * <p>Jobs present at time 0 are stored with arrival time {@code NaN}: their arrival is unknown, and
 * the per-job estimators skip them.
 */
public final class FifoJobs {

    private static final int NONE = -1;

    private final int[] head;
    private final int[] tail;
    private int[] next;
    private double[] arrival;
    private int free;

    /**
     * @param servers number of queues
     * @param initialSlots initial capacity of the job pool ({@code ≥ 1})
     */
    public FifoJobs(int servers, int initialSlots) {
        head = new int[servers];
        tail = new int[servers];
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
        int cap = Math.max(1, initialSlots);
        next = new int[cap];
        arrival = new double[cap];
        for (int j = 0; j < cap - 1; j++) {
            next[j] = j + 1;
        }
        next[cap - 1] = NONE;
        free = 0;
    }

    /** Appends a job that arrived at {@code time} to the queue of server {@code s}. */
    public void push(int s, double time) {
        if (free == NONE) {
            grow();
        }
        int slot = free;
        free = next[slot];
        arrival[slot] = time;
        next[slot] = NONE;
        if (head[s] == NONE) {
            head[s] = slot;
        } else {
            next[tail[s]] = slot;
        }
        tail[s] = slot;
    }

    /** Removes the job at the head of queue {@code s} (which must be non-empty) and returns its arrival time. */
    public double pop(int s) {
        int slot = head[s];
        int after = next[slot];
        head[s] = after;
        if (after == NONE) {
            tail[s] = NONE;
        }
        next[slot] = free;
        free = slot;
        return arrival[slot];
    }

    private void grow() {
        int old = next.length;
        int cap = old * 2;
        next = Arrays.copyOf(next, cap);
        arrival = Arrays.copyOf(arrival, cap);
        for (int j = old; j < cap - 1; j++) {
            next[j] = j + 1;
        }
        next[cap - 1] = NONE;
        free = old;
    }
}
