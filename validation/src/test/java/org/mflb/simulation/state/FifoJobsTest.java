package org.mflb.simulation.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** {@link FifoJobs} keeps first-in-first-out order per server, across growth of its slot pool. */
class FifoJobsTest {

    @Test
    void firstInFirstOutPerServer() {
        SplittableRandom r = new SplittableRandom(5);
        int n = 13;
        FifoJobs jobs = new FifoJobs(n, 1);
        @SuppressWarnings("unchecked")
        ArrayDeque<Double>[] ref = new ArrayDeque[n];
        for (int s = 0; s < n; s++) {
            ref[s] = new ArrayDeque<>();
        }
        for (int step = 0; step < 100_000; step++) {
            int s = r.nextInt(n);
            if (!ref[s].isEmpty() && r.nextInt(100) < 48) {
                assertEquals(ref[s].poll(), jobs.pop(s));
            } else {
                double t = step;
                jobs.push(s, t);
                ref[s].add(t);
            }
        }
        for (int s = 0; s < n; s++) {
            while (!ref[s].isEmpty()) {
                assertEquals(ref[s].poll(), jobs.pop(s));
            }
        }
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
