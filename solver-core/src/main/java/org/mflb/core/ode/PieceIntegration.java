package org.mflb.core.ode;

import java.util.Arrays;
import java.util.function.Supplier;

import org.hipparchus.analysis.UnivariateFunction;
import org.hipparchus.analysis.solvers.BracketedUnivariateSolver;
import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.ode.ODEIntegrator;
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

/**
 * The common steps of the piecewise-smooth fluid solvers, which integrate a drift that is smooth
 * within each piece and switches on surfaces {@code g(x) = 0}: each piece is one Dormand–Prince
 * 8(5,3) run (Hipparchus) that stops at the first upward crossing of one of the piece's switching
 * functions ({@link UpwardCrossing}, located by a bracketing Brent solver), or at the next knot of a
 * piecewise-linear {@code λ(t)} ({@link #nextStop}), so that no step straddles a kink. Nothing here
 * smooths the drift.
 */
public final class PieceIntegration {

    private PieceIntegration() {
    }

    /**
     * @param lambda arrival rate
     * @return the knot times of a piecewise-linear {@code λ(t)} (a new array), else an empty array
     */
    public static double[] knots(ArrivalRate lambda) {
        return lambda instanceof PiecewiseLinearRate p ? p.times() : new double[0];
    }

    /**
     * @param knots increasing knot times ({@link #knots})
     * @param t the current time
     * @param end the end of the integration
     * @return the first knot after {@code t} if it comes before {@code end}, else {@code end}
     */
    public static double nextStop(double[] knots, double t, double end) {
        int i = Arrays.binarySearch(knots, t);
        i = i >= 0 ? i + 1 : -i - 1;
        return i < knots.length && knots[i] < end ? knots[i] : end;
    }

    /**
     * Whether the stretch from {@code t} to {@code target} is too short to integrate: shorter than
     * the smallest interval Hipparchus accepts ({@code 1000 ulp} of the larger time), as when a switch
     * is located within rounding of a grid time, a knot or the end. The state at {@code t} then stands
     * for the state at {@code target} (the drift moves it by at most that interval times its size).
     *
     * @param t the current time
     * @param target the next stop, {@code >= t} or within rounding below it
     * @return whether the solvers skip the stretch instead of integrating it
     */
    public static boolean negligible(double t, double target) {
        return target - t < 1000 * Math.ulp(Math.max(Math.abs(t), Math.abs(target)));
    }

    /**
     * The absolute tolerances of a piece: {@code settings.absoluteTolerance()} for every coordinate
     * but {@code tight}, whose tolerance is 1e-10 times that, so that the coordinate is integrated to
     * the relative tolerance alone and its zero (a switching surface approached like {@code e^{−t}})
     * is located at the right time, not when it sinks below the absolute tolerance.
     *
     * @param settings integrator tolerances
     * @param dimension the dimension of the piece
     * @param tight the coordinate measuring the distance to the surface
     * @return the tolerances (a new array)
     */
    public static double[] absoluteTolerances(IntegratorSettings settings, int dimension, int tight) {
        double[] tolerance = new double[dimension];
        Arrays.fill(tolerance, settings.absoluteTolerance());
        tolerance[tight] *= 1e-10;
        return tolerance;
    }

    /**
     * @param settings integrator tolerances
     * @param dimension the dimension of the piece
     * @return {@code settings.relativeTolerance()} for every coordinate (a new array)
     */
    public static double[] relativeTolerances(IntegratorSettings settings, int dimension) {
        double[] tolerance = new double[dimension];
        Arrays.fill(tolerance, settings.relativeTolerance());
        return tolerance;
    }

    /**
     * The integrator of one piece: smallest step {@code 1e-14·max(1, |t_end|)}, largest step the
     * settings' {@code maxStep} but at most the grid's span.
     *
     * @param settings integrator settings (largest step)
     * @param grid the output times
     * @param absolute absolute tolerance per coordinate
     * @param relative relative tolerance per coordinate
     * @return a new integrator, without detectors or step handlers
     */
    public static DormandPrince853Integrator integrator(IntegratorSettings settings, TimeGrid grid, double[] absolute,
            double[] relative) {
        return new DormandPrince853Integrator(1e-14 * Math.max(1, Math.abs(grid.end())),
                Math.min(settings.maxStep(), grid.end() - grid.start()), absolute, relative);
    }

    /**
     * Integrates one piece from {@code (t, y)} to {@code target}, or to the first event that stops it.
     *
     * @param integrator the piece's integrator, with its detectors and step handlers
     * @param ode the piece's drift
     * @param t the start time
     * @param y the start coordinates
     * @param target the end time
     * @param what what is integrated, for the error message (e.g. "the memory fluid")
     * @param where where it stands, for the error message (e.g. "in regime ..."), asked only on failure
     * @return the state where the run stopped
     * @throws MflbException (NO_CONVERGENCE) when Hipparchus cannot integrate the piece
     */
    public static ODEStateAndDerivative integrate(ODEIntegrator integrator, OrdinaryDifferentialEquation ode, double t,
            double[] y, double target, String what, Supplier<String> where) {
        try {
            return integrator.integrate(ode, new ODEState(t, y), target);
        } catch (MathIllegalStateException | MathIllegalArgumentException e) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                    what + " could not be integrated past t = " + t + " " + where.get() + ": " + e.getMessage());
        }
    }

    /**
     * One switching function of the piece in force: stops the integration when it crosses 0 upward
     * (leaving the piece's domain) and records which one did in {@code fired[0]}; a downward
     * crossing (moving back into the domain) lets the integration go on.
     */
    public abstract static class UpwardCrossing implements ODEEventDetector, ODEEventHandler {
        private static final BracketedUnivariateSolver<UnivariateFunction> SOLVER =
                new BracketingNthOrderBrentSolver(1e-15, 1e-15, 1e-22, 5);
        /** Short enough that a function crossing 0 twice within one step is not missed. */
        private static final AdaptableInterval CHECK = AdaptableInterval.of(0.05);
        private final int index;
        private final int[] fired;

        /**
         * @param index what {@code fired[0]} is set to when this function stops the integration
         * @param fired where the index of the crossing is recorded
         */
        protected UpwardCrossing(int index, int[] fired) {
            this.index = index;
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
        public Action eventOccurred(ODEStateAndDerivative state, ODEEventDetector detector, boolean increasing) {
            if (!increasing) {
                return Action.CONTINUE;
            }
            fired[0] = index;
            return Action.STOP;
        }
    }

    /**
     * Records the output at every grid time a step covers. The next grid index is shared by the
     * runs of all pieces ({@code next[0]}), so that each grid time is recorded once, by the run that
     * reaches it.
     */
    public abstract static class GridSampler implements ODEStepHandler {
        private final TimeGrid grid;
        private final int[] next;

        /**
         * @param grid the output times
         * @param next {@code next[0]}: the first grid index not yet recorded (advanced here)
         */
        protected GridSampler(TimeGrid grid, int[] next) {
            this.grid = grid;
            this.next = next;
        }

        /**
         * Records grid time {@code k}.
         *
         * @param k the grid index
         * @param t its time, within the current step
         * @param interpolator the step's interpolator
         */
        protected abstract void record(int k, double t, ODEStateInterpolator interpolator);

        /**
         * Called after the grid times of a step are recorded; does nothing unless overridden.
         *
         * @param end the end of the step
         * @param interpolator the step's interpolator
         */
        protected void stepDone(double end, ODEStateInterpolator interpolator) {
        }

        @Override
        public void handleStep(ODEStateInterpolator interpolator) {
            double end = interpolator.getCurrentState().getTime();
            while (next[0] < grid.size() && grid.time(next[0]) <= end) {
                int k = next[0]++;
                record(k, grid.time(k), interpolator);
            }
            stepDone(end, interpolator);
        }
    }
}
