package org.mflb.fluid.nonsmooth;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.ode.DenseOutputModel;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.hipparchus.ode.sampling.ODEStateInterpolator;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.PieceIntegration;
import org.mflb.core.ode.TimeGrid;

/**
 * Integrates a piecewise-smooth fluid limit exactly, piece by piece. Each smooth piece
 * ({@link Regime}) is integrated in its own coordinates ({@link Piece}) with Dormand–Prince 8(5,3)
 * (Hipparchus) and one event detector per switching surface; the integration stops at the first
 * crossing (located by a bracketing Brent solver to a few units in the last place of the time, so that
 * the state at the located end lies within a few 1e-16 of the surface), the policy chooses the
 * next piece and pins its levels at exactly 1, and integration resumes from there. Sliding pieces
 * are integrated on their surface (the pinned levels are not integrated). Regime (a) of the
 * threshold policies, whose drift has the factor {@code 1/(1 − x_ℓ)}, is integrated through its
 * deficit ({@link DeficitPiece}, non-stiff) with the split below the threshold integrated by an
 * L-stable implicit method ({@link LowerGaps}). Nothing is smoothed; the only approximation besides
 * the integrator's tolerance is that a level within {@link NonSmoothPolicy#ON_SURFACE} of 1 counts as
 * on its surface. The integration also restarts at the knots of a piecewise-linear {@code λ(t)}, so
 * that no step straddles a kink.
 */
public final class PiecewiseSmoothSolver {

    /** Switches beyond which the solver reports chattering rather than looping. */
    static final int MAX_SWITCHES = 100_000;

    /** Switches at one instant beyond which the solver reports chattering. */
    private static final int MAX_AT_ONE_TIME = 50;

    private final IntegratorSettings settings;

    /** @param settings integrator tolerances */
    public PiecewiseSmoothSolver(IntegratorSettings settings) {
        this.settings = settings;
    }

    /** A change of piece at time {@code t}. */
    public record Switch(double t, Regime from, Regime to) {
    }

    /** One Hipparchus run: a piece over {@code [start, end]} with its dense output. */
    record Segment(Piece piece, DenseOutputModel dense, Object run, double start, double end) {
        double[] stateAt(double t) {
            double clamped = Math.min(Math.max(t, dense.getInitialTime()), dense.getFinalTime());
            return piece.stateAt(clamped, dense, run);
        }
    }

    /**
     * What {@link #solve} returns: the states and pieces at the grid times, every switch, and the
     * runs (each piece's dense output, for the state between grid times).
     */
    public static final class Solution {

        private final NonSmoothPolicy policy;
        private final TimeGrid grid;
        private final double[][] states;
        private final Regime[] regimeAtGrid;
        private final List<Switch> switches;
        private final List<Segment> segments;

        Solution(NonSmoothPolicy policy, TimeGrid grid, double[][] states, Regime[] regimeAtGrid, List<Switch> switches,
                List<Segment> segments) {
            this.policy = policy;
            this.grid = grid;
            this.states = states;
            this.regimeAtGrid = regimeAtGrid;
            this.switches = switches;
            this.segments = segments;
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

        /** @return the tail {@code (x_1..x_K)} at any time of the grid's span (a new array) */
        public double[] stateAt(double t) {
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
        double t = grid.start();
        double[] before = x.clone();
        Regime regime = policy.initialRegime(lambda.at(t), mu, x);
        syncGaps(before, x, gap, true);
        checkRoom(regime, k);
        double[][] states = new double[grid.size()][];
        Regime[] regimes = new Regime[grid.size()];
        states[0] = x.clone();
        regimes[0] = regime;
        List<Switch> switches = new ArrayList<>();
        List<Segment> segments = new ArrayList<>();
        double[] knots = PieceIntegration.knots(lambda);
        Piece piece = pieceFor(policy, regime, lambda, mu, k, gap);
        double[] y = piece.encode(t, x, gap);
        int[] next = {1};
        int atSameTime = 0;
        while (next[0] < grid.size()) {
            if (t >= grid.end()) {
                // stopped by a switch exactly at the end: the remaining grid time is the state after it
                while (next[0] < grid.size()) {
                    states[next[0]] = x.clone();
                    regimes[next[0]++] = regime;
                }
                break;
            }
            double target = PieceIntegration.nextStop(knots, t, grid.end());
            int[] fired = {-1};
            // the first coordinate of a sliding piece (the gap of its first free level) and of regime (a)
            // (the deficit) is the distance to the surface that ends the piece: integrated to relative accuracy
            DormandPrince853Integrator integrator = PieceIntegration.integrator(settings, grid,
                    PieceIntegration.absoluteTolerances(settings, piece.dimension(), 0),
                    PieceIntegration.relativeTolerances(settings, piece.dimension()));
            for (int s = 0; s < piece.switches(); s++) {
                integrator.addEventDetector(new Crossing(piece, s, fired));
            }
            DenseOutputModel dense = new DenseOutputModel();
            Object run = piece.beginRun(t);
            integrator.addStepHandler(dense);
            integrator.addStepHandler(new Sampler(piece, grid, states, regimes, next));
            double start = t;
            Regime inForce = regime;
            ODEStateAndDerivative end = PieceIntegration.integrate(integrator, new PieceOde(piece), t, y, target,
                    "the non-smooth fluid limit", () -> "in regime " + inForce.describe());
            t = end.getTime();
            y = end.getPrimaryState();
            segments.add(new Segment(piece, dense, run, start, t));
            if (fired[0] < 0) {
                continue; // a knot of λ(t) or the end: the same piece goes on from the same coordinates
            }
            piece.decode(t, y, x, gap);
            Regime.Surface surface = piece.surface(fired[0]);
            if (surface != null) {
                before = x.clone();
                Regime following = policy.next(regime, surface, lambda.at(t), mu, x);
                syncGaps(before, x, gap, false);
                checkRoom(following, k);
                atSameTime = !switches.isEmpty() && switches.get(switches.size() - 1).t() == t ? atSameTime + 1 : 0;
                switches.add(new Switch(t, regime, following));
                if (atSameTime > MAX_AT_ONE_TIME) {
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the fluid switches regime endlessly at t = "
                            + t + " between " + regime.describe() + " and " + following.describe() + " (chattering)");
                }
                if (switches.size() > MAX_SWITCHES) {
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "more than " + MAX_SWITCHES
                            + " regime switches before t = " + grid.end() + " (chattering at t = " + t + ")");
                }
                regime = following;
            }
            piece = pieceFor(policy, regime, lambda, mu, k, gap);
            y = piece.encode(t, x, gap);
        }
        return new Solution(policy, grid, states, regimes, switches, segments);
    }

    /**
     * The coordinates of a piece. Regime (a) is integrated through its deficit; the learning
     * threshold with {@code ℓ ≥ 2} uses the gaps themselves while the deficit is large, so that the
     * surface {@code x_ℓ = α} is a function of the integrated coordinates (hysteresis between
     * {@code gLow = (1 − α)/4} and {@code 2 gLow}).
     */
    private Piece pieceFor(NonSmoothPolicy policy, Regime regime, ArrivalRate lambda, double[] mu, int levels,
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

    /** The drift of one piece, for Hipparchus (which keeps the returned array). */
    private record PieceOde(Piece piece) implements OrdinaryDifferentialEquation {
        @Override
        public int getDimension() {
            return piece.dimension();
        }

        @Override
        public double[] computeDerivatives(double t, double[] y) {
            double[] f = new double[y.length];
            piece.derivatives(t, y, f);
            return f;
        }
    }

    /** One switching function of the piece in force; stops the integration when it crosses 0 upward. */
    private static final class Crossing extends PieceIntegration.UpwardCrossing {
        private final Piece piece;
        private final int index;

        Crossing(Piece piece, int index, int[] fired) {
            super(index, fired);
            this.piece = piece;
            this.index = index;
        }

        @Override
        public double g(ODEStateAndDerivative state) {
            return piece.switchingFunction(index, state.getTime(), state.getPrimaryState());
        }
    }

    /** Records the full state at every grid time covered by a step, and keeps the piece's extra state in step. */
    private static final class Sampler extends PieceIntegration.GridSampler {
        private final Piece piece;
        private final double[][] states;
        private final Regime[] regimes;

        Sampler(Piece piece, TimeGrid grid, double[][] states, Regime[] regimes, int[] next) {
            super(grid, next);
            this.piece = piece;
            this.states = states;
            this.regimes = regimes;
        }

        @Override
        protected void record(int k, double t, ODEStateInterpolator interpolator) {
            piece.advance(t, interpolator);
            double[] x = new double[piece.levels];
            piece.decode(t, interpolator.getInterpolatedState(t).getPrimaryState(), x, new double[piece.levels]);
            states[k] = x;
            regimes[k] = piece.regime;
        }

        @Override
        protected void stepDone(double end, ODEStateInterpolator interpolator) {
            piece.advance(end, interpolator);
        }
    }
}
