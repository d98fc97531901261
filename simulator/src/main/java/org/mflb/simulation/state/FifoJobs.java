package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * The FIFO queues of {@code N} single servers, holding each job's arrival time, and the time the job
 * in service started its service. Everything the event loop touches for one server lives in one
 * block of {@value #STRIDE} doubles (64 bytes, one cache line): the first {@value #RING} jobs of the
 * queue in a ring, the ring's head position and the service start. An arrival or a departure thus
 * costs one cache miss at large N, where separate arrays cost one each. Jobs further back wait in a
 * per-server linked list threaded through a shared pool of slots, and move into the ring, in order,
 * as the queue drains. Memory is 64 bytes per server plus one slot per job beyond the rings, and only
 * grows (doubling the pool) when the number of such jobs exceeds every earlier number, so the hot
 * loop allocates nothing.
 *
 * <p>Layout: block {@code s} starts at index {@code OFFSET + STRIDE·s}. The offset of
 * {@value #OFFSET} doubles after the 16-byte array header puts the blocks on 64-byte boundaries when
 * the array itself is (large arrays, allocated at the start of a heap region, are); otherwise a
 * block straddles two lines, which costs speed, never correctness.
 *
 * <p>Callers pass the queue length before the operation (the simulator knows it from the
 * occupancy), which is what makes the ring addressing free.
 *
 * <p>Jobs present at time 0 are stored with arrival time {@code NaN}: their arrival is unknown, and
 * the per-job estimators skip them.
 */
public final class FifoJobs {

    /** Jobs per server kept in the ring. */
    public static final int RING = 6;
    private static final int STRIDE = 8;
    private static final int LOG_STRIDE = 3;
    private static final int HEAD = RING;
    private static final int SERVICE_START = RING + 1;
    private static final int OFFSET = 6;
    private static final int NONE = -1;

    private final int servers;
    /** Per-server blocks: ring slots, head position (an exact small integer), service start. */
    private final double[] block;
    // overflow: linked lists of the jobs beyond the first RING of each queue, allocated on first use
    private int[] overflowHead;
    private int[] overflowTail;
    private int[] next;
    private double[] arrival;
    private int free = NONE;

    /** @param servers number of queues */
    public FifoJobs(int servers) {
        this.servers = servers;
        block = new double[OFFSET + servers * STRIDE]; // N <= SimulationScenario.MAX_SERVERS: fits an int
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
            int base = OFFSET + (s << LOG_STRIDE);
            int slot = (int) block[base + HEAD] + length;
            block[base + (slot >= RING ? slot - RING : slot)] = time;
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
        int base = OFFSET + (s << LOG_STRIDE);
        int h = (int) block[base + HEAD];
        double a = block[base + h];
        if (length > RING) {
            // the freed slot is the ring's new last place: the first waiting job moves in
            block[base + h] = overflowPop(s);
        }
        block[base + HEAD] = h + 1 == RING ? 0 : h + 1;
        return a;
    }

    /** @return the time at which the job in service at {@code s} started its service (as last set) */
    public double serviceStart(int s) {
        return block[OFFSET + (s << LOG_STRIDE) + SERVICE_START];
    }

    /** Records that a job started its service at {@code s} at {@code time}. */
    public void setServiceStart(int s, double time) {
        block[OFFSET + (s << LOG_STRIDE) + SERVICE_START] = time;
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
