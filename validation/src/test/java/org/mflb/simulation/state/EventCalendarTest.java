package org.mflb.simulation.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** {@link EventCalendar} delivers events in time order, like a reference priority queue. */
class EventCalendarTest {

    @Test
    void matchesReferenceQueue() {
        SplittableRandom r = new SplittableRandom(3);
        EventCalendar cal = new EventCalendar(1);
        PriorityQueue<double[]> ref = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        double now = 0;
        for (int step = 0; step < 50_000; step++) {
            int op = r.nextInt(3);
            if (op == 0 || ref.isEmpty()) {
                double t = now + r.nextDouble() * 10;
                int who = r.nextInt(1000);
                cal.add(t, who);
                ref.add(new double[] {t, who});
            } else {
                double[] first = ref.poll();
                assertEquals(first[0], cal.firstTime());
                assertEquals((int) first[1], cal.firstOwner());
                now = first[0];
                if (op == 1) {
                    cal.removeFirst();
                } else {
                    double t = now + r.nextDouble() * 10;
                    int who = r.nextInt(1000);
                    cal.replaceFirst(t, who);
                    ref.add(new double[] {t, who});
                }
            }
            assertEquals(ref.size(), cal.size());
        }
        while (!ref.isEmpty()) {
            assertEquals(ref.poll()[0], cal.firstTime());
            cal.removeFirst();
        }
        assertEquals(Double.POSITIVE_INFINITY, cal.firstTime());
    }
}
