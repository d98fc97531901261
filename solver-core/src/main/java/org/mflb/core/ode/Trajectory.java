package org.mflb.core.ode;

import org.hipparchus.ode.DenseOutputModel;
import org.mflb.core.MflbException;

/**
 * The solution of {@code dx/dt = f(x, t)} on a {@link TimeGrid}: the states at the grid times, and
 * the integrator's continuous (dense) output between them, so {@link #stateAt(double)} is as
 * accurate at any time as at the grid points.
 */
public final class Trajectory {

    private final TimeGrid grid;
    private final double[][] states;
    private final DenseOutputModel denseOutput;

    /**
     * @param grid output times
     * @param states state at each grid time (kept, not copied)
     * @param denseOutput continuous output of the integration, or {@code null} for a single-time grid
     */
    public Trajectory(TimeGrid grid, double[][] states, DenseOutputModel denseOutput) {
        this.grid = grid;
        this.states = states;
        this.denseOutput = denseOutput;
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
     * @return the state at {@code t}, from the integrator's dense output (a new array)
     */
    public double[] stateAt(double t) {
        if (!(t >= grid.start() - 1e-12 && t <= grid.end() + 1e-12)) {
            throw MflbException.invalid("t", t, "in [" + grid.start() + ", " + grid.end() + "]");
        }
        if (denseOutput == null) {
            return states[0].clone();
        }
        double clamped = Math.min(Math.max(t, denseOutput.getInitialTime()), denseOutput.getFinalTime());
        return denseOutput.getInterpolatedState(clamped).getPrimaryState();
    }

    /** @return the state dimension */
    public int dimension() {
        return states[0].length;
    }
}
