package org.mflb.simulation.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link FifoJobs} keeps first-in-first-out order per server, in the rings, through the overflow
 * lists and across growth of the overflow pool.
 */
class FifoJobsTest {

    @Test
    void firstInFirstOutPerServer() {
        SplittableRandom r = new SplittableRandom(5);
        int n = 13;
        FifoJobs jobs = new FifoJobs(n);
        int maxLength = 0;
        @SuppressWarnings("unchecked")
        ArrayDeque<Double>[] ref = new ArrayDeque[n];
        for (int s = 0; s < n; s++) {
            ref[s] = new ArrayDeque<>();
        }
        for (int step = 0; step < 100_000; step++) {
            int s = r.nextInt(n);
            // slightly more pushes than pops: queues grow well past the ring length
            if (!ref[s].isEmpty() && r.nextInt(100) < 48) {
                int len = ref[s].size();
                assertEquals(ref[s].poll(), jobs.pop(s, len));
            } else {
                double t = step;
                jobs.push(s, ref[s].size(), t);
                ref[s].add(t);
            }
            maxLength = Math.max(maxLength, ref[s].size());
        }
        for (int s = 0; s < n; s++) {
            while (!ref[s].isEmpty()) {
                int len = ref[s].size();
                assertEquals(ref[s].poll(), jobs.pop(s, len));
            }
        }
        assertTrue(maxLength > 8 * FifoJobs.RING, "queues should overflow the rings, max = " + maxLength);
    }

    @Test
    void taskListRemovesTheIndexedTask() {
        TaskList tasks = new TaskList(1);
        for (int p = 0; p < 10; p++) {
            tasks.add(p);
        }
        assertEquals(3, tasks.removeAt(3));
        assertEquals(9, tasks.size());
        assertEquals(9, tasks.removeAt(3)); // the last one moved into the hole
        assertEquals(8, tasks.size());
    }
}
