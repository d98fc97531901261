package org.mflb.fluid.nonsmooth;

import java.util.ArrayList;
import java.util.Arrays;
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
 * Integrates a piecewise-smooth fluid limit exactly, piece by piece. Each smooth piece
 * ({@link Regime}) is integrated in its own coordinates ({@link Piece}) by {@link SwitchedIntegrator}:
 * Dormand–Prince 8(5,3) step by step, its steps chosen by the error estimate and cut to land exactly
 * on the knots of a piecewise-linear {@code λ(t)} (never across one) and on the end; each accepted
 * step is searched for a crossing of the piece's switching functions on the step's own polynomial
 * (Bernstein bounds, no check interval), and a crossing found is verified and located to a few units
 * in the last place of the time on steps of the method itself, so that the state there lies on the
 * surface as found. The policy then chooses the next piece and pins its levels at exactly 1, and
 * integration resumes from there. Sliding pieces are integrated on their surface (the pinned levels
 * are not integrated). Regime (a) of the threshold policies, whose drift has the factor
 * {@code 1/(1 − x_ℓ)}, is integrated through its deficit ({@link DeficitPiece}, non-stiff) with the
 * split below the threshold integrated by an L-stable implicit method ({@link LowerGaps}). Nothing
 * is smoothed; the only approximation besides the integrator's tolerance is that a level within
 * {@link NonSmoothPolicy#ON_SURFACE} of 1 counts as on its surface.
 * <p>
 * <b>Time.</b> Each stretch between stops is integrated on a clock started at its beginning
 * ({@link LocalRate}): {@code λ} there is exact to the last place of the time since the last knot,
 * whatever {@code t} (formed in absolute time, at {@code t ≈ 1.7·10^4} the stage times moved
 * {@code λ} by more than the error allowed for the distance to a surface, and the integration died
 * of a "minimal step size"). A switch moves the clock's origin to where it was found, with {@code λ}
 * there the value the switching function saw, so that the policy decides on the same numbers.
 * <p>
 * <b>Work.</b> It grows with the number of pieces and with how smooth each is, not with the grid: the
 * steps do not depend on the output times (a grid time within a step gets a step of the method from
 * the step's start, as accurate as the step, where the step's polynomial may not be), so the path is
 * the same, bit for bit, whatever {@code dt}; a piece resumed past a knot keeps its step size; and
 * switches are not capped in number, only when they stop moving time forward ({@link ChatterGuard}).
 * <p>
 * <b>Memory.</b> Only the grid is kept, so that memory does not grow with the length of the run: the
 * full state and the piece in force at each grid time are recorded as the integration passes it,
 * with every switch; between grid times {@link Solution#stateAt} integrates afresh from the grid time
 * before. A linear piece ({@link LinearRelaxation}: regime (b) in pools, regime (a) with {@code ℓ = 1})
 * is not integrated for ever once {@code λ} stays constant: from the time its exact solution
 * provably lies within {@link #REST} of the integrator's tolerance of its rest point, and no switching
 * surface lies that close, the rest point is the state at every later grid time.
 */
public final class PiecewiseSmoothSolver {

    /**
     * A linear piece is at rest from the time its exact solution lies within this fraction of the
     * integrator's tolerance ({@code atol_i + rtol·|y_i*|}, smallest over the coordinates) of its rest
     * point {@code y*} for ever.
     */
    static final double REST = 1e-2;

    private final IntegratorSettings settings;

    /** @param settings integrator tolerances */
    public PiecewiseSmoothSolver(IntegratorSettings settings) {
        this.settings = settings;
    }

    /** A change of piece at time {@code t}. */
    public record Switch(double t, Regime from, Regime to) {
    }

    /**
     * Where an integration between grid times starts: the full state at a grid time and the piece in
     * force from it on (after any switch located within rounding of it; for the learning threshold its
     * threshold then). The gaps {@code 1 − x_j} are kept only for the leading levels where they are
     * not {@code 1.0 − x_j} to the last bit (the levels near 1, where they carry the precision).
     */
    private record Checkpoint(double[] x, double[] leadingGaps, Regime regime) {

        static Checkpoint of(double[] x, double[] gap, Regime regime) {
            int kept = gap.length;
            while (kept > 0 && gap[kept - 1] == 1.0 - x[kept - 1]) {
                kept--;
            }
            return new Checkpoint(x, Arrays.copyOf(gap, kept), regime);
        }

        double[] gaps() {
            double[] gap = new double[x.length];
            for (int j = 0; j < x.length; j++) {
                gap[j] = j < leadingGaps.length ? leadingGaps[j] : 1.0 - x[j];
            }
            return gap;
        }
    }

    /**
     * What {@link #solve} returns: the states and pieces at the grid times, every switch, and what it
     * takes to integrate from any grid time on (the state between grid times).
     */
    public static final class Solution {

        private final PiecewiseSmoothSolver solver;
        private final NonSmoothPolicy policy;
        private final ArrivalRate lambda;
        private final double[] mu;
        private final TimeGrid grid;
        private final double[][] states;
        private final Regime[] regimeAtGrid;
        private final Checkpoint[] checkpoints;
        private final List<Switch> switches;

        private Solution(PiecewiseSmoothSolver solver, Course course) {
            this.solver = solver;
            this.policy = course.policy;
            this.lambda = course.lambda;
            this.mu = course.mu;
            this.grid = course.grid;
            this.states = course.states;
            this.regimeAtGrid = course.regimes;
            this.checkpoints = course.checkpoints;
            this.switches = course.switches;
        }

        /** @return the output times */
        public TimeGrid grid() {
            return grid;
        }

        /** @return {@code (x_1..x_K)} at grid time {@code k} (a copy) */
        public double[] state(int k) {
            return states[k].clone();
        }

        /** @return the number of levels {@code K} */
        public int levels() {
            return states[0].length;
        }

        /**
         * The tail at any time of the grid's span: at a grid time its recorded state; between grid
         * times, integrated afresh (same tolerances, same switching surfaces) from the grid time before,
         * from the full state and the piece in force there, never from the start. It costs at most one
         * grid interval of integration.
         *
         * @param t a time, clamped to the grid's span
         * @return the tail {@code (x_1..x_K)} at {@code t} (a new array)
         */
        public double[] stateAt(double t) {
            double clamped = Math.min(Math.max(t, grid.start()), grid.end());
            int lo = grid.indexAtOrBefore(clamped);
            if (clamped == grid.time(lo)) {
                return states[lo].clone();
            }
            Course course = solver.new Course(policy, lambda, mu, TimeGrid.of(grid.time(lo), clamped));
            course.run(checkpoints[lo]);
            return course.states[1];
        }

        /** @return the pieces in force at the grid times, the switches and the threshold's jumps */
        public RegimeHistory regimes() {
            return new RegimeHistory(policy, grid, regimeAtGrid, switches);
        }
    }

    /**
     * @param policy the policy
     * @param lambda arrival rate {@code λ(t)}
     * @param mu departure rates, {@code mu[j−1] = μ_j}; not modified
     * @param x0 initial tail vector {@code (x_1..x_K)}; not modified
     * @param grid output times
     * @return the solution on {@code grid}
     */
    public Solution solve(NonSmoothPolicy policy, ArrivalRate lambda, double[] mu, double[] x0, TimeGrid grid) {
        int k = x0.length;
        double[] x = x0.clone();
        double[] gap = new double[k];
        double[] before = x.clone();
        Regime regime = policy.initialRegime(lambda.at(grid.start()), mu, x);
        syncGaps(before, x, gap, true);
        checkRoom(regime, k);
        Course course = new Course(policy, lambda, mu.clone(), grid);
        course.run(Checkpoint.of(x, gap, regime));
        return new Solution(this, course);
    }

    /** One integration over a grid, piece by piece, recording the grid times as it passes them. */
    private final class Course {
        final NonSmoothPolicy policy;
        final ArrivalRate lambda;
        final double[] mu;
        final TimeGrid grid;
        final double[][] states;
        final Regime[] regimes;
        final Checkpoint[] checkpoints;
        final List<Switch> switches = new ArrayList<>();
        private final double[] knots;
        private final SwitchedIntegrator integrator;
        /** {@code λ} on the clock of the stretch being integrated (the pieces' time). */
        private final LocalRate clock;
        /** The first grid index not yet recorded. */
        private final int[] next = {1};

        Course(NonSmoothPolicy policy, ArrivalRate lambda, double[] mu, TimeGrid grid) {
            this.policy = policy;
            this.lambda = lambda;
            this.mu = mu;
            this.grid = grid;
            this.states = new double[grid.size()][];
            this.regimes = new Regime[grid.size()];
            this.checkpoints = new Checkpoint[grid.size()];
            this.knots = PieceIntegration.knots(lambda);
            this.clock = new LocalRate(lambda);
            this.integrator = new SwitchedIntegrator(grid.size() > 1 ? Math.min(settings.maxStep(), grid.end() - grid.start())
                    : Double.POSITIVE_INFINITY);
        }

        /** Records grid time {@code k}; keeps the arrays. */
        void record(int k, double[] x, double[] gap, Regime regime) {
            states[k] = x;
            regimes[k] = regime;
            checkpoints[k] = Checkpoint.of(x, gap, regime);
        }

        /** Records the grid times up to {@code until} (all when infinite) with the state {@code (x, gap)}. */
        private void recordUpTo(double until, double[] x, double[] gap, Regime regime) {
            double[] kept = x.clone();
            Checkpoint at = Checkpoint.of(kept, gap, regime);
            while (next[0] < grid.size() && grid.time(next[0]) <= until) {
                int k = next[0]++;
                states[k] = kept;
                regimes[k] = regime;
                checkpoints[k] = at;
            }
        }

        /** Integrates from {@code start} at the grid's first time to its last. */
        void run(Checkpoint start) {
            int levels = mu.length;
            double t = grid.start();
            double[] x = start.x().clone();
            double[] gap = start.gaps();
            Regime regime = start.regime();
            record(0, start.x(), gap, regime);
            clock.restart(t);
            Stretch piece = new Stretch(pieceFor(policy, regime, clock, mu, levels, gap));
            double[] y = piece.piece.encode(0, x, gap);
            boolean resume = false; // whether the integrator goes on with the same piece from where it stopped
            double restsFrom = Double.NaN; // when the piece in force is at rest (NaN: not asked yet, +∞: never)
            double[] restPoint = null;
            ChatterGuard chatter = new ChatterGuard();
            Sampler sampler = new Sampler(this);
            while (next[0] < grid.size()) {
                double target = PieceIntegration.nextStop(knots, t, grid.end());
                piece.piece.clockRestarted();
                if (Double.isNaN(restsFrom)) {
                    restsFrom = Double.POSITIVE_INFINITY;
                    LinearRelaxation relaxation = clock.constantFromOrigin() ? piece.piece.relaxation(0) : null;
                    if (relaxation != null) {
                        restPoint = relaxation.restPoint(piece.piece.dimension());
                        double accuracy = REST * toleranceScale(restPoint, piece.absolute, piece.relative);
                        if (clearOfSurfaces(piece.piece, 0, restPoint, accuracy)) {
                            restsFrom = t + relaxation.settlingTime(y, accuracy);
                        }
                    }
                }
                if (restsFrom <= t || restsFrom < Double.POSITIVE_INFINITY && PieceIntegration.negligible(t, restsFrom)) {
                    // from here on the exact solution lies within REST of the tolerance of the rest point
                    piece.piece.decode(0, restPoint, x, gap);
                    recordUpTo(Double.POSITIVE_INFINITY, x, gap, regime);
                    break;
                }
                if (!(target > t)) {
                    // the end reached exactly where the piece ended: nothing left to integrate
                    piece.piece.decode(0, y, x, gap);
                    recordUpTo(Double.POSITIVE_INFINITY, x, gap, regime);
                    break;
                }
                sampler.piece = piece.piece;
                int fired;
                try {
                    fired = integrator.integrate(piece, piece, t, y, Math.min(target, restsFrom), piece.absolute,
                            piece.relative, resume, sampler);
                } catch (MflbException e) {
                    throw new MflbException(e.kind(), null, "the non-smooth fluid limit could not be integrated past t = "
                            + t + " in regime " + regime.describe() + ": " + e.getMessage());
                }
                t = integrator.time();
                if (fired < 0) {
                    // a knot of λ(t), the end, or where the piece rests: the same piece from the same coordinates
                    clock.restart(t);
                    restsFrom = askAgain(restsFrom);
                    resume = true;
                    continue;
                }
                piece.piece.decode(integrator.localTime(), y, x, gap);
                clock.advance(integrator.localTime());
                Regime.Surface surface = piece.piece.surface(fired);
                if (surface != null) {
                    double[] before = x.clone();
                    Regime following = policy.next(regime, surface, clock.at(0), mu, x);
                    syncGaps(before, x, gap, false);
                    checkRoom(following, levels);
                    switches.add(new Switch(t, regime, following));
                    if (chatter.chattering(t)) {
                        throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the fluid switches regime endlessly at t = "
                                + t + " between " + regime.describe() + " and " + following.describe() + " (chattering)");
                    }
                    regime = following;
                    int last = next[0] - 1;
                    if (PieceIntegration.negligible(grid.time(last), t)) {
                        // a switch within rounding of the grid time just recorded: integration from there starts after it
                        checkpoints[last] = Checkpoint.of(x.clone(), gap, regime);
                    }
                }
                piece = new Stretch(pieceFor(policy, regime, clock, mu, levels, gap));
                y = piece.piece.encode(0, x, gap);
                restsFrom = Double.NaN;
                resume = false;
            }
        }

        /** Past a knot λ may be constant from then on: a piece not at rest is asked again (NaN). */
        private double askAgain(double restsFrom) {
            return restsFrom == Double.POSITIVE_INFINITY ? Double.NaN : restsFrom;
        }

        /**
         * Whether no switching function of the piece reaches 0 within {@code accuracy} of {@code rest}
         * (they depend on {@code y_0} alone, affinely: the two ends of the range decide).
         */
        private boolean clearOfSurfaces(Piece piece, double t, double[] rest, double accuracy) {
            double[] probe = rest.clone();
            for (double shift : new double[] {-accuracy, accuracy}) {
                probe[0] = rest[0] + shift;
                for (int s = 0; s < piece.switches(); s++) {
                    if (!(piece.switchingFunction(s, t, probe) < 0)) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    /** @return {@code min_i (atol_i + rtol_i |y_i|)}: the smallest error the integrator allows a coordinate */
    private static double toleranceScale(double[] y, double[] absolute, double[] relative) {
        double scale = Double.POSITIVE_INFINITY;
        for (int i = 0; i < y.length; i++) {
            scale = Math.min(scale, absolute[i] + relative[i] * Math.abs(y[i]));
        }
        return scale;
    }

    /**
     * The coordinates of a piece. Regime (a) is integrated through its deficit; the learning
     * threshold with {@code ℓ ≥ 2} uses the gaps themselves while the deficit is large, so that the
     * surface {@code x_ℓ = α} is a function of the integrated coordinates (hysteresis between
     * {@code gLow = (1 − α)/4} and {@code 2 gLow}).
     */
    private Piece pieceFor(NonSmoothPolicy policy, Regime regime, LocalRate lambda, double[] mu, int levels,
            double[] gap) {
        if (regime.isSliding()) {
            return new SlidingPiece(regime, levels, mu, lambda, policy.surfaces(regime));
        }
        int ell = regime.threshold();
        double alpha = policy.dropLevel();
        if (Double.isNaN(alpha)) {
            return new DeficitPiece(regime, levels, mu, lambda, settings, Double.NaN, Double.NaN);
        }
        if (ell == 1) {
            return new DeficitPiece(regime, levels, mu, lambda, settings, 1 - alpha, Double.NaN);
        }
        double gLow = (1 - alpha) / 4;
        double deficit = 0;
        for (int j = 0; j < ell; j++) {
            deficit += gap[j];
        }
        return deficit < 1.5 * gLow ? new DeficitPiece(regime, levels, mu, lambda, settings, Double.NaN, 2 * gLow)
                : new GapPiece(regime, levels, mu, lambda, 1 - alpha, gLow);
    }

    /** Updates the gaps of the levels the policy changed (it only ever sets levels to 1), or of all levels. */
    private static void syncGaps(double[] before, double[] x, double[] gap, boolean all) {
        for (int j = 0; j < x.length; j++) {
            if (all || x[j] != before[j]) {
                gap[j] = 1.0 - x[j];
            }
        }
    }

    private static void checkRoom(Regime regime, int levels) {
        if (regime.pinned() + 2 > levels || regime.threshold() + 2 > levels) {
            throw new MflbException(ErrorKind.TRUNCATION, "truncation", "the fluid reached level "
                    + Math.max(regime.pinned() + 1, regime.threshold()) + " of the " + levels
                    + " levels kept; increase the truncation");
        }
    }

    /**
     * A piece with what its integration needs: its vector field and switching functions for
     * {@link SwitchedIntegrator}, and its tolerances (the first coordinate, the distance to the surface
     * that ends the piece, to relative accuracy).
     */
    private final class Stretch implements DormandPrince853.Field, SwitchedIntegrator.Switching {
        final Piece piece;
        final double[] absolute;
        final double[] relative;

        Stretch(Piece piece) {
            this.piece = piece;
            this.absolute = PieceIntegration.absoluteTolerances(settings, piece.dimension(), 0);
            this.relative = PieceIntegration.relativeTolerances(settings, piece.dimension());
        }

        @Override
        public void derivatives(double t, double[] y, double[] f) {
            piece.derivatives(t, y, f);
        }

        @Override
        public int count() {
            return piece.switches();
        }

        @Override
        public double value(int k, double t, double[] y) {
            return piece.switchingFunction(k, t, y);
        }

        @Override
        public int[] coordinates() {
            return piece.switchingCoordinates();
        }
    }

    /** Records the full state at every grid time an accepted step passes, and keeps the piece's extra state in step. */
    private static final class Sampler implements SwitchedIntegrator.Observer {
        private final Course course;
        Piece piece;

        Sampler(Course course) {
            this.course = course;
        }

        @Override
        public void accepted(SwitchedIntegrator.Step step) {
            TimeGrid grid = course.grid;
            int[] next = course.next;
            while (next[0] < grid.size() && grid.time(next[0]) <= step.end()) {
                int k = next[0]++;
                double t = grid.time(k);
                double[] y = new double[piece.dimension()];
                step.state(t, y);
                double[] x = new double[piece.levels];
                double[] gap = new double[piece.levels];
                piece.decodeWithin(step, step.toLocal(t), y, x, gap);
                course.record(k, x, gap, piece.regime);
            }
            piece.stepDone(step);
        }
    }
}
