package org.mflb.validation;

import java.util.Arrays;

/**
 * Measures the wall time of a task the way a benchmark should: warm-up runs first (so the JIT has
 * compiled the hot code), then the median of repeated runs.
 */
public final class Stopwatch {

    private Stopwatch() {
    }

    /** The result of a measurement. */
    public record Timing(double medianSeconds, double minSeconds, int repetitions) {
    }

    /**
     * @param task the work to time
     * @param warmupSeconds run the task repeatedly for at least this long before measuring
     * @param repetitions measured runs, {@code ≥ 1}
     * @return median and minimum wall time
     */
    public static Timing time(Runnable task, double warmupSeconds, int repetitions) {
        long warmupEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
        do {
            task.run();
        } while (System.nanoTime() < warmupEnd);
        double[] seconds = new double[repetitions];
        for (int r = 0; r < repetitions; r++) {
            long start = System.nanoTime();
            task.run();
            seconds[r] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(seconds);
        return new Timing(seconds[repetitions / 2], seconds[0], repetitions);
    }
}
