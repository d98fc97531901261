package org.mflb.fluid.memory;

import java.util.ArrayList;
import java.util.List;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.ChatterGuard;
import org.mflb.core.ode.DormandPrince853;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.LocalRate;
import org.mflb.core.ode.PieceIntegration;
import org.mflb.core.ode.SwitchedIntegrator;
import org.mflb.core.ode.TimeGrid;

/**
 * Integrates the memory fluid piece by piece: within a piece the active level {@code ℓ} is fixed and
 * the drift ({@link MemoryDrift}, evaluated without allocating) is smooth; Dormand–Prince 8(5,3),
 * step by step ({@link SwitchedIntegrator}: crossings found on each step's polynomial and located on
 * steps of the method, steps landing on the knots of {@code λ(t)}, {@code λ} on a clock started at
 * the last stop), stops at the first of the two switches of {@code docs/models.md §1a}:
 * <ul>
 * <li>(a) the active level is emptied, {@code M_ℓ} reaches {@link MemoryLattice#EMPTY_LEVEL}: the
 * (at most 1e-14) mass left there takes its next job at once (to {@code (i+1, ℓ+1)}) and {@code ℓ}
 * moves up to {@code max{k ≤ k₀ : F_k > 0}}, {@code k₀} the lowest level with mass;</li>
 * <li>(b) the pool share {@code F_ℓ} reaches 0 (the levels below absorb every arrival): {@code ℓ}
 * moves down to {@code max{k < ℓ : F_k > 0}}, where mass then builds from 0.</li>
 * </ul>
 * Nothing is smoothed: the only approximation besides the integrator's tolerance is that a level with
 * less than 1e-14 of the servers counts as emptied. As for {@code PiecewiseSmoothSolver}, only the grid
 * is kept and the path does not depend on it.
 */
final class MemorySolver {

    private final IntegratorSettings settings;
    private final MemoryLattice lattice;
    private final int d;

    MemorySolver(IntegratorSettings settings, MemoryLattice lattice, int d) {
        this.settings = settings;
        this.lattice = lattice;
        this.d = d;
    }

    /**
     * The states and active levels at the grid times, every switch, and where an integration between
     * grid times starts: the state at each grid time and the active level in force from it on (after
     * any switch located within rounding of it).
     */
    final class Solution {
        private final ArrivalRate lambda;
        private final TimeGrid grid;
        private final double[][] states;
        private final int[] levelAtGrid;
        private final double[][] startsFrom;
        private final int[] levelsFrom;
        private final List<MemorySwitch> switches;

        private Solution(Course course) {
            this.lambda = course.lambda;
            this.grid = course.grid;
            this.states = course.states;
            this.levelAtGrid = course.levels;
            this.startsFrom = course.startsFrom;
            this.levelsFrom = course.levelsFrom;
            this.switches = course.switches;
        }

        /** @return {@code y} at grid time {@code k} (not a copy) */
        double[] state(int k) {
            return states[k];
        }

        /** @return the active level at grid time {@code k} (the one integrated up to it) */
        int levelAtGrid(int k) {
            return levelAtGrid[k];
        }

        /** @return every switch, in time order */
        List<MemorySwitch> switches() {
            return switches;
        }

        /**
         * The state and active level at any time of the grid's span: at a grid time the recorded ones;
         * between grid times integrated afresh (same tolerances and switches) from the grid time before,
         * never from the start, at the cost of at most one grid interval of integration.
         *
         * @param t a time, clamped to the grid's span
         * @return {@code y} at {@code t} (a new array) and, in {@code level[0]}, the active level there
         */
        double[] stateAt(double t, int[] level) {
            double clamped = Math.min(Math.max(t, grid.start()), grid.end());
            int lo = grid.indexAtOrBefore(clamped);
            if (clamped == grid.time(lo)) {
                level[0] = levelAtGrid[lo];
                return states[lo].clone();
            }
            Course course = new Course(lambda, TimeGrid.of(grid.time(lo), clamped));
            course.run(startsFrom[lo], levelsFrom[lo]);
            level[0] = course.levels[1];
            return course.states[1];
        }
    }

    /**
     * The active level at a state: {@code ℓ = max{k ≤ k₀ : F_k ≥ 0}}, {@code k₀} the lowest level
     * with mass ({@code F} decreases in {@code k}, {@code F_0 = 1}).
     */
    int initialLevel(double[] y) {
        int k0 = lattice.lowestOccupied(y);
        return lastWithPoolShare(MemoryLattice.poolShares(lattice.queueLaw(y), d), k0);
    }

    /** @return the largest {@code ℓ ≤ last} with {@code F_1, ..., F_ℓ > 0} (0 when {@code F_1 ≤ 0}) */
    private static int lastWithPoolShare(double[] f, int last) {
        int ell = 0;
        while (ell < last && f[ell + 1] > 0) {
            ell++;
        }
        return ell;
    }

    Solution solve(ArrivalRate lambda, double[] y0, TimeGrid grid) {
        int ell = initialLevel(y0);
        checkRoom(ell);
        Course course = new Course(lambda, grid);
        course.run(y0.clone(), ell);
        return new Solution(course);
    }

    /** One integration over a grid, piece by piece, recording the grid times as it passes them. */
    private final class Course {
        final ArrivalRate lambda;
        final TimeGrid grid;
        final double[][] states;
        final int[] levels;
        final double[][] startsFrom;
        final int[] levelsFrom;
        final List<MemorySwitch> switches = new ArrayList<>();
        private final double[] knots;
        /** The first grid index not yet recorded. */
        private final int[] next = {1};
        private final SwitchedIntegrator integrator;
        /** {@code λ} on the clock of the stretch being integrated. */
        private final LocalRate clock;

        Course(ArrivalRate lambda, TimeGrid grid) {
            this.lambda = lambda;
            this.grid = grid;
            this.states = new double[grid.size()][];
            this.levels = new int[grid.size()];
            this.startsFrom = new double[grid.size()][];
            this.levelsFrom = new int[grid.size()];
            this.knots = PieceIntegration.knots(lambda);
            this.clock = new LocalRate(lambda);
            this.integrator = new SwitchedIntegrator(grid.size() > 1 ? Math.min(settings.maxStep(), grid.end() - grid.start())
                    : Double.POSITIVE_INFINITY);
        }

        MemoryLattice lattice() {
            return lattice;
        }

        void record(int k, double[] y, int ell) {
            states[k] = y;
            levels[k] = ell;
            startsFrom[k] = y;
            levelsFrom[k] = ell;
        }

        /** Integrates from state {@code start} (kept) with active level {@code ell} at the grid's first time. */
        void run(double[] start, int ell) {
            double[] y = start;
            double t = grid.start();
            record(0, start, ell);
            clock.restart(t);
            Piece piece = new Piece(ell, clock);
            double[] u = piece.drift.encode(y);
            boolean resume = false;
            ChatterGuard chatter = new ChatterGuard();
            Sampler sampler = new Sampler(this);
            while (next[0] < grid.size()) {
                double target = PieceIntegration.nextStop(knots, t, grid.end());
                if (!(target > t)) {
                    double[] kept = piece.drift.decode(u);
                    while (next[0] < grid.size()) {
                        record(next[0]++, kept, ell);
                    }
                    break;
                }
                sampler.drift = piece.drift;
                int fired;
                try {
                    fired = integrator.integrate(piece, piece, t, u, target, piece.absolute, piece.relative, resume, sampler);
                } catch (MflbException e) {
                    throw new MflbException(e.kind(), null, "the memory fluid could not be integrated past t = " + t
                            + " at active level " + ell + ": " + e.getMessage());
                }
                t = integrator.time();
                if (fired < 0) {
                    clock.restart(t); // a knot of λ(t) or the end: the same piece from the same coordinates
                    resume = true;
                    continue;
                }
                clock.advance(integrator.localTime());
                y = piece.drift.decode(u);
                int from = ell;
                MemorySwitch.Cause cause;
                if (fired <= 1) {
                    cause = MemorySwitch.Cause.LEVEL_EMPTIED;
                    pushUp(y, ell);
                    ell = initialLevel(y);
                } else {
                    cause = MemorySwitch.Cause.POOL_EXHAUSTED;
                    ell = lastWithPoolShare(MemoryLattice.poolShares(lattice.queueLaw(y), d), ell - 1);
                }
                checkRoom(ell);
                switches.add(new MemorySwitch(t, from, ell, cause));
                if (chatter.chattering(t)) {
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the memory fluid switches its active level"
                            + " endlessly at t = " + t + " (between " + from + " and " + ell + ")");
                }
                int last = next[0] - 1;
                if (PieceIntegration.negligible(grid.time(last), t)) {
                    // a switch within rounding of the grid time just recorded: integration from there starts after it
                    startsFrom[last] = y.clone();
                    levelsFrom[last] = ell;
                }
                piece = new Piece(ell, clock);
                u = piece.drift.encode(y);
                resume = false;
            }
        }
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

    /**
     * The piece with active level {@code ℓ}: its drift in coordinates where {@code y_{ℓ,ℓ}} is replaced
     * by {@code M_ℓ}, integrated to relative accuracy so that its zero is located at the right time,
     * and the switching functions of {@code docs/models.md §1a}: {@code M_ℓ} falls to
     * {@link MemoryLattice#EMPTY_LEVEL} (or, never having grown, below {@code −EMPTY_LEVEL}), and for
     * {@code ℓ ≥ 1} the pool share {@code F_ℓ} falls to 0.
     */
    private final class Piece implements DormandPrince853.Field, SwitchedIntegrator.Switching {
        final MemoryDrift drift;
        final double[] absolute;
        final double[] relative;
        private final int count;
        private final LocalRate clock;

        Piece(int ell, LocalRate clock) {
            this.clock = clock;
            drift = new MemoryDrift(lattice, d, ell);
            absolute = PieceIntegration.absoluteTolerances(settings, lattice.size, MemoryLattice.index(ell, ell));
            relative = PieceIntegration.relativeTolerances(settings, lattice.size);
            count = ell > 0 ? 3 : 2;
        }

        @Override
        public void derivatives(double t, double[] u, double[] f) {
            drift.derivatives(clock.at(t), u, f);
        }

        @Override
        public int count() {
            return count;
        }

        @Override
        public double value(int k, double t, double[] u) {
            return switch (k) {
                case 0 -> MemoryLattice.EMPTY_LEVEL - drift.activeMass(u);
                case 1 -> -drift.activeMass(u) - MemoryLattice.EMPTY_LEVEL;
                default -> -drift.poolShare(u);
            };
        }
    }

    /** Records the state at every grid time an accepted step passes. */
    private static final class Sampler implements SwitchedIntegrator.Observer {
        private final Course course;
        MemoryDrift drift;

        Sampler(Course course) {
            this.course = course;
        }

        @Override
        public void accepted(SwitchedIntegrator.Step step) {
            TimeGrid grid = course.grid;
            int[] next = course.next;
            while (next[0] < grid.size() && grid.time(next[0]) <= step.end()) {
                int k = next[0]++;
                double[] u = new double[course.lattice().size];
                step.state(grid.time(k), u);
                course.record(k, drift.decode(u), drift.activeLevel());
            }
        }
    }
}
