package org.mflb.core.ode;

import org.mflb.core.MflbException;

/**
 * The solution of {@code dx/dt = f(x, t)} on a {@link TimeGrid}: the states at the grid times, and
 * between them the solution integrated afresh from the grid time before, with the same tolerances,
 * so {@link #stateAt(double)} is as accurate at any time as at the grid points while the memory
 * kept is that of the grid (never the whole dense output of a long integration).
 */
public final class Trajectory {

    /** Integrates the drift from a state at one time to a later time. */
    @FunctionalInterface
    public interface Propagator {
        /**
         * @param from initial time
         * @param x state at {@code from} (not modified)
         * @param to final time, {@code ≥ from}
         * @return the state at {@code to}
         */
        double[] propagate(double from, double[] x, double to);
    }

    private final TimeGrid grid;
    private final double[][] states;
    private final Propagator between;

    /**
     * @param grid output times
     * @param states state at each grid time (kept, not copied)
     * @param between integrates from a grid state to a time before the next, or {@code null} for a
     *        single-time grid
     */
    public Trajectory(TimeGrid grid, double[][] states, Propagator between) {
        this.grid = grid;
        this.states = states;
        this.between = between;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return grid;
    }

    /** @return the state at grid time {@code k} (a copy) */
    public double[] state(int k) {
        return states[k].clone();
    }

    /** @return the state at the last grid time (a copy) */
    public double[] finalState() {
        return states[states.length - 1].clone();
    }

    /**
     * @param t a time in {@code [grid.start(), grid.end()]}
     * @return the state at {@code t} (a new array): the grid state when {@code t} is a grid time,
     *         otherwise integrated from the grid time before
     */
    public double[] stateAt(double t) {
        if (!(t >= grid.start() - 1e-12 && t <= grid.end() + 1e-12)) {
            throw MflbException.invalid("t", t, "in [" + grid.start() + ", " + grid.end() + "]");
        }
        if (between == null) {
            return states[0].clone();
        }
        double clamped = Math.min(Math.max(t, grid.start()), grid.end());
        int k = 0;
        while (k + 1 < grid.size() && grid.time(k + 1) <= clamped) {
            k++;
        }
        double from = grid.time(k);
        return clamped == from ? states[k].clone() : between.propagate(from, states[k], clamped);
    }

    /** @return the state dimension */
    public int dimension() {
        return states[0].length;
    }
}
