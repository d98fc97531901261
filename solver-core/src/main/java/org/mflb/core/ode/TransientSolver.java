package org.mflb.core.ode;

import java.util.List;

import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.events.ODEEventDetector;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.hipparchus.ode.sampling.ODEStateInterpolator;
import org.hipparchus.ode.sampling.ODEStepHandler;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.DriftField;

/**
 * Integrates a fluid limit {@code dx/dt = f(x, t)} with the adaptive Dormand–Prince 8(5,3) method
 * (Hipparchus) and samples it on a {@link TimeGrid} through the integrator's dense output, as the
 * integration goes (the memory is the grid's, not the number of steps'). States are kept in the
 * field's state space ({@link DriftField#project}).
 * Event detectors (Hipparchus {@link ODEEventDetector}) may be attached, e.g. to switch the regime
 * of a piecewise-smooth drift; the detectors' handlers decide what happens at each event.
 */
public final class TransientSolver {

    private final IntegratorSettings settings;

    /** @param settings tolerances */
    public TransientSolver(IntegratorSettings settings) {
        this.settings = settings;
    }

    /** A solver with {@link IntegratorSettings#DEFAULT}. */
    public TransientSolver() {
        this(IntegratorSettings.DEFAULT);
    }

    /** @return the tolerances */
    public IntegratorSettings settings() {
        return settings;
    }

    /**
     * Solves from {@code x(grid.start()) = x0}.
     *
     * @param field the drift
     * @param x0 initial state (not modified)
     * @param grid output times
     * @return the states on the grid, with dense output
     */
    public Trajectory solve(DriftField field, double[] x0, TimeGrid grid) {
        return solve(field, x0, grid, List.of());
    }

    /**
     * Solves from {@code x(grid.start()) = x0} with event detection.
     *
     * @param field the drift
     * @param x0 initial state (not modified)
     * @param grid output times
     * @param detectors event detectors added to the integrator
     * @return the states on the grid, with dense output
     */
    public Trajectory solve(DriftField field, double[] x0, TimeGrid grid, List<? extends ODEEventDetector> detectors) {
        int n = field.getDimension();
        if (x0.length != n) {
            throw MflbException.invalid("initial state length", x0.length, "equal to the model dimension " + n);
        }
        double[][] states = new double[grid.size()][];
        states[0] = x0.clone();
        if (grid.size() == 1) {
            return new Trajectory(grid, states, null);
        }
        DormandPrince853Integrator integrator = newIntegrator(grid.end() - grid.start());
        for (ODEEventDetector detector : detectors) {
            integrator.addEventDetector(detector);
        }
        integrator.addStepHandler(new GridSampler(grid, states, field));
        LastStep last = new LastStep(grid.start(), x0);
        integrator.addStepHandler(last);
        try {
            integrator.integrate(asOde(field), new ODEState(grid.start(), x0.clone()), grid.end());
        } catch (MathIllegalStateException | MathIllegalArgumentException e) {
            throw stopped(e, x0, last, grid.end());
        }
        for (int s = 0; s < states.length; s++) {
            if (!finite(states[s])) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the fluid limit blows up before t = "
                        + grid.time(s) + " (a state component is no longer a finite number): it has no solution"
                        + " beyond; check the rates that grow with the state");
            }
        }
        return new Trajectory(grid, states, (from, x, to) -> propagate(field, from, x, to));
    }

    /**
     * Integrates from {@code (t0, x0)} to {@code t1} and returns the final state only.
     *
     * @param field the drift
     * @param t0 initial time
     * @param x0 initial state (not modified)
     * @param t1 final time
     * @return {@code x(t1)}
     */
    public double[] propagate(DriftField field, double t0, double[] x0, double t1) {
        return propagate(field, t0, x0, t1, Integer.MAX_VALUE);
    }

    /**
     * As {@link #propagate(DriftField, double, double[], double)}, with a budget of drift evaluations:
     * spending it counts as stiffness ({@link Stiff}, with the state reached), unless the state blew up.
     *
     * @param field the drift
     * @param t0 initial time
     * @param x0 initial state (not modified)
     * @param t1 final time
     * @param maxEvaluations largest number of drift evaluations
     * @return {@code x(t1)}
     */
    public double[] propagate(DriftField field, double t0, double[] x0, double t1, int maxEvaluations) {
        if (t1 == t0) {
            return x0.clone();
        }
        DormandPrince853Integrator integrator = newIntegrator(Math.abs(t1 - t0));
        integrator.setMaxEvaluations(maxEvaluations);
        LastStep last = new LastStep(t0, x0);
        integrator.addStepHandler(last);
        ODEStateAndDerivative end;
        try {
            end = integrator.integrate(asOde(field), new ODEState(t0, x0.clone()), t1);
        } catch (MathIllegalStateException | MathIllegalArgumentException e) {
            throw stopped(e, x0, last, t1);
        }
        double[] x = end.getPrimaryState();
        field.project(x);
        checkFinite(x);
        return x;
    }

    private DormandPrince853Integrator newIntegrator(double span) {
        double maxStep = Math.min(settings.maxStep(), span);
        return new DormandPrince853Integrator(1e-12 * Math.max(1, span), maxStep,
                settings.absoluteTolerance(), settings.relativeTolerance());
    }

    private static void checkFinite(double[] x) {
        if (!finite(x)) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the fluid limit blows up (a state component is"
                    + " no longer a finite number): it has no solution beyond; check the rates that grow with the state");
        }
    }

    private static boolean finite(double[] x) {
        for (double v : x) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    private static double normInf(double[] x) {
        double max = 0;
        for (double v : x) {
            max = Math.max(max, Math.abs(v));
        }
        return max;
    }

    /** Growth of {@code ‖x‖∞} over the start's (at least 1) beyond which a stopped integration is a blow-up. */
    private static final double BLOW_UP_GROWTH = 1e6;

    /**
     * The integration stopped before {@code target} (Hipparchus: the step fell below its minimum, or
     * the evaluation budget ran out). Told apart by the last accepted state: a state grown by
     * {@link #BLOW_UP_GROWTH} or more, or not finite, is a solution that blows up in finite time; any
     * other is a drift whose time scales are too far apart for an explicit method (stiffness).
     */
    private static MflbException stopped(RuntimeException cause, double[] x0, LastStep last, double target) {
        double scale = Math.max(1.0, normInf(x0));
        double reached = normInf(last.state);
        String at = String.format(java.util.Locale.ROOT, "%.6g", last.time);
        if (!finite(last.state) || reached > BLOW_UP_GROWTH * scale) {
            return new MflbException(ErrorKind.NO_CONVERGENCE, null, String.format(java.util.Locale.ROOT,
                    "the fluid limit blows up near t = %s (max |x_i| = %.3g there, %.3g at the start): it has no"
                            + " solution up to t = %s; check the rates that grow with the state", at, reached,
                    normInf(x0), target));
        }
        return new Stiff(String.format(java.util.Locale.ROOT, "the fluid limit is too stiff to integrate beyond t = %s"
                + " (the adaptive explicit method needs steps below its minimum, %s): some rates are more than"
                + " about 1e12 times faster than the horizon; slow the fastest transitions or shorten the horizon"
                + " (for the steady state, fixed-point is implicit and copes with stiffness)", at,
                cause.getMessage() == null ? "?" : cause.getMessage().replaceAll("minimal step size \\(([^)]*)\\).*", "$1")),
                last.time, last.state);
    }

    /**
     * An integration stopped by stiffness (not by a blow-up): {@link #time()} and {@link #state()} are
     * where it got to.
     */
    public static final class Stiff extends MflbException {
        private static final long serialVersionUID = 1L;
        private final double time;
        private final double[] state;

        Stiff(String message, double time, double[] state) {
            super(ErrorKind.NO_CONVERGENCE, null, message);
            this.time = time;
            this.state = state.clone();
        }

        /** @return the time the integration reached */
        public double time() {
            return time;
        }

        /** @return the state it reached there (a copy) */
        public double[] state() {
            return state.clone();
        }
    }

    /** Keeps the end of the last accepted step. */
    private static final class LastStep implements ODEStepHandler {
        double time;
        double[] state;

        LastStep(double t0, double[] x0) {
            time = t0;
            state = x0.clone();
        }

        @Override
        public void handleStep(ODEStateInterpolator interpolator) {
            ODEStateAndDerivative end = interpolator.getCurrentState();
            time = end.getTime();
            state = end.getPrimaryState();
        }
    }

    /** Adapts a drift to Hipparchus; the returned array is fresh, as Hipparchus keeps it. */
    static OrdinaryDifferentialEquation asOde(DriftField field) {
        return new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return field.getDimension();
            }

            @Override
            public double[] computeDerivatives(double t, double[] y) {
                double[] f = new double[y.length];
                double[] state = y;
                double[] projected = y.clone();
                if (field.project(projected)) {
                    state = projected;
                }
                field.drift(t, state, f);
                return f;
            }
        };
    }

    /**
     * Copies the interpolated (and projected) state at every grid time covered by a step, as the
     * integration goes: memory is that of the grid, whatever the number of steps.
     */
    private static final class GridSampler implements ODEStepHandler {
        private final TimeGrid grid;
        private final double[][] states;
        private final DriftField field;
        private int next = 1;

        GridSampler(TimeGrid grid, double[][] states, DriftField field) {
            this.grid = grid;
            this.states = states;
            this.field = field;
        }

        @Override
        public void handleStep(ODEStateInterpolator interpolator) {
            double end = interpolator.getCurrentState().getTime();
            while (next < grid.size() && grid.time(next) <= end) {
                states[next] = interpolator.getInterpolatedState(grid.time(next)).getPrimaryState();
                field.project(states[next]);
                next++;
            }
        }

        @Override
        public void finish(ODEStateAndDerivative finalState) {
            while (next < grid.size()) {
                states[next] = finalState.getPrimaryState();
                field.project(states[next]);
                next++;
            }
        }
    }
}
