package org.mflb.fluid;

import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;

/**
 * A transient of a fluid model: the tail vector {@code x(t)} on a time grid, with the integrator's
 * dense output in between, mean queue lengths, and the blocking probability of loss pools.
 */
public final class FluidTransient {

    private final TailModel model;
    private final Trajectory trajectory;

    FluidTransient(TailModel model, Trajectory trajectory) {
        this.model = model;
        this.trajectory = trajectory;
    }

    /** @return the model at the chosen truncation */
    public TailModel model() {
        return model;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return trajectory.grid();
    }

    /** @return the underlying trajectory of {@code (x_1, ..., x_K)} */
    public Trajectory trajectory() {
        return trajectory;
    }

    /** @return the tail vector {@code (1, x_1, ..., x_K)} at grid time {@code k} */
    public double[] tail(int k) {
        return TailVectors.withLevelZero(trajectory.state(k));
    }

    /** @return the tail vector {@code (1, x_1, ..., x_K)} at any time {@code t} of the grid's span (dense output) */
    public double[] tail(double t) {
        return TailVectors.withLevelZero(trajectory.stateAt(t));
    }

    /** @return mean jobs per server at grid time {@code k} */
    public double meanQueueLength(int k) {
        return TailVectors.mean(trajectory.state(k));
    }

    /** @return mean jobs per server at time {@code t} (dense output) */
    public double meanQueueLength(double t) {
        return TailVectors.mean(trajectory.stateAt(t));
    }

    /** @return the blocking probability at grid time {@code k} (loss pools; {@code NaN} otherwise) */
    public double blocking(int k) {
        return model.system().isLossy() ? model.lossProbability(grid().time(k), trajectory.state(k)) : Double.NaN;
    }

    /** @return the number of levels {@code K} kept */
    public int truncation() {
        return model.getDimension();
    }

    /** @return the largest estimated cut-off mass over the grid (0 for loss pools) */
    public double cutOffMass() {
        if (model.system().isLossy()) {
            return 0.0;
        }
        double max = 0;
        for (int k = 0; k < grid().size(); k++) {
            max = Math.max(max, TailVectors.cutOffMass(trajectory.state(k)));
        }
        return max;
    }
}
