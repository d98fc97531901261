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
 * JIQ, threshold, self-learning threshold; paper 000 eq. (2), docs/models.md §3) has a drift that
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
     * @return the response-time law of a job arriving at {@code t} (dense output; non-smooth policies:
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
     * equilibrium the fluid converges to (paper 000 Section 3; {@link org.mflb.fluid.nonsmooth.ThresholdEquilibria}).
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
        if (system.isLossy()) {
            TailModel model = withLevels(system.capacity());
            return FluidFixedPoint.smooth(model, requireStable(solver.solve(model, new double[system.capacity()])));
        }
        if (!truncation.isAutomatic()) {
            TailModel model = withLevels(truncation.levels());
            return FluidFixedPoint.smooth(model, requireStable(solver.solve(model, new double[truncation.levels()])));
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
                return FluidFixedPoint.smooth(model, requireStable(solver.withSpectrum(model, fp)));
            }
            int next = grownLevels(x, truncation.tolerance());
            guess = TailVectors.extend(x, next);
            levels = next;
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
            FluidTransient result = FluidTransient.smooth(model, solver.solve(model, x0, grid));
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
