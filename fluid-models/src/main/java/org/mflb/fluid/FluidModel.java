package org.mflb.fluid;

import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.memory.MemoryModel;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

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
 * The model is the system, the policy, the arrival rate, the truncation and the integrator's
 * tolerances; each family of {@link FluidPolicy} has its solver, chosen by {@link FluidPolicy#match}:
 * a {@link SmoothRouting} (random, SQ(d); docs/models.md §1–2) has the smooth drift of
 * {@link TailModel}, its fixed point found by Newton's method with the spectrum of the Jacobian and
 * its transient integrated as one ODE, and serves refined mean-field expansions
 * ({@link FluidFixedPoint#smoothDrift()}); a {@link NonSmoothPolicy} (JSQ, JIQ, threshold,
 * self-learning threshold; [GABL] eq. (2), docs/models.md §3) has closed-form equilibria
 * ({@link FluidFixedPoint#equilibrium()}) and transients integrated piece by piece with event
 * detection at the switching surfaces ({@link FluidTransient#regimes()}); SQ(d) with memory
 * ({@link MemoryPolicy}, §1a) lives on the (queue, observation) state of {@link MemoryModel}
 * ({@link FluidFixedPoint#memory()}, {@link FluidTransient#memory()}, and a stale-memory start
 * {@link #transientFrom(MemoryState, TimeGrid)}).
 * <p>
 * The number of levels is chosen so that the mass cut off stays below the truncation's tolerance
 * (checked on the result, and grown until it holds), unless the truncation is fixed.
 */
public final class FluidModel {

    private final ServerSystem system;
    private final FluidPolicy policy;
    private final ArrivalRate lambda;
    private final Truncation truncation;
    private final IntegratorSettings integrator;
    /** How this model is solved: the solver of its policy's family. */
    private final FluidSolver solver;

    private FluidModel(ServerSystem system, FluidPolicy policy, ArrivalRate lambda, Truncation truncation,
            IntegratorSettings integrator) {
        this.system = system;
        this.policy = policy;
        this.lambda = lambda;
        this.truncation = truncation;
        this.integrator = integrator;
        this.solver = solverOf(policy); // refuses a system the policy has no fluid limit on
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
        if (!model.unitExponentialService()) {
            throw MflbException.invalid("service", model.service().spec(), "exp (exponential of mean 1) for the fluid"
                    + " (ODE) models; general service times: the hydrodynamic PDE");
        }
        if (model.hasClasses()) {
            throw MflbException.invalid("classes", model.classes().spec(), "one class of speed 1 for the tail-vector"
                    + " fluid models; servers of different speeds: org.mflb.fluid.heterogeneous.HeterogeneousFluid");
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
        return solver.responseTime(fixedPoint);
    }

    /**
     * @param transient_ a transient of this model
     * @param k grid index
     * @return the response-time law of a job arriving at grid time {@code k} (non-smooth policies:
     *         from the piece in force there)
     */
    public FluidResponseTime responseTime(FluidTransient transient_, int k) {
        return solver.responseTime(transient_, k);
    }

    /**
     * @param transient_ a transient of this model
     * @param t a time of its span
     * @return the response-time law of a job arriving at {@code t} ({@link FluidTransient#stateAt}; non-smooth policies:
     *         the piece the policy puts in force at that state)
     */
    public FluidResponseTime responseTime(FluidTransient transient_, double t) {
        return solver.responseTime(transient_, t);
    }

    /** @return the integrator's tolerances */
    IntegratorSettings integrator() {
        return integrator;
    }

    /**
     * @return the smooth drift with {@code levels} levels (the model of refined mean-field expansions)
     * @throws MflbException if the policy is not smooth (see {@link #isSmooth()})
     */
    public TailModel withLevels(int levels) {
        return solver.withLevels(levels);
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
        return solver.fixedPoint(rate);
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
        return solver.transientFrom(initial, grid);
    }

    /**
     * Integrates SQ(d) with memory from a (queue, observation) state, e.g. stale memory
     * {@code memory:0/3=1} (docs/models.md §1a).
     *
     * @throws MflbException if the policy is not {@link MemoryPolicy}
     */
    public FluidTransient transientFrom(MemoryState initial, TimeGrid grid) {
        return solver.transientFrom(initial, grid);
    }

    /**
     * @return the solver of the policy's family, on this model's fields
     * @throws MflbException if the policy has no fluid limit on the system
     */
    private FluidSolver solverOf(FluidPolicy policy) {
        return policy.match(new FluidPolicy.Cases<FluidSolver>() {
            @Override
            public FluidSolver smooth(SmoothRouting routing) {
                return new SmoothFluid(FluidModel.this, routing);
            }

            @Override
            public FluidSolver nonSmooth(NonSmoothPolicy rule) {
                return new SwitchedFluid(FluidModel.this, rule);
            }

            @Override
            public FluidSolver memory(MemoryPolicy memory) {
                return new MemoryFluid(FluidModel.this, memory);
            }
        });
    }

    @Override
    public String toString() {
        return policy.name() + " on " + system;
    }
}
