package org.mflb.fluid.nonsmooth;

import java.util.ArrayList;
import java.util.List;

import org.mflb.core.ode.TimeGrid;

/**
 * What a transient of a non-smooth fluid adds to the tail vector (docs/models.md §3): the smooth
 * piece in force at each grid time, every switch between pieces, and for the threshold policies the
 * threshold {@code ℓ(t)} and, for the self-learning threshold, its jumps. Reached from a transient
 * by {@code FluidTransient.regimes()}.
 */
public final class RegimeHistory {

    /** A unit jump of the learning threshold at time {@code t}. */
    public record ThresholdJump(double t, int from, int to) {
    }

    private final NonSmoothPolicy policy;
    private final TimeGrid grid;
    private final Regime[] regimes;
    private final List<PiecewiseSmoothSolver.Switch> switches;

    RegimeHistory(NonSmoothPolicy policy, TimeGrid grid, Regime[] regimes, List<PiecewiseSmoothSolver.Switch> switches) {
        this.policy = policy;
        this.grid = grid;
        this.regimes = regimes.clone();
        this.switches = List.copyOf(switches);
    }

    /** @return the piece in force at grid time {@code k} (the one integrated up to it) */
    public Regime regime(int k) {
        return regimes[k];
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
            int declared = policy.declaredThreshold().orElse(regimes[0].threshold());
            addUnitJumps(jumps, grid.start(), declared, regimes[0].threshold());
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
}
