package org.mflb.fluid;

import java.util.Optional;

import org.mflb.core.MflbException;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;
import org.mflb.fluid.memory.MemoryTransient;
import org.mflb.fluid.nonsmooth.PiecewiseSmoothSolver;
import org.mflb.fluid.nonsmooth.RegimeHistory;

/**
 * A transient of a fluid model, any policy: the tail vector {@code x(t)} on a time grid and at any
 * time in between, mean queue lengths, the truncation and the mass it cuts off, and the
 * blocking probability of loss pools. What depends on the kind of drift is optional:
 * <ul>
 * <li>smooth drifts: the drift at the chosen truncation ({@link #smoothDrift()}, for refined
 *     mean-field expansions) and the integrator's trajectory ({@link #trajectory()});</li>
 * <li>non-smooth drifts: the piece in force at each grid time, every switch, the threshold and its
 *     jumps ({@link #regimes()}).</li>
 * </ul>
 * Only the grid is kept (memory does not grow with the length of the run): between grid times the
 * state is integrated afresh from the grid time before, with the same tolerances, from the full state
 * there (non-smooth drifts: the piece in force and the learning threshold's value then; SQ(d) with
 * memory: the active level), never from the start.
 */
public final class FluidTransient {

    /** The smooth drift and its trajectory; null for a non-smooth policy. */
    private final TailModel model;
    private final Trajectory trajectory;
    /** The piecewise-smooth solution; null for a smooth policy. */
    private final PiecewiseSmoothSolver.Solution solution;
    private final RegimeHistory regimes;
    /** The transient of SQ(d) with memory; null for the other policies. */
    private final MemoryTransient memory;

    private FluidTransient(TailModel model, Trajectory trajectory, PiecewiseSmoothSolver.Solution solution,
            MemoryTransient memory) {
        this.model = model;
        this.trajectory = trajectory;
        this.solution = solution;
        this.regimes = solution == null ? null : solution.regimes();
        this.memory = memory;
    }

    /** @return the transient of a smooth drift */
    static FluidTransient smooth(TailModel model, Trajectory trajectory) {
        return new FluidTransient(model, trajectory, null, null);
    }

    /** @return the transient of a non-smooth drift (never loss pools) */
    static FluidTransient switched(PiecewiseSmoothSolver.Solution solution) {
        return new FluidTransient(null, null, solution, null);
    }

    /** @return the transient of SQ(d) with memory */
    static FluidTransient memory(MemoryTransient memory) {
        return new FluidTransient(null, null, null, memory);
    }

    /** @return the output times */
    public TimeGrid grid() {
        return trajectory != null ? trajectory.grid() : memory != null ? memory.grid() : solution.grid();
    }

    /** @return {@code (x_1..x_K)} at grid time {@code k} (a copy) */
    public double[] state(int k) {
        return trajectory != null ? trajectory.state(k).clone() : memory != null ? memory.levels(k) : projected(solution.state(k));
    }

    /**
     * @param t a time in the grid's span
     * @return {@code (x_1..x_K)} at {@code t} (a new array): the grid state at a grid time, else
     *         integrated from the grid time before (at most one grid interval of work)
     */
    public double[] stateAt(double t) {
        if (trajectory != null) {
            return trajectory.stateAt(t);
        }
        if (memory != null) {
            return memory.levelsAt(t);
        }
        if (!(t >= grid().start() - 1e-12 && t <= grid().end() + 1e-12)) {
            throw MflbException.invalid("t", t, "in [" + grid().start() + ", " + grid().end() + "]");
        }
        return projected(solution.stateAt(t));
    }

    /**
     * The invariant every output keeps, {@code 1 ≥ x_1 ≥ … ≥ x_K ≥ 0}: the pieces of a non-smooth
     * drift are integrated separately and their rounding (~1e-13) may leave it.
     */
    private static double[] projected(double[] x) {
        TailVectors.project(x);
        return x;
    }

    /** @return the tail vector {@code (1, x_1, ..., x_K)} at grid time {@code k} */
    public double[] tail(int k) {
        return TailVectors.withLevelZero(state(k));
    }

    /** @return the tail vector {@code (1, x_1, ..., x_K)} at any time {@code t} of the grid's span ({@link #stateAt}) */
    public double[] tail(double t) {
        return TailVectors.withLevelZero(stateAt(t));
    }

    /** @return mean jobs per server at grid time {@code k} */
    public double meanQueueLength(int k) {
        return TailVectors.mean(state(k));
    }

    /** @return mean jobs per server at time {@code t} ({@link #stateAt}) */
    public double meanQueueLength(double t) {
        return TailVectors.mean(stateAt(t));
    }

    /** @return the blocking probability at grid time {@code k} (loss pools; {@code NaN} otherwise) */
    public double blocking(int k) {
        return model != null && model.system().isLossy() ? model.lossProbability(grid().time(k), trajectory.state(k)) : Double.NaN;
    }

    /** @return the number of levels {@code K} kept */
    public int truncation() {
        return model != null ? model.getDimension() : memory != null ? memory.truncation() : solution.levels();
    }

    /**
     * @return the largest estimated cut-off mass over the grid: 0 for loss pools; for a smooth drift
     *         {@link TailVectors#cutOffMass}; for a non-smooth one {@code x_K r/(1 − r)} with
     *         {@code r = x_K/x_{K−1}} (tails of these policies decay at least geometrically beyond the
     *         threshold), or {@code K x_K} when the tail does not decrease there
     */
    public double cutOffMass() {
        if (model != null && model.system().isLossy() || memory != null) {
            return 0.0; // loss pools hold at most C; the memory state lives on the levels kept (MemoryTransient)
        }
        double max = 0;
        for (int k = 0; k < grid().size(); k++) {
            max = Math.max(max, model != null ? TailVectors.cutOffMass(trajectory.state(k))
                    : SwitchedFluid.cutOffMass(state(k)));
        }
        return max;
    }

    /** @return for a smooth policy, its drift at the chosen truncation; empty for non-smooth policies */
    public Optional<TailModel> smoothDrift() {
        return Optional.ofNullable(model);
    }

    /** @return for a smooth policy, the integrator's trajectory of {@code (x_1, ..., x_K)}; empty otherwise */
    public Optional<Trajectory> trajectory() {
        return Optional.ofNullable(trajectory);
    }

    /** @return for a non-smooth policy, the pieces in force, the switches and the threshold's jumps; empty otherwise */
    public Optional<RegimeHistory> regimes() {
        return Optional.ofNullable(regimes);
    }

    /**
     * @return for SQ(d) with memory, the (queue, observation) state, the active level and its switches,
     *         the shares of jobs to idle and believed-idle servers and {@code s_j}; empty otherwise
     */
    public Optional<MemoryTransient> memory() {
        return Optional.ofNullable(memory);
    }
}
