package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * The event calendar of the general-service simulation: pending service completions as
 * {@code (time, owner)} pairs in an implicit 4-ary min-heap on the time. Insertion and removal of
 * the earliest event cost O(log N) (with half the depth of a binary heap and cache-friendlier
 * sibling groups). Completions are never cancelled or rescheduled, so no position index is needed;
 * {@link #replaceFirst} handles the common "a server finishes a job and starts the next one" in a
 * single sift-down.
 *
 * <p>Times and owners are kept in parallel primitive arrays; the arrays only grow (doubling).
 */
public final class EventCalendar {

    private double[] time;
    private int[] owner;
    private int size;

    /** @param initialCapacity initial number of slots ({@code ≥ 1}) */
    public EventCalendar(int initialCapacity) {
        int cap = Math.max(4, initialCapacity);
        time = new double[cap];
        owner = new int[cap];
    }

    /** @return the number of pending events */
    public int size() {
        return size;
    }

    /** @return the time of the earliest event, {@code +∞} when the calendar is empty */
    public double firstTime() {
        return size > 0 ? time[0] : Double.POSITIVE_INFINITY;
    }

    /** @return the owner (server or pool) of the earliest event; the calendar must be non-empty */
    public int firstOwner() {
        return owner[0];
    }

    /** Schedules an event of {@code who} at time {@code t}. */
    public void add(double t, int who) {
        if (size == time.length) {
            time = Arrays.copyOf(time, size * 2);
            owner = Arrays.copyOf(owner, size * 2);
        }
        int i = size++;
        // sift up
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            double tp = time[parent];
            if (tp <= t) {
                break;
            }
            time[i] = tp;
            owner[i] = owner[parent];
            i = parent;
        }
        time[i] = t;
        owner[i] = who;
    }

    /** Removes the earliest event. */
    public void removeFirst() {
        int last = --size;
        if (last > 0) {
            siftDown(time[last], owner[last]);
        }
    }

    /** Replaces the earliest event by one of {@code who} at time {@code t} (a remove plus an add). */
    public void replaceFirst(double t, int who) {
        siftDown(t, who);
    }

    /** Places {@code (t, who)} at the root and sifts it down among the first {@code size} entries. */
    private void siftDown(double t, int who) {
        final double[] tm = time;
        final int[] ow = owner;
        final int n = size;
        int i = 0;
        for (;;) {
            int c = (i << 2) + 1;
            if (c >= n) {
                break;
            }
            // smallest of up to four children
            int best = c;
            double bt = tm[c];
            int end = Math.min(c + 4, n);
            for (int j = c + 1; j < end; j++) {
                double tj = tm[j];
                if (tj < bt) {
                    bt = tj;
                    best = j;
                }
            }
            if (bt >= t) {
                break;
            }
            tm[i] = bt;
            ow[i] = ow[best];
            i = best;
        }
        tm[i] = t;
        ow[i] = who;
    }
}
