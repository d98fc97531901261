package org.mflb.fluid;

import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerSystem;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.TransientSolver;
import org.mflb.core.model.MemoryState;
import org.mflb.fluid.memory.MemoryModel;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;
import org.mflb.fluid.nonsmooth.Regime;

/**
 * The fluid (mean-field) limit of a load-balancing system under any dispatching policy: the entry
 * point of the Java API. Immutable; {@code withX} returns a modified copy.
 * <pre>{@code
 *   FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
 *   FluidFixedPoint pi = sq2.fixedPoint();                          // x_i = 0.9^(2^i − 1)
 *   FluidTransient x = sq2.transientFrom(InitialState.empty(), TimeGrid.uniform(50, 0.5));
 *   double q = x.meanQueueLength(10.0);
 *
 *   FluidModel t2 = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(2), 2.5);
 *   FluidFixedPoint qStar = t2.fixedPoint();                        // levels q* = (1, 1, 0.5)
 *   qStar.equilibrium().orElseThrow().kind();                       // BALANCED
 *   t2.transientFrom(InitialState.empty(), TimeGrid.uniform(20, 0.1)).regimes().orElseThrow().switches();
 * }</pre>
 * A {@link SmoothRouting} policy (random, SQ(d)) has a smooth drift ({@link TailModel}): its fixed
 * point is found by Newton's method with the spectrum of the Jacobian, its transient integrated as
 * one ODE, and the drift is available for refined mean-field expansions
 * ({@link FluidFixedPoint#smoothDrift()}). A {@link org.mflb.fluid.nonsmooth.NonSmoothPolicy} (JSQ,
 * JIQ, threshold, self-learning threshold; [GABL] eq. (2), docs/models.md §3) has a drift that
 * switches between smooth pieces: its equilibria are closed forms
 * ({@link org.mflb.fluid.nonsmooth.ThresholdEquilibria}) and its transients are integrated piece by
 * piece with event detection at the switching surfaces
 * ({@link org.mflb.fluid.nonsmooth.PiecewiseSmoothSolver}); the pieces and switches are in
 * {@link FluidTransient#regimes()}, the kind of equilibrium in {@link FluidFixedPoint#equilibrium()}.
 * SQ(d) with memory ({@link MemoryPolicy}, docs/models.md §1a) lives on (queue, observation) pairs:
 * {@link MemoryModel} integrates it piece by piece and solves its tagged-server fixed point; its own
 * results are in {@link FluidFixedPoint#memory()} and {@link FluidTransient#memory()}, and a stale-memory
 * start is {@link #transientFrom(MemoryState, TimeGrid)}.
 * <p>
 * The number of levels is chosen so that the mass cut off stays below the truncation's tolerance
 * (checked on the result, and grown until it holds), unless the truncation is fixed.
 */
public final class FluidModel {

    /** Levels beyond which automatic truncation gives up. */
    static final int MAX_LEVELS = 200_000;
    /** The limit for random routing, whose fixed point is a closed form polished in {@code O(K)}. */
    static final int MAX_CLOSED_FORM_LEVELS = 2_000_000;

    private final ServerSystem system;
    private final FluidPolicy policy;
    private final ArrivalRate lambda;
    private final Truncation truncation;
    private final IntegratorSettings integrator;

    private FluidModel(ServerSystem system, FluidPolicy policy, ArrivalRate lambda, Truncation truncation,
            IntegratorSettings integrator) {
        if (policy instanceof NonSmoothPolicy rule) {
            SwitchedFluid.requireSupported(system, rule);
        } else if (policy instanceof MemoryPolicy memory) {
            MemoryModel.of(system, memory, lambda); // refuses pools
        } else if (!(policy instanceof SmoothRouting)) {
            throw MflbException.invalid("policy", policy.name(), "a SmoothRouting, a NonSmoothPolicy or a MemoryPolicy");
        }
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
     * @throws MflbException if a non-smooth policy is given loss pools, or a threshold policy
     *         single-server queues
     */
    public static FluidModel of(ServerSystem system, FluidPolicy policy, double lambda) {
        org.mflb.core.Require.positive("lambda", lambda);
        return of(system, policy, ArrivalRate.constant(lambda));
    }

    /**
     * @param system the servers
     * @param policy the dispatching policy
     * @param lambda per-server arrival rate {@code λ(t)}
     * @return the fluid model with automatic truncation (tolerance 1e-12)
     * @throws MflbException as {@link #of(ServerSystem, FluidPolicy, double)}
     */
    public static FluidModel of(ServerSystem system, FluidPolicy policy, ArrivalRate lambda) {
        return new FluidModel(system, policy, lambda, Truncation.DEFAULT, IntegratorSettings.DEFAULT);
    }

    /**
     * The fluid model of a load-balancing model whose policy does not depend on {@code N} (every
     * policy but SQ(d) with distinct sampling; SQ(d) with memory has the same fluid limit for both
     * samplings, docs/models.md §1a).
     *
     * @param model the system, policy and arrival rate; its service law must be exponential (general
     *        service: the hydrodynamic PDE)
     * @return the fluid model with automatic truncation (tolerance 1e-12)
     * @throws MflbException naming {@code n} if the policy samples distinct servers, or {@code service}
     */
    public static FluidModel of(LoadBalancingModel model) {
        return of(model, 0);
    }

    /**
     * @param model the system, policy and arrival rate (exponential service)
     * @param n the number of servers {@code N} of a policy that depends on it (SQ(d) with distinct
     *        sampling), ignored by the others; 0 when not known
     * @return the fluid model with automatic truncation (tolerance 1e-12)
     * @throws MflbException naming {@code n} if the policy needs it and {@code n < d}, or {@code service}
     */
    public static FluidModel of(LoadBalancingModel model, int n) {
        if (!model.exponentialService() || model.service().mean() != 1.0) {
            throw MflbException.invalid("service", model.service().spec(), "exp (exponential of mean 1) for the fluid"
                    + " (ODE) models; general service times: the hydrodynamic PDE");
        }
        return of(model.system(), FluidPolicy.of(model.policy(), n), model.arrivalRate());
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
    public FluidPolicy policy() {
        return policy;
    }

    /** @return whether the policy's drift is smooth ({@link SmoothRouting}) */
    public boolean isSmooth() {
        return policy.isSmooth();
    }

    /**
     * @return the {@code N → ∞} limit of the model: with-replacement sampling for SQ(d) with distinct
     *         servers (whose selection depends on {@code N}), this model otherwise
     */
    public FluidModel limit() {
        return policy.dependsOnSize() ? new FluidModel(system, policy.limit(), lambda, truncation, integrator) : this;
    }

    /** @return the arrival rate */
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    /** @return the truncation rule */
    public Truncation truncation() {
        return truncation;
    }

    /**
     * @param fixedPoint this model's {@link #fixedPoint()}
     * @return the stationary response-time law (docs/models.md §7): an Erlang mixture over where
     *         arrivals go in single-server queues, {@code Exp(1)} (and the blocking) in pools
     */
    public FluidResponseTime responseTime(FluidFixedPoint fixedPoint) {
        if (fixedPoint.memory().isPresent()) {
            // SQ(d) with memory: the shares follow from the (queue, observation) state, not from x alone
            return FluidResponseTime.ofShares(system, fixedPoint.memory().get().joinShares());
        }
        return FluidResponseTime.of(system, arrivalShares(null), lambda.at(0), fixedPoint.levels());
    }

    /**
     * @param transient_ a transient of this model
     * @param k grid index
     * @return the response-time law of a job arriving at grid time {@code k} (non-smooth policies:
     *         from the piece in force there)
     */
    public FluidResponseTime responseTime(FluidTransient transient_, int k) {
        if (transient_.memory().isPresent()) {
            return FluidResponseTime.ofShares(system, transient_.memory().get().joinShares(k));
        }
        Regime regime = transient_.regimes().map(h -> h.regime(k)).orElse(null);
        return FluidResponseTime.of(system, arrivalShares(regime), lambda.at(transient_.grid().time(k)),
                transient_.state(k));
    }

    /**
     * @param transient_ a transient of this model
     * @param t a time of its span
     * @return the response-time law of a job arriving at {@code t} ({@link FluidTransient#stateAt}; non-smooth policies:
     *         the piece the policy puts in force at that state)
     */
    public FluidResponseTime responseTime(FluidTransient transient_, double t) {
        if (transient_.memory().isPresent()) {
            return FluidResponseTime.ofShares(system, transient_.memory().get().joinShares(t));
        }
        return FluidResponseTime.of(system, arrivalShares(null), lambda.at(t), transient_.stateAt(t));
    }

    /** The policy's {@link ArrivalShares}: its own when smooth, the arrival split of a piece otherwise. */
    private ArrivalShares arrivalShares(Regime regime) {
        return policy instanceof SmoothRouting smooth ? smooth
                : SwitchedFluid.arrivalShares(system, (NonSmoothPolicy) policy, regime);
    }

    IntegratorSettings integrator() {
        return integrator;
    }

    /**
     * @return the smooth drift with {@code levels} levels (the model of refined mean-field expansions)
     * @throws MflbException if the policy is not smooth (see {@link #isSmooth()})
     */
    public TailModel withLevels(int levels) {
        if (!(policy instanceof SmoothRouting routing)) {
            throw MflbException.invalid("policy", policy.name(), "a policy with a smooth drift (random or SQ(d))");
        }
        return new TailModel(system, routing, lambda, levels);
    }

    /**
     * Computes the stable fixed point: for a smooth drift by pseudo-transient continuation and
     * Newton's method, with the spectrum of the Jacobian; for a non-smooth one the closed-form
     * equilibrium the fluid converges to ([GABL] Section 3; {@link org.mflb.fluid.nonsmooth.ThresholdEquilibria}).
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
        if (policy instanceof MemoryPolicy) {
            return FluidFixedPoint.memory(memoryModel().fixedPoint());
        }
        return policy instanceof SmoothRouting ? smoothFixedPoint(rate) : SwitchedFluid.fixedPoint(this, rate);
    }

    private FluidFixedPoint smoothFixedPoint(double rate) {
        FixedPointSolver solver = new FixedPointSolver();
        if (((SmoothRouting) policy).d() == 1) { // random routing, or SQ(1) with either sampling: h(y) = y
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
            return FluidFixedPoint.smooth(model, requireStable(solver.solve(model, new double[system.capacity()])));
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
     * Integrates the fluid limit from {@code initial} over {@code grid}: as one ODE for a smooth
     * drift, piece by piece with the switching surfaces located by event detection for a non-smooth
     * one ({@link org.mflb.fluid.nonsmooth.PiecewiseSmoothSolver}).
     *
     * @param initial initial state
     * @param grid output times
     * @return the transient, with truncation chosen so the cut-off mass stays below the tolerance at
     *         every grid time
     */
    public FluidTransient transientFrom(InitialState initial, TimeGrid grid) {
        if (policy instanceof MemoryPolicy) {
            return FluidTransient.memory(memoryModel().transientFrom(initial, grid));
        }
        return policy instanceof SmoothRouting ? smoothTransient(initial, grid) : SwitchedFluid.transientFrom(this, initial, grid);
    }

    /**
     * Integrates SQ(d) with memory from a (queue, observation) state, e.g. stale memory
     * {@code memory:0/3=1} (docs/models.md §1a).
     *
     * @throws MflbException if the policy is not {@link MemoryPolicy}
     */
    public FluidTransient transientFrom(MemoryState initial, TimeGrid grid) {
        return FluidTransient.memory(memoryModel().transientFrom(initial, grid));
    }

    /** @return the memory fluid of this model ({@link MemoryPolicy} only) */
    private MemoryModel memoryModel() {
        if (!(policy instanceof MemoryPolicy memory)) {
            throw MflbException.invalid("init", "a (queue, observation) state", "given only with the policy SQ(d) with memory");
        }
        return MemoryModel.of(system, memory, lambda).withTruncation(truncation).withIntegratorSettings(integrator);
    }

    private FluidTransient smoothTransient(InitialState initial, TimeGrid grid) {
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
                            + " levels a tail vector may keep: shorten --t-end or lower --lambda",
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
        double stiffness = lambda.supremum(grid.start(), grid.end()) * 2 * ((SmoothRouting) policy).d() + system.departureRate(levels);
        double seconds = stiffness * span / 5 * 12 * levels / LEVEL_EVALUATIONS_PER_SECOND;
        if (seconds > MAX_SECONDS) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "t-end", String.format(java.util.Locale.ROOT,
                    "the transient needs about %.2g explicit steps over %d levels (stiffness %.3g: about %.0f minutes);"
                            + " shorten --t-end (the fixed point gives the long-run state) or lower --lambda",
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
                        + "); a larger --tail-tolerance needs fewer levels");
    }

    @Override
    public String toString() {
        return policy.name() + " on " + system;
    }
}
