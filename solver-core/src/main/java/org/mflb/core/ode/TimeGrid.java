package org.mflb.core.ode;

import java.util.Arrays;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The increasing times at which a transient is reported. The integrator steps adaptively and the
 * states at these times come from its dense output (no re-integration, no step-size constraint).
 */
public final class TimeGrid {

    private final double[] times;

    private TimeGrid(double[] times) {
        this.times = times;
    }

    /**
     * The grid {@code 0, dt, 2dt, ..., tEnd} (the last point is {@code tEnd} even if {@code dt}
     * does not divide it).
     *
     * @param tEnd final time, {@code > 0}
     * @param dt spacing, {@code 0 < dt ≤ tEnd}
     */
    public static TimeGrid uniform(double tEnd, double dt) {
        Require.positive("t-end", tEnd);
        Require.positive("dt", dt);
        if (dt > tEnd) {
            throw MflbException.invalid("dt", dt, "<= t-end (" + tEnd + ")");
        }
        long steps = (long) Math.floor(tEnd / dt * (1 + 1e-12));
        if (steps > 10_000_000L) {
            throw MflbException.invalid("dt", dt, ">= t-end/1e7 (at most 10^7 output times)");
        }
        boolean exact = Math.abs(steps * dt - tEnd) <= 1e-9 * tEnd;
        double[] t = new double[(int) steps + (exact ? 1 : 2)];
        for (int k = 0; k <= steps; k++) {
            t[k] = k * dt;
        }
        t[t.length - 1] = tEnd;
        return new TimeGrid(t);
    }

    /** @return a grid of the given strictly increasing, finite times ({@code >= 0}) */
    public static TimeGrid of(double... times) {
        if (times.length == 0) {
            throw MflbException.invalid("times", "[]", "at least one time");
        }
        for (int k = 0; k < times.length; k++) {
            Require.nonNegative("times[" + k + "]", times[k]);
            if (k > 0 && !(times[k] > times[k - 1])) {
                throw MflbException.invalid("times", Arrays.toString(times), "strictly increasing");
            }
        }
        return new TimeGrid(times.clone());
    }

    /** @return number of output times */
    public int size() {
        return times.length;
    }

    /** @return the {@code k}-th output time */
    public double time(int k) {
        return times[k];
    }

    /** @return the first time */
    public double start() {
        return times[0];
    }

    /** @return the last time */
    public double end() {
        return times[times.length - 1];
    }

    /** @return a copy of the times */
    public double[] toArray() {
        return times.clone();
    }

    /**
     * @param t a time
     * @return the index of the last output time {@code ≤ t} (0 when {@code t} is before the start)
     */
    public int indexAtOrBefore(double t) {
        int k = Arrays.binarySearch(times, t);
        return k >= 0 ? k : Math.max(0, -k - 2);
    }
}
