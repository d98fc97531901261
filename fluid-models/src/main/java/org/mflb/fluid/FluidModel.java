package org.mflb.fluid;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.TransientSolver;

/**
 * The fluid (mean-field) limit of a load-balancing system with a smooth dispatching policy: the
 * entry point of the Java API. Immutable; {@code withX} returns a modified copy.
 * <pre>{@code
 *   FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
 *   FluidFixedPoint pi = sq2.fixedPoint();                          // x_i = 0.9^(2^i − 1)
 *   FluidTransient x = sq2.transientFrom(InitialState.empty(), TimeGrid.uniform(50, 0.5));
 *   double q = x.meanQueueLength(10.0);
 * }</pre>
 * The number of levels is chosen so that the mass cut off stays below the truncation's tolerance
 * (checked on the result, and grown until it holds), unless the truncation is fixed.
 */
public final class FluidModel {

    /** Levels beyond which automatic truncation gives up. */
    static final int MAX_LEVELS = 200_000;

    private final ServerSystem system;
    private final SmoothRouting policy;
    private final ArrivalRate lambda;
    private final Truncation truncation;
    private final IntegratorSettings integrator;

    private FluidModel(ServerSystem system, SmoothRouting policy, ArrivalRate lambda, Truncation truncation,
            IntegratorSettings integrator) {
        this.system = system;
        this.policy = policy;
        this.lambda = lambda;
        this.truncation = truncation;
        this.integrator = integrator;
    }

    /**
     * @param system the servers
     * @param policy the dispatching policy
     * @param lambda per-server arrival rate, {@code > 0}
     * @return the fluid model with automatic truncation (tolerance 1e-12)
     */
    public static FluidModel of(ServerSystem system, SmoothRouting policy, double lambda) {
        org.mflb.core.Require.positive("lambda", lambda);
        return of(system, policy, ArrivalRate.constant(lambda));
    }

    /**
     * @param system the servers
     * @param policy the dispatching policy
     * @param lambda per-server arrival rate {@code λ(t)}
     * @return the fluid model with automatic truncation (tolerance 1e-12)
     */
    public static FluidModel of(ServerSystem system, SmoothRouting policy, ArrivalRate lambda) {
        return new FluidModel(system, policy, lambda, Truncation.DEFAULT, IntegratorSettings.DEFAULT);
    }

    /** @return a copy with another arrival rate */
    public FluidModel withArrivalRate(ArrivalRate rate) {
        return new FluidModel(system, policy, rate, truncation, integrator);
    }

    /** @return a copy with another truncation */
    public FluidModel withTruncation(Truncation t) {
        return new FluidModel(system, policy, lambda, t, integrator);
    }

    /** @return a copy with other integrator tolerances */
    public FluidModel withIntegratorSettings(IntegratorSettings settings) {
        return new FluidModel(system, policy, lambda, truncation, settings);
    }

    /** @return the servers */
    public ServerSystem system() {
        return system;
    }

    /** @return the dispatching policy */
    public SmoothRouting policy() {
        return policy;
    }

    /** @return the arrival rate */
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    /** @return the truncation rule */
    public Truncation truncation() {
        return truncation;
    }

    /** @return the drift with {@code levels} levels */
    public TailModel withLevels(int levels) {
        return new TailModel(system, policy, lambda, levels);
    }

    /**
     * Computes the stable fixed point.
     *
     * @return the fixed point, with truncation chosen so the cut-off mass is below the tolerance
     * @throws MflbException if the load is unstable ({@code λ ≥ 1} for single-server queues), the
     *         rate is time-varying, or no stable fixed point is found
     */
    public FluidFixedPoint fixedPoint() {
        if (!lambda.isConstant()) {
            throw MflbException.invalid("lambda", "a time-varying profile", "a constant rate for a fixed point");
        }
        double rate = lambda.at(0);
        system.requireStable(rate);
        FixedPointSolver solver = new FixedPointSolver();
        if (system.isLossy()) {
            TailModel model = withLevels(system.capacity());
            return new FluidFixedPoint(model, requireStable(solver.solve(model, new double[system.capacity()])));
        }
        if (!truncation.isAutomatic()) {
            TailModel model = withLevels(truncation.levels());
            return new FluidFixedPoint(model, requireStable(solver.solve(model, new double[truncation.levels()])));
        }
        int levels = initialLevels(rate);
        double[] guess = new double[levels];
        // Intermediate truncations skip the O(K³) spectrum; only the accepted one is analysed.
        FixedPointSolver withoutSpectrum = new FixedPointSolver(new FixedPointSolver.Settings(
                FixedPointSolver.Settings.DEFAULT.residualTolerance(), FixedPointSolver.Settings.DEFAULT.maxIterations(),
                FixedPointSolver.Settings.DEFAULT.relaxationTime(), 0));
        while (true) {
            TailModel model = withLevels(levels);
            FixedPoint fp = withoutSpectrum.solve(model, guess);
            double[] x = fp.state();
            double cut = TailVectors.cutOffMass(x);
            if (cut <= truncation.tolerance()) {
                return new FluidFixedPoint(model, requireStable(solver.withSpectrum(model, fp)));
            }
            int next = grownLevels(x, truncation.tolerance());
            guess = TailVectors.extend(x, next);
            levels = next;
        }
    }

    /**
     * Integrates the fluid limit from {@code initial} over {@code grid}.
     *
     * @param initial initial state
     * @param grid output times
     * @return the transient, with truncation chosen so the cut-off mass stays below the tolerance at
     *         every grid time
     */
    public FluidTransient transientFrom(InitialState initial, TimeGrid grid) {
        TransientSolver solver = new TransientSolver(integrator);
        double[] start = null;
        int levels;
        if (system.isLossy()) {
            levels = system.capacity();
            if (initial.occupiedLevels() > levels) {
                throw MflbException.invalid("init", initial, "a state with at most capacity C = " + levels + " jobs per pool");
            }
        } else if (!truncation.isAutomatic()) {
            levels = truncation.levels();
            if (initial.occupiedLevels() > levels) {
                throw MflbException.invalid("truncation", levels, ">= the levels occupied by the initial state ("
                        + initial.occupiedLevels() + ")");
            }
        } else {
            levels = Math.max(initial.occupiedLevels() + 4,
                    initialLevels(lambda.supremum(grid.start(), grid.end())));
        }
        if (initial.kind() == InitialState.Kind.FIXED_POINT) {
            FluidFixedPoint fp = withArrivalRate(ArrivalRate.constant(lambda.at(grid.start()))).fixedPoint();
            start = fp.levels();
            levels = Math.max(levels, start.length);
            if (system.isLossy() || !truncation.isAutomatic()) {
                levels = fp.truncation();
            }
        }
        while (true) {
            TailModel model = withLevels(levels);
            double[] x0 = start != null ? TailVectors.resize(start, levels) : initial.levels(levels);
            FluidTransient result = new FluidTransient(model, solver.solve(model, x0, grid));
            if (system.isLossy() || !truncation.isAutomatic() || result.cutOffMass() <= truncation.tolerance()) {
                return result;
            }
            levels = checkedLevels(2L * levels);
        }
    }

    private FixedPoint requireStable(FixedPoint fp) {
        if (!fp.isStable()) {
            throw new MflbException(ErrorKind.UNSTABLE, "lambda",
                    "the fixed point found is unstable (spectral abscissa " + fp.spectralAbscissa() + ")");
        }
        return fp;
    }

    /** A first guess of the levels needed: a few standard deviations above the mean occupancy. */
    private int initialLevels(double rate) {
        if (system.kind() == ServerSystem.Kind.SUPERMARKET) {
            return 16;
        }
        return checkedLevels((long) Math.ceil(rate + 6 * Math.sqrt(rate) + 8));
    }

    /** More levels, enough for the geometric continuation of {@code x}'s tail to fall below {@code tolerance}. */
    private static int grownLevels(double[] x, double tolerance) {
        int k = x.length;
        int j = Math.max(1, k / 2);
        double a = j >= 2 ? x[j - 2] : 1.0;
        double b = x[j - 1];
        long next = 2L * k;
        if (b > 0 && a > b) {
            double r = b / a;
            // x_j r^{K'+1−j}/(1−r) <= tolerance
            double needed = j - 1 + Math.log(tolerance * (1 - r) / b) / Math.log(r);
            next = Math.min(next, Math.max((long) Math.ceil(needed) + 1, k + k / 4 + 1));
        }
        return checkedLevels(next);
    }

    private static int checkedLevels(long levels) {
        if (levels > MAX_LEVELS) {
            throw new MflbException(ErrorKind.TRUNCATION, "truncation",
                    "the tail vector needs more than " + MAX_LEVELS
                            + " levels to keep the cut-off mass below the tolerance (load too close to instability?)");
        }
        return (int) levels;
    }

    @Override
    public String toString() {
        return policy.name() + " on " + system;
    }
}
