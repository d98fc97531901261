package org.mflb.simulation;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;
import org.mflb.core.system.ServerClasses;
import org.mflb.simulation.dispatch.PolicyImplementation;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * A simulation run: the {@link LoadBalancingModel} simulated (system, policy, arrival rate
 * {@code N·λ(t)}, service law), the {@link RunControl} (N, initial state, horizon, warm-up,
 * replications, seed, threads, engine) and the {@link Observation} (time grid, percentiles,
 * covariance, batches). Each part is validated on its own; this class checks what needs several of
 * them, and raises an {@link MflbException} of kind {@link ErrorKind#INVALID_PARAMETER} naming the
 * parameter and its valid range: a time grid within the horizon, {@code λ·E[S] < 1} for
 * single-server queues in a steady-state run, {@code d ≤ N} for distinct sampling, an initial state
 * within the capacity of loss pools, a memory state for SQ(d) with memory only, the occupancy engine
 * only where it is exact, and a run that fits in the heap and in days of work.
 *
 * <p>Steady-state versus transient runs: without a time grid the run estimates stationary quantities
 * by time averages over {@code [warmup, tEnd]}, so single-server queues need a constant
 * {@code λ < 1/E[S]}; with a grid the run also records the tail vector at times
 * {@code 0, dt, 2dt, ... ≤ tEnd} and any load is allowed.
 *
 * <p>Confidence intervals: with {@code R ≥ 2} replications every replication is one observation of
 * each estimator (Student t with R − 1 degrees of freedom); with one replication the window
 * {@code [warmup, tEnd]} is cut into {@link Observation#batches()} batches (batch means).
 *
 * <p>Servers of different speeds ({@link org.mflb.core.system.ServerClasses}, docs/models.md §10): class
 * k has {@code N·a_k} servers, a whole number ({@link #classLayout()}; another N is refused naming the
 * nearest one that works), and a steady-state run needs {@code λ·E[S]} below the stability boundary
 * λ* of the policy ({@code ServerClasses.stabilityBoundary}).
 *
 * <p>Engines ({@link Engine}): {@link #engineInUse()} is the occupancy engine where it is exact
 * ({@link #occupancyExact()}) unless the agent engine is asked for; both simulate the same process.
 * The least-loaded policy LL(d) runs on the workload engine, and only there.
 */
public final class SimulationScenario {

    /** Largest number of points of the time grid. */
    public static final int MAX_GRID_POINTS = 1_000_000;
    /** Simulations expected to take more events than this (days of work) are refused. */
    public static final double MAX_EVENTS = 1e12;
    /**
     * Bytes of state per server and replication in flight, whatever the engine: the level sets
     * (three ints), a FIFO ring of eight arrival times with its head and count, overflow links and
     * an event-calendar entry; an upper estimate.
     */
    static final long BYTES_PER_SERVER = 128;
    /** Bytes per job in the system (its arrival time, links and calendar entry); an upper estimate. */
    static final long BYTES_PER_JOB = 32;
    /**
     * Bytes per server of the workload engine: the epoch at which it empties (a double) and, for
     * distinct sampling, its place in a permutation (an int); an upper estimate.
     */
    static final long WORKLOAD_BYTES_PER_SERVER = 16;
    /** Bytes per job present at a unit's end in the workload engine (its departure epoch, carried over). */
    static final long WORKLOAD_BYTES_PER_JOB = 8;

    private final LoadBalancingModel model;
    private final RunControl run;
    private final Observation observation;
    private final PolicyImplementation implementation;
    /** The server classes of the N servers, {@code null} for servers of one speed 1. */
    private final ServerClassLayout layout;

    /**
     * @param model the system simulated
     * @param run how it is run; a warm-up left to its default ({@code NaN}) is resolved here
     * @param observation what is measured
     * @throws MflbException naming the parameter when the parts do not fit together
     */
    public SimulationScenario(LoadBalancingModel model, RunControl run, Observation observation) {
        this.model = requireModel(model);
        this.observation = Objects.requireNonNull(observation, "observation");
        double tEnd = Objects.requireNonNull(run, "run").tEnd();
        double dt = this.observation.dt();
        if (dt > tEnd) {
            throw MflbException.invalid("dt", dt, "in (0, t-end = " + tEnd + "] (or absent)");
        }
        if (dt > 0 && tEnd / dt >= MAX_GRID_POINTS) {
            throw MflbException.invalid("dt", dt, ">= t-end / " + MAX_GRID_POINTS + " (at most "
                    + MAX_GRID_POINTS + " grid points)");
        }
        double meanService = model.service().mean();
        this.layout = model.hasClasses() ? new ServerClassLayout(model.classes(), run.servers()) : null;
        double boundary = model.classes().stabilityBoundary(model.policy().d(), model.policy().sampling());
        if (layout != null && dt == 0 && model.arrivalRate().isConstant()
                && model.arrivalRate().at(0) * meanService >= boundary) {
            throw MflbException.invalid("lambda", model.arrivalRate().at(0), String.format(Locale.ROOT,
                    "below lambda* = %.6g%s for policy %s with classes %s in a steady-state run: beyond it the"
                            + " slowest classes receive more than their capacity (give dt for a transient run)",
                    boundary / meanService, meanService == 1.0 ? "" : " (lambda E[S] < " + boundary + ")",
                    model.policy().id(), model.classes().spec()));
        }
        if (isQueue() && dt == 0 && model.arrivalRate().isConstant() && model.arrivalRate().at(0) * meanService >= 1
                && layout == null) {
            throw MflbException.invalid("lambda", model.arrivalRate().at(0), (meanService == 1.0 ? "in (0, 1)"
                    : "in (0, 1/E[S]) = (0, " + 1 / meanService + ")")
                    + " for single-server queues in a steady-state run (give dt for a transient run)");
        }
        // the default warm-up: a tenth of the run for time averages, none before a transient's grid
        this.run = Double.isNaN(run.warmup()) ? run.withWarmup(dt > 0 ? 0 : tEnd / 10) : run;
        Policy policy = model.policy();
        if (policy.samples() && policy.sampling() == Sampling.DISTINCT && policy.d() > run.servers()) {
            throw MflbException.invalid("d", policy.d(), "an integer in [1, n = " + run.servers()
                    + "] for distinct sampling");
        }
        this.implementation = PolicyImplementation.of(policy, model.classes());
        // only a dispatcher with a state beyond the counts (SQ(d) with memory: its observations) starts from one
        if (run.initialMemory() != null && implementation.countsSuffice()) {
            throw MflbException.invalid(InitialState.PARAMETER, run.initialMemory(), "a tail vector or all:K (the"
                    + " memory: form sets the dispatcher's observations: policy memory only)");
        }
        if (model.system().isLossy() && run.initialCounts().length - 1 > model.system().capacity()) {
            throw MflbException.invalid(InitialState.PARAMETER, run.initialState(),
                    "a state with at most capacity = " + model.system().capacity() + " jobs per pool");
        }
        if (implementation.needsWorkloads()) {
            requireWorkloadRun(policy);
        } else if (run.engine() == Engine.WORKLOAD) {
            throw MflbException.invalid("engine", run.engine().cliName(), "auto, agent or occupancy for policy "
                    + policy.id() + ": the workload engine runs the least-loaded policy ll only");
        }
        if (run.engine() == Engine.OCCUPANCY && !occupancyExact()) {
            throw MflbException.invalid("engine", run.engine().cliName(), "auto or agent for this scenario: the"
                    + " occupancy engine needs exponential service (no forced event calendar) and a policy of"
                    + " random|sqd|jsq|jiq|threshold|adaptive-threshold");
        }
        requireFeasible();
    }

    /**
     * LL(d) runs on the workload engine, whose state is the epoch at which each server empties: no
     * queue lengths of every level (hence no covariance of the tail), no event calendar, no memory.
     */
    private void requireWorkloadRun(Policy policy) {
        if (run.engine() != Engine.AUTO && run.engine() != Engine.WORKLOAD) {
            throw MflbException.invalid("engine", run.engine().cliName(), "auto or workload for policy " + policy.id()
                    + ": the least-loaded policy reads workloads, which only the workload engine keeps");
        }
        if (observation.covarianceLevels() > 0) {
            throw MflbException.invalid("covariance-levels", observation.covarianceLevels(), "0 for policy "
                    + policy.id() + ": the workload engine keeps no queue lengths beyond busy or idle");
        }
        if (run.eventCalendar()) {
            throw MflbException.invalid("event-calendar", true, "false for policy " + policy.id()
                    + ": the workload engine has no departure events");
        }
        if (run.initialMemory() != null) {
            throw MflbException.invalid(InitialState.PARAMETER, run.initialMemory(), "a tail vector or all:K (the"
                    + " memory: form sets the dispatcher's observations: policy memory only)");
        }
    }

    static LoadBalancingModel requireModel(LoadBalancingModel model) {
        if (model == null) {
            throw MflbException.missing("model", "(the system, policy, arrival rate and service law to simulate)");
        }
        return model;
    }

    /** @return a builder with the defaults (see {@link ScenarioBuilder}) */
    public static ScenarioBuilder builder() {
        return new ScenarioBuilder();
    }

    /** @return a builder initialised with this scenario's parts (its warm-up resolved) */
    public ScenarioBuilder toBuilder() {
        ScenarioBuilder b = new ScenarioBuilder().model(model).observation(observation);
        b.servers = run.servers();
        b.tEnd = run.tEnd();
        b.warmup = run.warmup();
        b.replications = run.replications();
        b.seed = run.seed();
        b.threads = run.threads();
        b.engine = run.engine();
        b.eventCalendar = run.eventCalendar();
        b.initialState = run.initialState();
        b.initialMemory = run.initialMemory();
        return b;
    }

    /** @return the model simulated */
    public LoadBalancingModel model() {
        return model;
    }

    /** @return how the run is controlled, its warm-up resolved */
    public RunControl run() {
        return run;
    }

    /** @return what the run measures */
    public Observation observation() {
        return observation;
    }

    /**
     * @return where the server classes sit among the N servers (docs/models.md §10), or {@code null}
     *         for servers of one speed 1
     */
    public ServerClassLayout classLayout() {
        return layout;
    }

    /**
     * @return the jobs of each server at time 0: {@link RunControl#initialLevels()}, or with server
     *         classes the initial state rounded within each class ({@link #initialClassCounts()}), class
     *         k's servers at {@code [start(k), end(k))}
     */
    public int[] initialLevels() {
        if (layout == null) {
            return run.initialLevels();
        }
        int[] levels = new int[run.servers()];
        for (int k = 0; k < layout.count(); k++) {
            int[] part = InitialServers.levels(run.initialState(), layout.size(k));
            System.arraycopy(part, 0, levels, layout.start(k), part.length);
        }
        return levels;
    }

    /**
     * @return with server classes, {@code c_{k,i}}: the servers of class k with at least i jobs at time 0,
     *         the initial tail vector rounded within each class as {@link RunControl#initialCounts()} does
     *         for all servers; {@code null} for servers of one speed
     */
    public int[][] initialClassCounts() {
        if (layout == null) {
            return null;
        }
        int[][] c = new int[layout.count()][];
        for (int k = 0; k < c.length; k++) {
            c[k] = InitialServers.counts(run.initialState(), layout.size(k));
        }
        return c;
    }

    /** @return how the simulator runs the model's policy (its dispatcher, its law on the counts) */
    public PolicyImplementation policyImplementation() {
        return implementation;
    }

    /** @return whether the servers are single-server FIFO queues (jobs wait; response times are measured) */
    public boolean isQueue() {
        return model.system().kind() == ServerSystem.Kind.SUPERMARKET;
    }

    /** @return the grid times {@code k·dt ≤ tEnd}, empty without a grid */
    public double[] gridTimes() {
        double dt = observation.dt();
        if (dt == 0) {
            return new double[0];
        }
        // tolerate round-off so that t-end itself is on the grid when it is a multiple of dt
        int count = (int) Math.floor(run.tEnd() / dt * (1 + 1e-12)) + 1;
        double[] g = new double[count];
        for (int k = 0; k < count; k++) {
            g[k] = Math.min(k * dt, run.tEnd());
        }
        return g;
    }

    /** @return the number of observations per replication behind each confidence interval */
    public int unitsPerReplication() {
        return run.replications() == 1 ? observation.batches() : 1;
    }

    /**
     * {@code λ·E[S]} in a steady-state run: no time grid and a constant arrival rate. It is the exact
     * stationary mean, at any N and under any policy, of the busy fraction {@code x_1} of
     * single-server queues (no job is lost, and in steady state the servers complete work at the rate
     * it arrives: Little's law for the servers) and of the jobs per infinite-server pool (Little's
     * law). With a rate profile or along a transient {@code E[x_1(t)]} is not known.
     *
     * With servers of different speeds the busy fraction is not known ({@code Σ_k s_k y_{k,1} = λE[S]}
     * is), so the answer is empty.
     *
     * @return {@code λ·E[S]}, or empty with a grid, with a time-varying rate or with server classes
     */
    public OptionalDouble stationaryLoad() {
        if (observation.hasGrid() || !model.arrivalRate().isConstant() || layout != null) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(model.arrivalRate().at(0) * model.service().mean());
    }

    /** @return {@link #stationaryLoad()} for single-server queues, where it is the mean busy fraction; else empty */
    public OptionalDouble stationaryBusyFraction() {
        return isQueue() ? stationaryLoad() : OptionalDouble.empty();
    }

    /**
     * @return whether the exponential fast path applies: exponential service (of any mean) and no
     *         forced event calendar
     */
    public boolean exponentialFastPath() {
        return model.exponentialService() && !run.eventCalendar();
    }

    /**
     * @return whether the occupancy counts alone are an exact simulation: exponential service (no
     *         forced event calendar) and a policy that looks only at the queue lengths of servers
     *         that are exchangeable (everything but SQ(d) with memory, whose per-server observations
     *         are state)
     */
    public boolean occupancyExact() {
        return exponentialFastPath() && implementation.countsSuffice();
    }

    /** @return the engine that runs this scenario: {@link Engine#AUTO} resolved (the workload engine for LL(d)) */
    public Engine engineInUse() {
        if (implementation.needsWorkloads()) {
            return Engine.WORKLOAD;
        }
        if (run.engine() == Engine.AUTO) {
            return occupancyExact() ? Engine.OCCUPANCY : Engine.AGENT;
        }
        return run.engine();
    }

    /**
     * @return the estimated heap the replications running at once need on the agent engine:
     *         {@link #BYTES_PER_SERVER} per server and {@link #BYTES_PER_JOB} per job held at once
     *         ({@link #expectedJobs()}); 0 on the occupancy engine, whose state is a count per level
     */
    public long memoryEstimate() {
        if (engineInUse() == Engine.OCCUPANCY) {
            return 0; // counts per level only: no per-server or per-job state
        }
        if (engineInUse() == Engine.WORKLOAD) {
            return (long) Math.min(Long.MAX_VALUE / 2, (WORKLOAD_BYTES_PER_SERVER * (double) run.servers()
                    + WORKLOAD_BYTES_PER_JOB * expectedJobs()) * Math.min(run.threads(), run.replications()));
        }
        return (long) Math.min(Long.MAX_VALUE / 2, (BYTES_PER_SERVER * (double) run.servers()
                + BYTES_PER_JOB * expectedJobs()) * Math.min(run.threads(), run.replications()));
    }

    /**
     * @return the jobs one replication holds at the end, estimated: the initial ones plus, for
     *         pools, about {@code λE[S]} per pool (Little's law; at most {@code C} for loss pools) and,
     *         for single-server queues, the growth {@code (λE[S] − 1)T} when overloaded
     */
    public double expectedJobs() {
        double load = model.arrivalRate().supremum(0, run.tEnd()) * model.service().mean();
        double perServer = switch (model.system().kind()) {
            case POOLS -> load;
            case LOSS -> Math.min(load, model.system().capacity());
            case SUPERMARKET -> Math.max(0, (load - 1) * run.tEnd());
        };
        return run.servers() * (run.initialJobsPerServer() + perServer);
    }

    /**
     * @return the events expected over all replications: arrivals {@code NλT} and as many departures
     *         (arrivals only on the workload engine, which has no departure events)
     */
    public double expectedEvents() {
        return (engineInUse() == Engine.WORKLOAD ? 1.0 : 2.0) * run.servers() * model.arrivalRate().supremum(0, run.tEnd()) * run.tEnd() * run.replications();
    }

    /** Refuses, before any work, a run of days or whose state cannot fit in the heap, with the numbers. */
    private void requireFeasible() {
        if (expectedEvents() > MAX_EVENTS) {
            throw MflbException.invalid("t-end", run.tEnd(), String.format(Locale.ROOT,
                    "shorter: this run would simulate about %.2g events (n lambda t-end replications, days of work"
                            + " at a few million events per second); at most %.0g", expectedEvents(), MAX_EVENTS));
        }
        Runtime runtime = Runtime.getRuntime();
        long available = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
        if (memoryEstimate() > 0.8 * available) {
            int atOnce = Math.min(run.threads(), run.replications());
            boolean workload = engineInUse() == Engine.WORKLOAD;
            long perServer = workload ? WORKLOAD_BYTES_PER_SERVER : BYTES_PER_SERVER;
            long perJob = workload ? WORKLOAD_BYTES_PER_JOB : BYTES_PER_JOB;
            boolean jobs = expectedJobs() * perJob > perServer * (double) run.servers();
            throw MflbException.invalid(jobs ? "lambda" : "n",
                    jobs ? (Object) model.arrivalRate().supremum(0, run.tEnd()) : (Object) run.servers(),
                    String.format(Locale.ROOT, "smaller: the run needs about %.0f MB (%d bytes per server, %d per"
                            + " job held, about %.3g jobs per replication, %d replication(s) at once), more than the %.0f MB"
                            + " of memory available: lower n, lambda, t-end or threads, or raise the heap with"
                            + " MFLB_JAVA_OPTS=-Xmx...", memoryEstimate() / 1e6, perServer, perJob,
                            expectedJobs(), atOnce, available / 1e6));
        }
    }
}
