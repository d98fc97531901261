package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * The FIFO queues of {@code N} single servers, holding each job's arrival time. The first
 * {@value #RING} jobs of every queue live in a ring buffer of that server (one flat array, so a
 * push or a pop is one indexed access computed from the queue length, with no pointer chasing);
 * jobs further back wait in a per-server linked list threaded through a shared pool of slots, and
 * move into the ring, in order, as the queue drains. Memory is {@value #RING} slots per server plus
 * one per job beyond the rings, and only grows (doubling the pool) when the number of such jobs
 * exceeds every earlier number, so the hot loop allocates nothing.
 *
 * <p>Callers pass the queue length before the operation (the simulator knows it from the
 * occupancy), which is what makes the ring addressing free.
 *
 * <p>Jobs present at time 0 are stored with arrival time {@code NaN}: their arrival is unknown, and
 * the per-job estimators skip them.
 */
public final class FifoJobs {

    /** Jobs per server kept in the ring (a power of two). */
    public static final int RING = 8;
    private static final int LOG_RING = 3;
    private static final int MASK = RING - 1;
    private static final int NONE = -1;

    private final int servers;
    private final double[] ring;
    /** Ring position of the head of each queue. */
    private final int[] head;
    // overflow: linked lists of the jobs beyond the first RING of each queue, allocated on first use
    private int[] overflowHead;
    private int[] overflowTail;
    private int[] next;
    private double[] arrival;
    private int free = NONE;

    /** @param servers number of queues */
    public FifoJobs(int servers) {
        this.servers = servers;
        ring = new double[servers << LOG_RING];
        head = new int[servers];
    }

    /**
     * Appends a job that arrived at {@code time} to queue {@code s}.
     *
     * @param s server
     * @param length the queue length before the arrival
     * @param time arrival time
     */
    public void push(int s, int length, double time) {
        if (length < RING) {
            ring[(s << LOG_RING) + ((head[s] + length) & MASK)] = time;
        } else {
            overflowPush(s, time);
        }
    }

    /**
     * Removes the job at the head of queue {@code s} and returns its arrival time.
     *
     * @param s server
     * @param length the queue length before the departure ({@code ≥ 1})
     */
    public double pop(int s, int length) {
        int h = head[s];
        int at = (s << LOG_RING) + h;
        double a = ring[at];
        if (length > RING) {
            // the freed slot is the ring's new last place: the first waiting job moves in
            ring[at] = overflowPop(s);
        }
        head[s] = (h + 1) & MASK;
        return a;
    }

    private void overflowPush(int s, double time) {
        if (overflowHead == null) {
            overflowHead = new int[servers];
            overflowTail = new int[servers];
            Arrays.fill(overflowHead, NONE);
            Arrays.fill(overflowTail, NONE);
            next = new int[0];
            arrival = new double[0];
        }
        if (free == NONE) {
            grow();
        }
        int slot = free;
        free = next[slot];
        arrival[slot] = time;
        next[slot] = NONE;
        if (overflowHead[s] == NONE) {
            overflowHead[s] = slot;
        } else {
            next[overflowTail[s]] = slot;
        }
        overflowTail[s] = slot;
    }

    private double overflowPop(int s) {
        int slot = overflowHead[s];
        int after = next[slot];
        overflowHead[s] = after;
        if (after == NONE) {
            overflowTail[s] = NONE;
        }
        next[slot] = free;
        free = slot;
        return arrival[slot];
    }

    private void grow() {
        int old = next.length;
        int cap = Math.max(64, old * 2);
        next = Arrays.copyOf(next, cap);
        arrival = Arrays.copyOf(arrival, cap);
        for (int j = old; j < cap - 1; j++) {
            next[j] = j + 1;
        }
        next[cap - 1] = NONE;
        free = old;
    }
}
