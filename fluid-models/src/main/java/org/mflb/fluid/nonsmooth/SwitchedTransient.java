package org.mflb.fluid.nonsmooth;

import java.util.ArrayList;
import java.util.List;

import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.TailVectors;

/**
 * A transient of a non-smooth fluid model: the tail vector on a time grid (with continuous output in
 * between: each piece's dense output, and for regime (a) the lower gaps integrated afresh from the
 * nearest checkpoint), the smooth piece in force at each grid time, every regime switch, and for
 * the self-learning threshold the threshold {@code ℓ(t)} and its jumps.
 */
public final class SwitchedTransient {

    /** A unit jump of the learning threshold at time {@code t}. */
    public record ThresholdJump(double t, int from, int to) {
    }

    private final NonSmoothModel model;
    private final PiecewiseSmoothSolver.Solution solution;
    private final Regime[] regimes;
    private final List<PiecewiseSmoothSolver.Switch> switches;

    SwitchedTransient(NonSmoothModel model, PiecewiseSmoothSolver.Solution solution) {
        this.model = model;
        this.solution = solution;
        this.regimes = solution.regimeAtGrid();
        this.switches = List.copyOf(solution.switches());
    }

    /** @return the model */
    public NonSmoothModel model() {
        return model;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return solution.grid();
    }

    /** @return {@code (x_1..x_K)} at grid time {@code k} (a copy) */
    public double[] state(int k) {
        return solution.states()[k].clone();
    }

    /**
     * @param t a time in the grid's span
     * @return {@code (x_1..x_K)} at {@code t} (a new array)
     */
    public double[] stateAt(double t) {
        if (!(t >= grid().start() - 1e-12 && t <= grid().end() + 1e-12)) {
            throw org.mflb.core.MflbException.invalid("t", t, "in [" + grid().start() + ", " + grid().end() + "]");
        }
        return solution.stateAt(t);
    }

    /** @return the tail vector {@code (1, x_1, ..., x_K)} at grid time {@code k} */
    public double[] tail(int k) {
        return TailVectors.withLevelZero(solution.states()[k]);
    }

    /** @return the tail vector at any time of the grid's span (continuous output) */
    public double[] tail(double t) {
        return TailVectors.withLevelZero(stateAt(t));
    }

    /** @return mean jobs per server at grid time {@code k} */
    public double meanQueueLength(int k) {
        return TailVectors.mean(solution.states()[k]);
    }

    /** @return mean jobs per server at time {@code t} (continuous output) */
    public double meanQueueLength(double t) {
        return TailVectors.mean(stateAt(t));
    }

    /** @return the piece in force at grid time {@code k} (the one integrated up to it) */
    public Regime regime(int k) {
        return regimes[k];
    }

    /**
     * @param k grid index
     * @return the response-time law for a job arriving at grid time {@code k}, from the piece in
     *         force there (docs/models.md §7)
     */
    public org.mflb.fluid.FluidResponseTime responseTime(int k) {
        return model.responseTime(regimes[k], model.arrivalRate().at(grid().time(k)), solution.states()[k]);
    }

    /** @return the threshold {@code ℓ} at grid time {@code k} (for JSQ: the minimum level) */
    public int threshold(int k) {
        return regimes[k].threshold();
    }

    /** @return every switch between pieces, in time order */
    public List<PiecewiseSmoothSolver.Switch> switches() {
        return switches;
    }

    /** @return the unit jumps of the threshold, in time order (several at one time if it moved by more than 1) */
    public List<ThresholdJump> thresholdJumps() {
        List<ThresholdJump> jumps = new ArrayList<>();
        if (regimes[0].threshold() != 0 || !switches.isEmpty()) {
            // the initial state itself may move ℓ(0) (e.g. ℓ(0) = 0 with every pool busy)
            int declared = model.policy() instanceof AdaptiveThreshold a ? a.initialThreshold() : regimes[0].threshold();
            addUnitJumps(jumps, grid().start(), declared, regimes[0].threshold());
        }
        for (PiecewiseSmoothSolver.Switch s : switches) {
            addUnitJumps(jumps, s.t(), s.from().threshold(), s.to().threshold());
        }
        return jumps;
    }

    private static void addUnitJumps(List<ThresholdJump> jumps, double t, int from, int to) {
        int step = Integer.signum(to - from);
        for (int l = from; l != to; l += step) {
            jumps.add(new ThresholdJump(t, l, l + step));
        }
    }

    /** @return the number of levels {@code K} kept */
    public int truncation() {
        return solution.states()[0].length;
    }

    /**
     * @return the largest estimated mass beyond level {@code K} over the grid: {@code x_K r/(1 − r)}
     *         with {@code r = x_K/x_{K−1}} (tails of these policies decay at least geometrically
     *         beyond the threshold), or {@code K x_K} when the tail does not decrease there
     */
    public double cutOffMass() {
        double max = 0;
        for (int k = 0; k < grid().size(); k++) {
            max = Math.max(max, cutOffMass(solution.states()[k]));
        }
        return max;
    }

    static double cutOffMass(double[] x) {
        int k = x.length;
        double last = x[k - 1];
        if (!(last > 0)) {
            return 0.0;
        }
        double r = last / x[k - 2];
        return r < 1 ? last * r / (1 - r) : k * last;
    }
}
