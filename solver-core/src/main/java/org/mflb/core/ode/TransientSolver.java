package org.mflb.core.ode;

import java.util.List;

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
        try {
            integrator.integrate(asOde(field), new ODEState(grid.start(), x0.clone()), grid.end());
        } catch (MathIllegalStateException e) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                    "the transient could not be integrated to t = " + grid.end() + ": " + e.getMessage());
        }
        for (double[] state : states) {
            checkFinite(state);
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
        if (t1 == t0) {
            return x0.clone();
        }
        DormandPrince853Integrator integrator = newIntegrator(Math.abs(t1 - t0));
        ODEStateAndDerivative end;
        try {
            end = integrator.integrate(asOde(field), new ODEState(t0, x0.clone()), t1);
        } catch (MathIllegalStateException e) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                    "the fluid limit could not be integrated to t = " + t1 + ": " + e.getMessage());
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
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "the fluid limit left the finite range (a non-finite state was produced)");
            }
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
