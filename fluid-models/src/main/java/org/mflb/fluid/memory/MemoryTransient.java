package org.mflb.fluid.memory;

import java.util.List;

import org.mflb.core.MflbException;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.TailVectors;

/**
 * A transient of SQ(d) with memory ({@code docs/models.md §1a}): the state {@code y_{i,j}} on a time
 * grid (between grid times integrated afresh from the grid time before), the active level {@code ℓ} in force, every switch of it,
 * and the quantities of the fixed point at every grid time.
 */
public final class MemoryTransient {

    private final MemoryModel model;
    private final TimeGrid grid;
    private final MemoryLattice lattice;
    private final MemorySolver.Solution solution;

    MemoryTransient(MemoryModel model, TimeGrid grid, MemoryLattice lattice, MemorySolver.Solution solution) {
        this.model = model;
        this.grid = grid;
        this.lattice = lattice;
        this.solution = solution;
    }

    /** @return the model */
    public MemoryModel model() {
        return model;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return grid;
    }

    private double[] y(int k) {
        return solution.state(k);
    }

    /** @return {@code y} at {@code t} and, in {@code level[0]}, the active level there */
    private double[] yAt(double t, int[] level) {
        if (!(t >= grid.start() - 1e-12 && t <= grid.end() + 1e-12)) {
            throw MflbException.invalid("t", t, "in [" + grid.start() + ", " + grid.end() + "]");
        }
        return solution.stateAt(t, level);
    }

    /** @return {@code y} at grid time {@code k}, as rows {@code [j][i] = y_{i,j}} */
    public double[][] state(int k) {
        return lattice.rows(y(k));
    }

    /** @return {@code (x_1..x_K)} at grid time {@code k} */
    public double[] levels(int k) {
        return MemoryLattice.tail(lattice.queueLaw(y(k)));
    }

    /**
     * @return {@code (x_1..x_K)} at any time of the grid's span: between grid times integrated afresh
     *         from the grid time before, from its state and active level
     */
    public double[] levelsAt(double t) {
        return MemoryLattice.tail(lattice.queueLaw(yAt(t, new int[1])));
    }

    /** @return {@code (1, x_1..x_K)} at grid time {@code k} */
    public double[] tail(int k) {
        return TailVectors.withLevelZero(levels(k));
    }

    /** @return {@code (1, x_1..x_K)} at time {@code t} */
    public double[] tail(double t) {
        return TailVectors.withLevelZero(levelsAt(t));
    }

    /** @return mean jobs per server at grid time {@code k} */
    public double meanQueueLength(int k) {
        return TailVectors.mean(levels(k));
    }

    /** @return mean jobs per server at time {@code t} */
    public double meanQueueLength(double t) {
        return TailVectors.mean(levelsAt(t));
    }

    /** @return the active level {@code ℓ} at grid time {@code k} (the one integrated up to it) */
    public int activeLevel(int k) {
        return solution.levelAtGrid(k);
    }

    /** @return every switch of the active level, in time order */
    public List<MemorySwitch> switches() {
        return List.copyOf(solution.switches());
    }

    /** @return the share of arrivals sent to idle servers at grid time {@code k} */
    public double idleShare(int k) {
        return lattice.idleShare(y(k), activeLevel(k), model.policy().d());
    }

    /** @return the share of arrivals sent to servers believed idle ({@code m = 0}) at grid time {@code k} */
    public double believedIdleShare(int k) {
        return lattice.believedIdleShare(y(k), activeLevel(k), model.policy().d());
    }

    /** @return {@code E[m − Q]} at grid time {@code k} */
    public double meanObservationExcess(int k) {
        return lattice.meanObservationExcess(y(k));
    }

    /**
     * @return at grid time {@code k}, {@code s_j} = share of arrivals joining a queue with at least
     *         {@code j} jobs, {@code j = 0..K} ({@code s_0 = 1}); see {@link MemoryFixedPoint#joinShares()}
     */
    public double[] joinShares(int k) {
        return lattice.joinShares(y(k), activeLevel(k), model.policy().d());
    }

    /** @return at time {@code t}, the shares {@code s_j} (between grid times integrated as {@link #levelsAt}) */
    public double[] joinShares(double t) {
        int[] level = new int[1];
        double[] y = yAt(t, level);
        return lattice.joinShares(y, level[0], model.policy().d());
    }

    /** @return the largest queue length held by more than 1e-12 of the servers at grid time {@code k} */
    public int maxQueueLength(int k) {
        return lattice.maxQueueLength(y(k), 1e-12);
    }

    /** @return the observation levels kept, {@code K} */
    public int truncation() {
        return lattice.levels;
    }

    /**
     * @return the mass beyond the truncation: 0. Observations only take the values of the initial state
     *         and {@code ℓ + 1}, so the state reached lives on finitely many levels, all kept (the
     *         truncation grows until it holds them).
     */
    public double cutOffMass() {
        return 0.0;
    }
}
