package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * The event calendar of the general-service simulation: pending service completions as
 * {@code (time, owner)} pairs in an implicit 4-ary min-heap on the time. Insertion and removal of
 * the earliest event cost O(log N) (half the depth of a binary heap). Completions are never
 * cancelled or rescheduled, so no position index is needed; {@link #replaceFirst} handles the
 * common "a server finishes a job and starts the next one" in a single sift-down.
 *
 * <p>Layout, for speed: entry i occupies {@code heap[2i]} (the time's IEEE-754 bits) and
 * {@code heap[2i+1]} (the owner), so the four children of a node share one or two cache lines, and
 * the times are compared as {@code long}s — for non-negative doubles the bit patterns are ordered
 * like the values — which the JIT turns into branch-free conditional moves. Times must therefore be
 * {@code ≥ 0} (simulated times are). The array only grows (doubling).
 */
public final class EventCalendar {

    private long[] heap;
    private int size;

    /** @param initialCapacity initial number of entries ({@code ≥ 1}) */
    public EventCalendar(int initialCapacity) {
        heap = new long[2 * Math.max(4, initialCapacity)];
    }

    /** @return the number of pending events */
    public int size() {
        return size;
    }

    /** @return the time of the earliest event, {@code +∞} when the calendar is empty */
    public double firstTime() {
        return size > 0 ? Double.longBitsToDouble(heap[0]) : Double.POSITIVE_INFINITY;
    }

    /** @return the owner (server or pool) of the earliest event; the calendar must be non-empty */
    public int firstOwner() {
        return (int) heap[1];
    }

    /** Schedules an event of {@code who} at time {@code t ≥ 0}. */
    public void add(double t, int who) {
        if (2 * size == heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        final long[] h = heap;
        final long key = Double.doubleToRawLongBits(t);
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long kp = h[2 * parent];
            if (kp <= key) {
                break;
            }
            h[2 * i] = kp;
            h[2 * i + 1] = h[2 * parent + 1];
            i = parent;
        }
        h[2 * i] = key;
        h[2 * i + 1] = who;
    }

    /** Removes the earliest event. */
    public void removeFirst() {
        int last = --size;
        if (last > 0) {
            siftDown(heap[2 * last], heap[2 * last + 1]);
        }
    }

    /** Replaces the earliest event by one of {@code who} at time {@code t ≥ 0} (a remove plus an add). */
    public void replaceFirst(double t, int who) {
        siftDown(Double.doubleToRawLongBits(t), who);
    }

    /** Places {@code (key, who)} at the root and sifts it down among the first {@code size} entries. */
    private void siftDown(long key, long who) {
        final long[] h = heap;
        final int n = size;
        int i = 0;
        for (;;) {
            int c = 4 * i + 1;
            if (c >= n) {
                break;
            }
            int best;
            long bk;
            if (c + 3 < n) {
                // tournament of the four children, written as selects (conditional moves)
                long k0 = h[2 * c];
                long k1 = h[2 * c + 2];
                long k2 = h[2 * c + 4];
                long k3 = h[2 * c + 6];
                int b01 = k1 < k0 ? c + 1 : c;
                long m01 = k1 < k0 ? k1 : k0;
                int b23 = k3 < k2 ? c + 3 : c + 2;
                long m23 = k3 < k2 ? k3 : k2;
                best = m23 < m01 ? b23 : b01;
                bk = m23 < m01 ? m23 : m01;
            } else {
                best = c;
                bk = h[2 * c];
                for (int j = c + 1; j < n; j++) {
                    long kj = h[2 * j];
                    if (kj < bk) {
                        bk = kj;
                        best = j;
                    }
                }
            }
            if (bk >= key) {
                break;
            }
            h[2 * i] = bk;
            h[2 * i + 1] = h[2 * best + 1];
            i = best;
        }
        h[2 * i] = key;
        h[2 * i + 1] = who;
    }
}
