package org.mflb.fluid.nonsmooth;

import java.util.ArrayList;
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
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;

/**
 * Integrates a piecewise-smooth fluid limit exactly, piece by piece: each smooth piece
 * ({@link Regime}) is integrated with Dormand–Prince 8(5,3) (Hipparchus) with one event detector
 * per switching surface of the {@link NonSmoothPolicy}; the integration stops at the first crossing
 * (located by a bracketing Brent solver to about 1e-13 in time), the policy chooses the next piece
 * and pins its levels at exactly 1, and integration resumes from there. Sliding pieces are
 * integrated on their surface: the pinned levels have zero drift. Nothing is smoothed.
 */
public final class PiecewiseSmoothSolver {

    /** Switches beyond which the solver reports chattering rather than looping. */
    static final int MAX_SWITCHES = 100_000;

    private final IntegratorSettings settings;

    /** @param settings integrator tolerances */
    public PiecewiseSmoothSolver(IntegratorSettings settings) {
        this.settings = settings;
    }

    /** A change of piece at time {@code t}. */
    public record Switch(double t, Regime from, Regime to) {
    }

    /** What {@link #solve} returns: the trajectory, the piece at each grid time, and every switch. */
    record Solution(Trajectory trajectory, Regime[] regimeAtGrid, List<Switch> switches) {
    }

    /**
     * @param policy the policy
     * @param lambda arrival rate {@code λ(t)}
     * @param mu departure rates, {@code mu[j−1] = μ_j}; not modified
     * @param x0 initial tail vector {@code (x_1..x_K)}; not modified
     * @param grid output times
     */
    Solution solve(NonSmoothPolicy policy, ArrivalRate lambda, double[] mu, double[] x0, TimeGrid grid) {
        int k = x0.length;
        double[] x = x0.clone();
        double t = grid.start();
        Regime regime = policy.initialRegime(lambda.at(t), mu, x);
        checkRoom(regime, k);
        double[][] states = new double[grid.size()][];
        Regime[] regimes = new Regime[grid.size()];
        states[0] = x.clone();
        regimes[0] = regime;
        List<Switch> switches = new ArrayList<>();
        DenseOutputModel dense = new DenseOutputModel();
        int[] nextGrid = {1};
        int atSameTime = 0;
        while (t < grid.end() && nextGrid[0] < grid.size()) {
            Regime piece = regime;
            int[] fired = {-1};
            DormandPrince853Integrator integrator = new DormandPrince853Integrator(
                    1e-14 * Math.max(1, grid.end()), Math.min(settings.maxStep(), grid.end() - grid.start()),
                    settings.absoluteTolerance(), settings.relativeTolerance());
            for (int s = 0; s < policy.surfaces(piece); s++) {
                integrator.addEventDetector(new Surface(policy, piece, s, lambda, mu, fired));
            }
            DenseOutputModel segment = new DenseOutputModel();
            integrator.addStepHandler(segment);
            integrator.addStepHandler(new GridSampler(grid, states, regimes, piece, nextGrid));
            ODEStateAndDerivative end;
            try {
                end = integrator.integrate(new PieceOde(piece, lambda, mu, k), new ODEState(t, x), grid.end());
                dense.append(segment);
            } catch (MathIllegalStateException | MathIllegalArgumentException e) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "the non-smooth fluid limit could not be integrated past t = " + t + " in regime "
                                + piece.describe() + ": " + e.getMessage());
            }
            t = end.getTime();
            x = end.getPrimaryState();
            if (fired[0] >= 0 && t < grid.end()) {
                regime = policy.next(piece, fired[0], lambda.at(t), mu, x);
                checkRoom(regime, k);
                atSameTime = !switches.isEmpty() && switches.get(switches.size() - 1).t() == t ? atSameTime + 1 : 0;
                switches.add(new Switch(t, piece, regime));
                if (atSameTime > 50) {
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the fluid switches regime endlessly at t = "
                            + t + " between " + piece.describe() + " and " + regime.describe() + " (chattering)");
                }
                if (switches.size() > MAX_SWITCHES) {
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "more than " + MAX_SWITCHES
                            + " regime switches before t = " + grid.end() + " (chattering at t = " + t + ")");
                }
            }
        }
        while (nextGrid[0] < grid.size()) {
            states[nextGrid[0]] = x.clone();
            regimes[nextGrid[0]++] = regime;
        }
        return new Solution(new Trajectory(grid, states, grid.size() > 1 ? dense : null), regimes, switches);
    }

    private static void checkRoom(Regime regime, int levels) {
        if (regime.pinned() + 2 > levels || regime.threshold() + 2 > levels) {
            throw new MflbException(ErrorKind.TRUNCATION, "truncation", "the fluid reached level "
                    + (regime.pinned() + 1) + " of the " + levels + " levels kept; increase the truncation");
        }
    }

    /** The drift of one piece, for Hipparchus (which keeps the returned array). */
    private record PieceOde(Regime regime, ArrivalRate lambda, double[] mu, int dimension)
            implements OrdinaryDifferentialEquation {
        @Override
        public int getDimension() {
            return dimension;
        }

        @Override
        public double[] computeDerivatives(double t, double[] y) {
            double[] f = new double[y.length];
            regime.drift(lambda.at(t), mu, y, f);
            return f;
        }
    }

    /** One switching surface of the piece in force; stops the integration when crossed upward. */
    private static final class Surface implements ODEEventDetector, ODEEventHandler {
        private static final BracketedUnivariateSolver<UnivariateFunction> SOLVER =
                new BracketingNthOrderBrentSolver(1e-14, 1e-13, 1e-15, 5);
        private final NonSmoothPolicy policy;
        private final Regime regime;
        private final int index;
        private final ArrivalRate lambda;
        private final double[] mu;
        private final int[] fired;

        Surface(NonSmoothPolicy policy, Regime regime, int index, ArrivalRate lambda, double[] mu, int[] fired) {
            this.policy = policy;
            this.regime = regime;
            this.index = index;
            this.lambda = lambda;
            this.mu = mu;
            this.fired = fired;
        }

        @Override
        public AdaptableInterval getMaxCheckInterval() {
            // a short check interval so that a function crossing 0 twice within one step is not missed
            return AdaptableInterval.of(0.05);
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
            return policy.switchingFunction(regime, index, lambda.at(state.getTime()), mu, state.getPrimaryState());
        }

        @Override
        public Action eventOccurred(ODEStateAndDerivative state, ODEEventDetector detector, boolean increasing) {
            if (!increasing) {
                return Action.CONTINUE; // moving back into the piece's domain: nothing to do
            }
            fired[0] = index;
            return Action.STOP;
        }
    }

    /** Copies the interpolated state at every grid time covered by a step of the current piece. */
    private static final class GridSampler implements ODEStepHandler {
        private final TimeGrid grid;
        private final double[][] states;
        private final Regime[] regimes;
        private final Regime regime;
        private final int[] next;

        GridSampler(TimeGrid grid, double[][] states, Regime[] regimes, Regime regime, int[] next) {
            this.grid = grid;
            this.states = states;
            this.regimes = regimes;
            this.regime = regime;
            this.next = next;
        }

        @Override
        public void handleStep(ODEStateInterpolator interpolator) {
            double end = interpolator.getCurrentState().getTime();
            while (next[0] < grid.size() && grid.time(next[0]) <= end) {
                states[next[0]] = interpolator.getInterpolatedState(grid.time(next[0])).getPrimaryState();
                regimes[next[0]++] = regime;
            }
        }
    }
}
