package org.mflb.simulation.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

import org.junit.jupiter.api.Test;

/**
 * {@link EventCalendar} delivers events in time order, exactly like a reference priority queue (of
 * the events at the earliest time, any one may come first), as a single heap and through its buckets: heavy-tailed delays, ties, events
 * earlier than the current front, long gaps, emptying and refilling, growth and shrinking.
 */
class EventCalendarTest {

    /** Time, then owner: the event {@link #check} matched (owner −1) comes first among its ties. */
    private static final Comparator<double[]> ORDER = Comparator.<double[]>comparingDouble(a -> a[0])
            .thenComparingDouble(a -> a[1]);

    /** Small calendars: the heap alone. */
    @Test
    void matchesReferenceQueueAsHeap() {
        SplittableRandom r = new SplittableRandom(3);
        run(r, 50_000, 1000, () -> r.nextDouble() * 10, 0.0, 0);
    }

    /** About 10⁴ events pending, exponential-like delays. */
    @Test
    void matchesReferenceQueueThroughBuckets() {
        SplittableRandom r = new SplittableRandom(4);
        run(r, 200_000, 1 << 30, () -> -Math.log(1 - r.nextDouble()), 0.0, 12_000);
    }

    /** Log-normal delays with SCV 4 (σ² = ln 5): a few events far in the future, in the overflow. */
    @Test
    void heavyTailedDelays() {
        SplittableRandom r = new SplittableRandom(5);
        double sigma = Math.sqrt(Math.log(5));
        run(r, 200_000, 1 << 30, () -> Math.exp(-sigma * sigma / 2 + sigma * gaussian(r)), 0.0, 10_000);
    }

    /** Integer times (many ties) and some events earlier than the front. */
    @Test
    void tiesAndEarlyEvents() {
        SplittableRandom r = new SplittableRandom(6);
        run(r, 150_000, 50, () -> r.nextInt(40), 0.05, 9_000);
    }

    /** Rare huge delays (jumps over empty years), the calendar draining to empty and refilling. */
    @Test
    void gapsDrainingAndRefilling() {
        SplittableRandom r = new SplittableRandom(7);
        EventCalendar cal = new EventCalendar(1);
        PriorityQueue<double[]> ref = new PriorityQueue<>(ORDER);
        double now = 0;
        int peak = 0;
        for (int round = 0; round < 6; round++) {
            int target = 5_000 + r.nextInt(20_000);
            while (ref.size() < target) {
                double delay = r.nextDouble() < 0.01 ? 1e6 * r.nextDouble() : r.nextDouble();
                add(cal, ref, now + delay, r.nextInt(1 << 20));
            }
            // drain to a small residue or to empty, occasionally re-adding near the front
            int keep = round % 2 == 0 ? 0 : 100;
            while (ref.size() > keep) {
                now = check(cal, ref);
                if (r.nextInt(4) == 0) {
                    int owner = cal.firstOwner();
                    ref.poll();
                    double t = now + r.nextDouble() * 2;
                    cal.replaceFirst(t, owner);
                    ref.add(new double[] {t, owner});
                } else {
                    ref.poll();
                    cal.removeFirst();
                }
                assertEquals(ref.size(), cal.size());
            }
            now += round * 1e9; // a long quiet time before the next burst
            // each event and each list's last chunk, with the pool's growth margin: rebuilds leak nothing
            peak = Math.max(peak, target);
            assertTrue(cal.poolChunks() <= 2 * (peak / EventCalendar.CHUNK + EventCalendar.FINE + EventCalendar.COARSE + 1) + 64,
                    () -> cal.poolChunks() + " chunks");
        }
        drain(cal, ref);
    }

    /**
     * Events more than 2^50 bucket widths after the others: met when the calendar is empty (it
     * restarts there) and when only they remain (it rebuilds around them).
     */
    @Test
    void farFutureEvents() {
        SplittableRandom r = new SplittableRandom(9);
        EventCalendar cal = new EventCalendar(1);
        PriorityQueue<double[]> ref = new PriorityQueue<>(ORDER);
        for (int i = 0; i < 10_000; i++) {
            add(cal, ref, r.nextDouble(), i);
        }
        for (int i = 0; i < 100; i++) {
            add(cal, ref, 1e16 + 1e6 * r.nextDouble(), i); // far beyond the buckets: the overflow
        }
        while (ref.size() > 100) {
            check(cal, ref);
            ref.poll();
            cal.removeFirst();
        }
        drain(cal, ref); // jumps to the far events
        for (int i = 0; i < 10_000; i++) {
            add(cal, ref, r.nextDouble(), i);
        }
        while (!ref.isEmpty()) {
            check(cal, ref);
            ref.poll();
            cal.removeFirst();
        }
        add(cal, ref, 3e17, 1); // empty: restarts far away
        for (int i = 0; i < 5_000; i++) {
            add(cal, ref, 3e17 + 1e4 * r.nextDouble(), r.nextInt(100));
        }
        drain(cal, ref);
    }

    /** 150 000 events pending: the chunk pool grows. */
    @Test
    void manyPending() {
        SplittableRandom r = new SplittableRandom(8);
        run(r, 400_000, 1 << 30, () -> -Math.log(1 - r.nextDouble()), 0.0, 150_000);
    }

    /**
     * A random mix of adds, removals and replacements; the pending count drifts towards
     * {@code pending} (0: no drift).
     */
    private static void run(SplittableRandom r, int steps, int owners, DoubleSupplier delay, double earlyShare,
            int pending) {
        EventCalendar cal = new EventCalendar(1);
        PriorityQueue<double[]> ref = new PriorityQueue<>(ORDER);
        double now = 0;
        for (int step = 0; step < steps; step++) {
            int op = r.nextInt(3);
            if (pending > 0) {
                // grow to the target, then hover around it
                op = ref.size() < pending ? (r.nextInt(4) == 0 ? 2 : 0) : r.nextInt(3);
            }
            if (op == 0 || ref.isEmpty()) {
                double t = r.nextDouble() < earlyShare ? now * r.nextDouble() : now + delay.getAsDouble();
                add(cal, ref, t, r.nextInt(owners));
            } else {
                now = check(cal, ref);
                int owner = cal.firstOwner();
                ref.poll();
                if (op == 1) {
                    cal.removeFirst();
                } else {
                    double t = now + delay.getAsDouble();
                    cal.replaceFirst(t, owner);
                    ref.add(new double[] {t, owner});
                }
            }
            assertEquals(ref.size(), cal.size());
        }
        drain(cal, ref);
    }

    private static void add(EventCalendar cal, PriorityQueue<double[]> ref, double t, int who) {
        cal.add(t, who);
        ref.add(new double[] {t, who});
    }

    /**
     * Asserts that the calendar's first event is one of the reference's earliest (same time and owner)
     * and moves that event to the head of the reference; returns its time.
     */
    private static double check(EventCalendar cal, PriorityQueue<double[]> ref) {
        double time = ref.peek()[0];
        assertEquals(time, cal.firstTime());
        int owner = cal.firstOwner();
        List<double[]> tied = new ArrayList<>();
        while (!ref.isEmpty() && ref.peek()[0] == time) {
            tied.add(ref.poll());
        }
        double[] match = null;
        for (double[] e : tied) {
            if (match == null && (int) e[1] == owner) {
                match = e;
            } else {
                ref.add(e);
            }
        }
        assertTrue(match != null, () -> "owner " + owner + " has no event at " + time);
        match[1] = -1; // sorts first among the events at this time: the next poll returns it
        ref.add(match);
        return time;
    }

    private static void drain(EventCalendar cal, PriorityQueue<double[]> ref) {
        while (!ref.isEmpty()) {
            check(cal, ref);
            ref.poll();
            cal.removeFirst();
        }
        assertEquals(0, cal.size());
        assertEquals(Double.POSITIVE_INFINITY, cal.firstTime());
    }

    private static double gaussian(SplittableRandom r) {
        double u = r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }
}
