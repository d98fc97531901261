package org.mflb.fluid.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.hipparchus.analysis.UnivariateFunction;
import org.hipparchus.analysis.solvers.BracketedUnivariateSolver;
import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.ode.DenseOutputModel;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.events.Action;
import org.hipparchus.ode.events.AdaptableInterval;
import org.hipparchus.ode.events.ODEEventDetector;
import org.hipparchus.ode.events.ODEEventHandler;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.hipparchus.ode.sampling.ODEStateInterpolator;
import org.hipparchus.ode.sampling.ODEStepHandler;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PiecewiseLinearRate;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;

/**
 * Integrates the memory fluid piece by piece: within a piece the active level {@code ℓ} is fixed and
 * the drift ({@link MemoryDrift}) is smooth; Dormand–Prince 8(5,3) (Hipparchus) with event detection
 * stops at the first of the two switches of {@code docs/models.md §1a}, located by a bracketing Brent
 * solver:
 * <ul>
 * <li>(a) the active level is emptied, {@code M_ℓ} reaches {@link MemoryLattice#EMPTY_LEVEL}: the
 * (at most 1e-14) mass left there takes its next job at once (to {@code (i+1, ℓ+1)}) and {@code ℓ}
 * moves up to {@code max{k ≤ k₀ : F_k > 0}}, {@code k₀} the lowest level with mass;</li>
 * <li>(b) the pool share {@code F_ℓ} reaches 0 (the levels below absorb every arrival): {@code ℓ}
 * moves down to {@code max{k < ℓ : F_k > 0}}, where mass then builds from 0.</li>
 * </ul>
 * Nothing is smoothed: the only approximation besides the integrator's tolerance is that a level with
 * less than 1e-14 of the servers counts as emptied. The integration also restarts at the knots of a
 * piecewise-linear {@code λ(t)}.
 */
final class MemorySolver {

    private static final int MAX_SWITCHES = 100_000;
    private static final int MAX_AT_ONE_TIME = 50;

    private final IntegratorSettings settings;
    private final MemoryLattice lattice;
    private final int d;

    MemorySolver(IntegratorSettings settings, MemoryLattice lattice, int d) {
        this.settings = settings;
        this.lattice = lattice;
        this.d = d;
    }

    /** One Hipparchus run with a fixed active level. */
    record Segment(MemoryDrift drift, DenseOutputModel dense, double start, double end) {
        double[] stateAt(double t) {
            double clamped = Math.min(Math.max(t, dense.getInitialTime()), dense.getFinalTime());
            return drift.decode(dense.getInterpolatedState(clamped).getPrimaryState());
        }
    }

    /** The states and active levels at the grid times, every switch, and the runs. */
    record Solution(double[][] states, int[] levelAtGrid, List<MemorySwitch> switches, List<Segment> segments) {
        double[] stateAt(double t) {
            if (segments.isEmpty()) {
                return states[0].clone();
            }
            for (Segment s : segments) {
                if (t <= s.end()) {
                    return s.stateAt(t);
                }
            }
            return segments.get(segments.size() - 1).stateAt(t);
        }

        int levelAt(double t) {
            if (segments.isEmpty()) {
                return levelAtGrid[0];
            }
            for (Segment s : segments) {
                if (t <= s.end()) {
                    return s.drift().activeLevel();
                }
            }
            return segments.get(segments.size() - 1).drift().activeLevel();
        }
    }

    /**
     * The active level at a state: {@code ℓ = max{k ≤ k₀ : F_k ≥ 0}}, {@code k₀} the lowest level
     * with mass ({@code F} decreases in {@code k}, {@code F_0 = 1}).
     */
    int initialLevel(double[] y) {
        int k0 = lattice.lowestOccupied(y);
        double[] f = MemoryLattice.poolShares(lattice.queueLaw(y), d);
        int ell = 0;
        for (int k = 1; k <= k0; k++) {
            if (f[k] > 0) {
                ell = k;
            } else {
                break;
            }
        }
        return ell;
    }

    Solution solve(ArrivalRate lambda, double[] y0, TimeGrid grid) {
        double[] y = y0.clone();
        double t = grid.start();
        int ell = initialLevel(y);
        checkRoom(ell);
        double[][] states = new double[grid.size()][];
        int[] levels = new int[grid.size()];
        states[0] = y.clone();
        levels[0] = ell;
        List<MemorySwitch> switches = new ArrayList<>();
        List<Segment> segments = new ArrayList<>();
        double[] knots = lambda instanceof PiecewiseLinearRate p ? p.times() : new double[0];
        int[] next = {1};
        int atSameTime = 0;
        while (next[0] < grid.size()) {
            if (t >= grid.end()) {
                while (next[0] < grid.size()) {
                    states[next[0]] = y.clone();
                    levels[next[0]++] = ell;
                }
                break;
            }
            MemoryDrift drift = new MemoryDrift(lattice, d, ell);
            double target = nextStop(knots, t, grid.end());
            int[] fired = {-1};
            double[] absolute = new double[lattice.size];
            Arrays.fill(absolute, settings.absoluteTolerance());
            // M_ℓ is integrated to relative accuracy, so that its zero is located at the right time
            absolute[MemoryLattice.index(ell, ell)] *= 1e-10;
            double[] relative = new double[lattice.size];
            Arrays.fill(relative, settings.relativeTolerance());
            DormandPrince853Integrator integrator = new DormandPrince853Integrator(
                    1e-14 * Math.max(1, Math.abs(grid.end())), Math.min(settings.maxStep(), grid.end() - grid.start()),
                    absolute, relative);
            integrator.addEventDetector(new Crossing(u -> MemoryLattice.EMPTY_LEVEL - drift.activeMass(u), 0, fired));
            integrator.addEventDetector(new Crossing(u -> -drift.activeMass(u) - MemoryLattice.EMPTY_LEVEL, 0, fired));
            if (ell > 0) {
                integrator.addEventDetector(new Crossing(u -> -drift.poolShare(u), 1, fired));
            }
            DenseOutputModel dense = new DenseOutputModel();
            integrator.addStepHandler(dense);
            integrator.addStepHandler(new Sampler(drift, grid, states, levels, next));
            double start = t;
            ODEStateAndDerivative end;
            try {
                end = integrator.integrate(new Ode(drift, lambda, lattice.size), new ODEState(t, drift.encode(y)), target);
            } catch (MathIllegalStateException | MathIllegalArgumentException e) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "the memory fluid could not be integrated past t = " + t + " at active level " + ell + ": "
                                + e.getMessage());
            }
            t = end.getTime();
            y = drift.decode(end.getPrimaryState());
            segments.add(new Segment(drift, dense, start, t));
            if (fired[0] < 0) {
                continue;
            }
            int from = ell;
            MemorySwitch.Cause cause;
            if (fired[0] == 0) {
                cause = MemorySwitch.Cause.LEVEL_EMPTIED;
                pushUp(y, ell);
                ell = initialLevel(y);
            } else {
                cause = MemorySwitch.Cause.POOL_EXHAUSTED;
                double[] f = MemoryLattice.poolShares(lattice.queueLaw(y), d);
                int lower = 0;
                for (int k = 1; k < ell; k++) {
                    if (f[k] > 0) {
                        lower = k;
                    } else {
                        break;
                    }
                }
                ell = lower;
            }
            checkRoom(ell);
            atSameTime = !switches.isEmpty() && switches.get(switches.size() - 1).t() == t ? atSameTime + 1 : 0;
            switches.add(new MemorySwitch(t, from, ell, cause));
            if (atSameTime > MAX_AT_ONE_TIME || switches.size() > MAX_SWITCHES) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the memory fluid switches its active level"
                        + " endlessly at t = " + t + " (between " + from + " and " + ell + ")");
            }
        }
        return new Solution(states, levels, switches, segments);
    }

    /** The mass left at an emptied level takes its next job: {@code (i, ℓ) → (i+1, ℓ+1)}. */
    private void pushUp(double[] y, int ell) {
        int base = MemoryLattice.index(0, ell);
        int above = MemoryLattice.index(0, ell + 1);
        for (int i = ell; i >= 0; i--) {
            y[above + i + 1] += y[base + i];
            y[base + i] = 0.0;
        }
    }

    private void checkRoom(int ell) {
        if (ell + 1 > lattice.levels) {
            throw new MflbException(ErrorKind.TRUNCATION, "truncation", "the active level reached " + ell + " of the "
                    + lattice.levels + " observation levels kept; increase the truncation");
        }
    }

    private static double nextStop(double[] knots, double t, double end) {
        int i = Arrays.binarySearch(knots, t);
        i = i >= 0 ? i + 1 : -i - 1;
        return i < knots.length && knots[i] < end ? knots[i] : end;
    }

    private record Ode(MemoryDrift drift, ArrivalRate lambda, int dimension) implements OrdinaryDifferentialEquation {
        @Override
        public int getDimension() {
            return dimension;
        }

        @Override
        public double[] computeDerivatives(double t, double[] u) {
            double[] f = new double[u.length];
            drift.derivatives(lambda.at(t), u, f);
            return f;
        }
    }

    /** A switching function of the coordinates; the piece ends when it crosses 0 upward. */
    private interface Switching {
        double value(double[] u);
    }

    private static final class Crossing implements ODEEventDetector, ODEEventHandler {
        private static final BracketedUnivariateSolver<UnivariateFunction> SOLVER =
                new BracketingNthOrderBrentSolver(1e-15, 1e-15, 1e-22, 5);
        private static final AdaptableInterval CHECK = AdaptableInterval.of(0.05);
        private final Switching g;
        private final int cause;
        private final int[] fired;

        Crossing(Switching g, int cause, int[] fired) {
            this.g = g;
            this.cause = cause;
            this.fired = fired;
        }

        @Override
        public AdaptableInterval getMaxCheckInterval() {
            return CHECK;
        }

        @Override
        public int getMaxIterationCount() {
            return 200;
        }

        @Override
        public BracketedUnivariateSolver<UnivariateFunction> getSolver() {
            return SOLVER;
        }

        @Override
        public ODEEventHandler getHandler() {
            return this;
        }

        @Override
        public double g(ODEStateAndDerivative state) {
            return g.value(state.getPrimaryState());
        }

        @Override
        public Action eventOccurred(ODEStateAndDerivative state, ODEEventDetector detector, boolean increasing) {
            if (!increasing) {
                return Action.CONTINUE;
            }
            fired[0] = cause;
            return Action.STOP;
        }
    }

    private static final class Sampler implements ODEStepHandler {
        private final MemoryDrift drift;
        private final TimeGrid grid;
        private final double[][] states;
        private final int[] levels;
        private final int[] next;

        Sampler(MemoryDrift drift, TimeGrid grid, double[][] states, int[] levels, int[] next) {
            this.drift = drift;
            this.grid = grid;
            this.states = states;
            this.levels = levels;
            this.next = next;
        }

        @Override
        public void handleStep(ODEStateInterpolator interpolator) {
            double end = interpolator.getCurrentState().getTime();
            while (next[0] < grid.size() && grid.time(next[0]) <= end) {
                double tk = grid.time(next[0]);
                states[next[0]] = drift.decode(interpolator.getInterpolatedState(tk).getPrimaryState());
                levels[next[0]++] = drift.activeLevel();
            }
        }
    }
}
