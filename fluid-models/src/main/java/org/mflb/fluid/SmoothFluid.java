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
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.nonsmooth.Regime;

/**
 * The fixed point and transients of a {@link FluidModel} whose policy routes smoothly
 * ({@link SmoothRouting}: random routing, SQ(d); docs/models.md §1–2): the drift of {@link TailModel},
 * <pre>
 *   dx_i/dt = λ(t)·(h(x_{i−1}) − h(x_i)) − μ_i·(x_i − x_{i+1}),   i = 1..K,   x_0 = 1, x_{K+1} = 0,
 * </pre>
 * is one smooth vector field. Its fixed point is a closed form for random routing (each server a
 * birth–death chain) and is found by pseudo-transient continuation and Newton's method on banded
 * Jacobians otherwise, with the spectrum of the Jacobian; its transients are integrated as one ODE.
 * The number of levels {@code K} is chosen so that the mass cut off, {@code Σ_{i>K} x_i}, stays
 * below the truncation's tolerance (checked on the result, and grown until it holds), unless the
 * truncation is fixed or the pools lose jobs ({@code K = C}).
 */
final class SmoothFluid implements FluidSolver {

    /** Levels beyond which automatic truncation gives up. */
    static final int MAX_LEVELS = 200_000;
    /** The limit for random routing, whose fixed point is a closed form polished in {@code O(K)}. */
    static final int MAX_CLOSED_FORM_LEVELS = 2_000_000;

    private final FluidModel fluid;
    private final SmoothRouting routing;
    private final ServerSystem system;
    private final ArrivalRate lambda;
    private final Truncation truncation;
    private final IntegratorSettings integrator;

    /**
     * @param fluid the fluid model solved
     * @param routing its policy
     */
    SmoothFluid(FluidModel fluid, SmoothRouting routing) {
        this.fluid = fluid;
        this.routing = routing;
        this.system = fluid.system();
        this.lambda = fluid.arrivalRate();
        this.truncation = fluid.truncation();
        this.integrator = fluid.integrator();
    }

    @Override
    public FluidModel model() {
        return fluid;
    }

    /** @return the drift with {@code levels} levels */
    @Override
    public TailModel withLevels(int levels) {
        return new TailModel(system, routing, lambda, levels);
    }

    /** @return the policy's own shares {@code s_j = h(x_j)}, whatever the piece (there is one) */
    @Override
    public ArrivalShares arrivalShares(Regime regime) {
        return routing;
    }

    /**
     * The stable fixed point {@code f(x) = 0} at the constant rate {@code rate}: the closed form of
     * {@link #randomRoutingFixedPoint} for {@code d = 1}; otherwise pseudo-transient continuation
     * and Newton's method ({@link FixedPointSolver}), on a truncation grown until the cut-off mass
     * is below the tolerance, with the spectrum of the Jacobian at the accepted one.
     */
    @Override
    public FluidFixedPoint fixedPoint(double rate) {
        FixedPointSolver solver = new FixedPointSolver();
        if (routing.d() == 1) { // random routing, or SQ(1) with either sampling: h(y) = y
            return randomRoutingFixedPoint(rate, solver);
        }
        // Fast modes (rate ~λ) are left to the implicit steps: an explicit relaxation over 5 time
        // units would need ~λ steps per unit at high loads.
        if (rate > 10) {
            solver = new FixedPointSolver(new FixedPointSolver.Settings(
                    FixedPointSolver.Settings.DEFAULT.residualTolerance(), FixedPointSolver.Settings.DEFAULT.maxIterations(),
                    50 / rate, FixedPointSolver.Settings.DEFAULT.spectrumLimit()));
        }
        if (system.isLossy()) {
            TailModel model = withLevels(system.capacity());
            // as below: at high loads the relaxation needs a start near the basin, the Erlang-loss tail
            double[] guess = rate > 10 ? birthDeathTail(rate, system.capacity()) : new double[system.capacity()];
            return FluidFixedPoint.smooth(model, requireStable(solver.solve(model, guess)));
        }
        if (!truncation.isAutomatic()) {
            TailModel model = withLevels(truncation.levels());
            return FluidFixedPoint.smooth(model, requireStable(solver.solve(model, new double[truncation.levels()])));
        }
        int levels = initialLevels(rate);
        // At high loads the short relaxation needs a start near the basin: the random-routing
        // (Poisson) tail, which has the right mean λ.
        double[] guess = rate > 10 ? birthDeathTail(rate, levels) : new double[levels];
        // Intermediate truncations skip the O(K³) spectrum; only the accepted one is analysed.
        FixedPointSolver withoutSpectrum = new FixedPointSolver(new FixedPointSolver.Settings(
                solver.settings().residualTolerance(), solver.settings().maxIterations(),
                solver.settings().relaxationTime(), 0));
        while (true) {
            TailModel model = withLevels(levels);
            FixedPoint fp = withoutSpectrum.solve(model, guess);
            double[] x = fp.state();
            double cut = TailVectors.cutOffMass(x);
            if (cut <= truncation.tolerance()) {
                return FluidFixedPoint.smooth(model, requireStable(solver.withSpectrum(model, fp)));
            }
            int next = grownLevels(x, truncation.tolerance());
            guess = TailVectors.extend(x, next);
            levels = next;
        }
    }

    /**
     * Random routing: every server is an independent birth–death chain (M/M/1, M/M/∞, Erlang loss),
     * whose truncated stationary law is a closed form, {@code π_j ∝ ∏_{i≤j} λ/μ_i},
     * {@code x_i = Σ_{j≥i} π_j}. The truncation is read off the untruncated law (its cut-off mass
     * {@code Σ_{i>K} x_i} below the tolerance), the closed form is the exact fixed point of the
     * truncated drift, and Newton steps on the banded Jacobian only polish its rounding: no relaxation,
     * no dense {@code K×K} matrix, so {@code λ → 1} (tens of thousands of levels) costs {@code O(K)}.
     */
    private FluidFixedPoint randomRoutingFixedPoint(double rate, FixedPointSolver solver) {
        int levels = system.isLossy() ? system.capacity()
                : truncation.isAutomatic() ? birthDeathLevels(rate, truncation.tolerance()) : truncation.levels();
        TailModel model = withLevels(levels);
        double[] guess = birthDeathTail(rate, levels);
        FixedPointSolver polish = new FixedPointSolver(new FixedPointSolver.Settings(
                solver.settings().residualTolerance(), solver.settings().maxIterations(), 0.0,
                solver.settings().spectrumLimit()));
        return FluidFixedPoint.smooth(model, requireStable(polish.solve(model, guess)));
    }

    /** The tail {@code (x_1..x_K)} of the birth–death chain on {@code 0..K} with birth rate λ and death rates {@code μ_i}. */
    private double[] birthDeathTail(double rate, int levels) {
        double[] logWeight = new double[levels + 1];
        double max = 0;
        for (int j = 1; j <= levels; j++) {
            logWeight[j] = logWeight[j - 1] + Math.log(rate / system.departureRate(j));
            max = Math.max(max, logWeight[j]);
        }
        double[] x = new double[levels];
        double sum = 0;
        for (int j = levels; j >= 1; j--) {
            sum += Math.exp(logWeight[j] - max);
            x[j - 1] = sum;
        }
        double total = sum + Math.exp(-max);
        for (int i = 0; i < levels; i++) {
            x[i] /= total;
        }
        return x;
    }

    /**
     * The smallest {@code K} past the mode of the untruncated chain with {@code Σ_{i>K} x_i ≤ tolerance},
     * bounded by the geometric series of the ratio {@code λ/μ_{K+1}} (the ratios decrease beyond the mode).
     */
    private int birthDeathLevels(double rate, double tolerance) {
        double logWeight = 0;
        double logTotal = 0; // log Σ_{j≤K} of the weights: at most the true normaliser, so the bound is safe
        for (int k = 1; ; k++) {
            if (k > MAX_CLOSED_FORM_LEVELS) {
                throw tooManyLevels(rate, MAX_CLOSED_FORM_LEVELS);
            }
            logWeight += Math.log(rate / system.departureRate(k));
            logTotal = logTotal > logWeight ? logTotal + Math.log1p(Math.exp(logWeight - logTotal))
                    : logWeight + Math.log1p(Math.exp(logTotal - logWeight));
            double r = rate / system.departureRate(k + 1);
            if (r < 1) {
                // Σ_{i>K} x_i = Σ_{j>K} (j − K) π_j ≤ π_K r / (1 − r)²
                double bound = Math.exp(logWeight - logTotal) * r / ((1 - r) * (1 - r));
                // a margin of 100: the closed form costs O(K), and quantities weighted towards the
                // far tail (response-time survival at large t) converge more slowly than the mass
                if (bound <= tolerance / 100) {
                    return Math.max(k, 2);
                }
            }
        }
    }

    /**
     * Integrates the drift from {@code initial} over {@code grid} as one ODE ({@link TransientSolver});
     * an automatic truncation starts above the initial state and the mean occupancy and doubles
     * until the cut-off mass stays below the tolerance at every grid time.
     */
    @Override
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
            if (initial.occupiedLevels() + 4L > MAX_LEVELS) {
                throw MflbException.invalid("init", initial, "a state with at most " + (MAX_LEVELS - 4)
                        + " jobs per server (it occupies " + initial.occupiedLevels() + " levels; a tail vector keeps at most "
                        + MAX_LEVELS + ")");
            }
            levels = checkedLevels(Math.max(initial.occupiedLevels() + 4L,
                    initialLevels(lambda.supremum(grid.start(), grid.end()))));
            requireReachableLevels(initial, grid);
        }
        requireFeasibleWork(levels, grid);
        if (initial.kind() == InitialState.Kind.FIXED_POINT) {
            FluidFixedPoint fp = fluid.withArrivalRate(ArrivalRate.constant(lambda.at(grid.start()))).fixedPoint();
            start = fp.levels();
            levels = Math.max(levels, start.length);
            if (system.isLossy() || !truncation.isAutomatic()) {
                levels = fp.truncation();
            }
        }
        while (true) {
            TailModel model = withLevels(levels);
            double[] x0 = start != null ? TailVectors.resize(start, levels) : initial.levels(levels);
            FluidTransient result = FluidTransient.smooth(model, solver.solve(model, x0, grid));
            if (system.isLossy() || !truncation.isAutomatic() || result.cutOffMass() <= truncation.tolerance()) {
                return result;
            }
            levels = checkedLevels(2L * levels);
        }
    }

    /**
     * Refuses at once a transient whose state must reach more levels than {@link #MAX_LEVELS}: the
     * mean queue length at the end is at least {@code m_0 + (λ − 1)T} for single-server queues
     * (departures at rate ≤ 1) and {@code λ(1 − e^{−T}) + m_0 e^{−T}} for pools under a constant
     * load, and every job above the mean needs its level.
     */
    private void requireReachableLevels(InitialState initial, TimeGrid grid) {
        if (!lambda.isConstant() || initial.kind() == InitialState.Kind.FIXED_POINT) {
            return;
        }
        double rate = lambda.at(0);
        double span = grid.end() - grid.start();
        double m0 = TailVectors.mean(initial.levels(Math.max(1, initial.occupiedLevels())));
        double meanAtEnd = system.kind() == ServerSystem.Kind.SUPERMARKET ? m0 + (rate - 1) * span
                : rate * -Math.expm1(-span) + m0 * Math.exp(-span);
        if (meanAtEnd > MAX_LEVELS) {
            throw new MflbException(ErrorKind.TRUNCATION, "t-end", String.format(java.util.Locale.ROOT,
                    "the mean queue length reaches at least %.4g jobs per server by t = %s, more than the %d"
                            + " levels a tail vector may keep: shorten t-end or lower lambda",
                    meanAtEnd, grid.end(), MAX_LEVELS));
        }
    }

    /** Explicit steps cost: 12 drift evaluations of {@code O(K)}; about this many per second. */
    private static final double LEVEL_EVALUATIONS_PER_SECOND = 2e8;
    /** The longest integration started without being refused. */
    private static final double MAX_SECONDS = 600;

    /**
     * Refuses at once a transient the explicit integrator cannot finish in minutes: its step is held
     * to about {@code 5/ρ} by the stiffness {@code ρ ≈ λ·max h' + μ_K} (the largest rate of the
     * drift), so it takes {@code ≈ ρT/5} steps of 12 drift evaluations of {@code K} levels.
     */
    private void requireFeasibleWork(int levels, TimeGrid grid) {
        double span = grid.end() - grid.start();
        double stiffness = lambda.supremum(grid.start(), grid.end()) * 2 * routing.d() + system.departureRate(levels);
        double seconds = stiffness * span / 5 * 12 * levels / LEVEL_EVALUATIONS_PER_SECOND;
        if (seconds > MAX_SECONDS) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "t-end", String.format(java.util.Locale.ROOT,
                    "the transient needs about %.2g explicit steps over %d levels (stiffness %.3g: about %.0f minutes);"
                            + " shorten t-end (the fixed point gives the long-run state) or lower lambda",
                    stiffness * span / 5, levels, stiffness, seconds / 60));
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
    private int grownLevels(double[] x, double tolerance) {
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

    private int checkedLevels(long levels) {
        if (levels > MAX_LEVELS) {
            throw tooManyLevels(Double.NaN, MAX_LEVELS);
        }
        return (int) levels;
    }

    /** The truncation limit, with the reason that fits the system (never "instability" for pools). */
    private MflbException tooManyLevels(double rate, int limit) {
        String why = system.kind() == ServerSystem.Kind.SUPERMARKET
                ? "the load is too close to 1 for this tolerance, or the initial state holds too many jobs"
                : "pools at lambda = " + (Double.isNaN(rate) ? lambda.supremum(0, 0) : rate)
                        + " hold about lambda jobs each (or the initial state holds too many): "
                        + "the tail vector has a level per job";
        return new MflbException(ErrorKind.TRUNCATION, "truncation",
                "the tail vector needs more than " + limit
                        + " levels to keep the cut-off mass below the tolerance (" + why
                        + "); a larger tail-tolerance needs fewer levels");
    }
}
