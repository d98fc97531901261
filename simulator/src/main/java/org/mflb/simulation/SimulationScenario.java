package org.mflb.simulation;

import java.util.OptionalDouble;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;

/**
 * Everything that defines a simulation run: the system of {@code N} servers or pools, the
 * dispatching policy, the arrival rate {@code N·λ(t)}, the service law (mean 1), the initial state,
 * the horizon and the estimators' settings. Immutable and validated at construction: every invalid
 * parameter raises an {@link MflbException} of kind {@link ErrorKind#INVALID_PARAMETER} naming it
 * (with the command-line name, e.g. {@code t-end}) and its valid range.
 *
 * <p>Steady-state versus transient runs: without a time grid ({@code dt = 0}) the run estimates
 * stationary quantities by time averages over {@code [warmup, tEnd]}, so single-server queues need
 * a constant {@code λ < 1}; with a grid the run also records the tail vector at times
 * {@code 0, dt, 2dt, ... ≤ tEnd} and any load is allowed.
 *
 * <p>Confidence intervals: with {@code R ≥ 2} replications every replication is one observation of
 * each estimator (Student t with R − 1 degrees of freedom); with one replication the window
 * {@code [warmup, tEnd]} is cut into {@link #batches()} batches (batch means).
 *
 * <p>Engines ({@link Engine}): {@link #engineInUse()} is the occupancy engine where it is exact
 * ({@link #occupancyExact()}) unless the agent engine is asked for; both simulate the same process.
 * Response-time quantiles are estimated at {@link #percentiles()} (none by default).
 */
public final class SimulationScenario {

    /** Largest number of servers accepted (arrays of this size must fit in memory). */
    public static final int MAX_SERVERS = 100_000_000;
    /** Largest number of points of the time grid. */
    public static final int MAX_GRID_POINTS = 1_000_000;
    /** Largest number of response-time percentiles. */
    public static final int MAX_PERCENTILES = 100;

    private final SystemKind system;
    private final Policy policy;
    private final int d;
    private final Sampling sampling;
    private final int capacity;
    private final int threshold;
    private final double alpha;
    private final ArrivalRate arrivalRate;
    private final int servers;
    private final ServiceDistribution service;
    private final boolean eventCalendar;
    private final InitialState initialState;
    private final MemoryState initialMemory;
    private final double tEnd;
    private final double warmup;
    private final double dt;
    private final int replications;
    private final long seed;
    private final int threads;
    private final int batches;
    private final int covarianceLevels;
    private final Engine engine;
    private final double[] percentiles;

    private SimulationScenario(Builder b) {
        if (b.system == null) {
            throw MflbException.invalid("system", null, "one of supermarket|pools|loss");
        }
        if (b.policy == null) {
            throw MflbException.invalid("policy", null, "a dispatching policy");
        }
        system = b.system;
        policy = b.policy;
        servers = b.servers;
        if (servers < 1 || servers > MAX_SERVERS) {
            throw MflbException.invalid("n", servers, "an integer in [1, " + MAX_SERVERS + "]");
        }
        if (b.arrivalRate == null) {
            throw MflbException.invalid("lambda", null, "a rate > 0 or a rate profile");
        }
        arrivalRate = b.arrivalRate;
        tEnd = Require.positive("t-end", b.tEnd);
        dt = b.dt;
        if (!(dt == 0 || (dt > 0 && dt <= tEnd))) {
            throw MflbException.invalid("dt", dt, "in (0, t-end = " + tEnd + "] (or absent)");
        }
        if (dt > 0 && tEnd / dt >= MAX_GRID_POINTS) {
            throw MflbException.invalid("dt", dt, ">= t-end / " + MAX_GRID_POINTS + " (at most "
                    + MAX_GRID_POINTS + " grid points)");
        }
        service = b.service;
        double meanService = service == null ? 1.0 : service.mean();
        if (arrivalRate.isConstant()) {
            double lambda = arrivalRate.at(0);
            Require.positive("lambda", lambda);
            if (system.isQueue() && dt == 0 && lambda * meanService >= 1) {
                throw MflbException.invalid("lambda", lambda, (meanService == 1.0 ? "in (0, 1)"
                        : "in (0, 1/E[S]) = (0, " + 1 / meanService + ")")
                        + " for single-server queues in a steady-state run (give dt for a transient run)");
            }
        }
        if (Double.isNaN(b.warmup)) {
            warmup = dt > 0 ? 0 : tEnd / 10;
        } else {
            warmup = b.warmup;
            if (!(warmup >= 0 && warmup < tEnd)) {
                throw MflbException.invalid("warmup", warmup, "in [0, t-end = " + tEnd + ")");
            }
        }
        d = b.d;
        sampling = b.sampling == null ? Sampling.REPLACEMENT : b.sampling;
        if (policy.samples()) {
            if (sampling == Sampling.DISTINCT) {
                if (d < 1 || d > servers) {
                    throw MflbException.invalid("d", d, "an integer in [1, n = " + servers + "] for distinct sampling");
                }
            } else {
                Require.atLeast("d", d, 1);
            }
        }
        capacity = b.capacity;
        if (system == SystemKind.LOSS) {
            Require.atLeast("capacity", capacity, 1);
        }
        if (policy == Policy.MEMORY && system != SystemKind.SUPERMARKET) {
            throw MflbException.invalid("policy", policy.cliName(), "used with system supermarket only");
        }
        if ((policy == Policy.THRESHOLD || policy == Policy.ADAPTIVE_THRESHOLD) && system != SystemKind.POOLS) {
            throw MflbException.invalid("policy", policy.cliName(), "used with system pools only");
        }
        threshold = b.threshold;
        if (policy == Policy.THRESHOLD || (policy == Policy.ADAPTIVE_THRESHOLD && b.thresholdGiven)) {
            Require.atLeast("threshold", threshold, 0);
        }
        alpha = b.alpha;
        if (policy == Policy.ADAPTIVE_THRESHOLD) {
            Require.open("alpha", alpha, 0, 1);
        }
        eventCalendar = b.eventCalendar;
        initialMemory = b.initialMemory;
        if (initialMemory != null) {
            if (policy != Policy.MEMORY) {
                throw MflbException.invalid(InitialState.PARAMETER, initialMemory, "a tail vector or all:K (the memory:"
                        + " form sets the dispatcher's observations: policy memory only)");
            }
            initialState = InitialState.tail(tailOf(initialMemory));
        } else {
            initialState = b.initialState == null ? InitialState.empty() : b.initialState;
        }
        if (initialState.kind() == InitialState.Kind.FIXED_POINT) {
            throw MflbException.invalid(InitialState.PARAMETER, initialState,
                    "one of empty, tail:1,x1,x2,... or all:K (the simulator has no model to take a fixed point of)");
        }
        if (system == SystemKind.LOSS) {
            int highest = initialCounts().length - 1;
            if (highest > capacity) {
                throw MflbException.invalid("init", initialState,
                        "a state with at most capacity = " + capacity + " jobs per pool");
            }
        }
        replications = Require.atLeast("replications", b.replications, 1);
        seed = b.seed;
        threads = Require.atLeast("threads", b.threads, 1);
        batches = Require.between("batches", b.batches, 2, 10_000);
        covarianceLevels = Require.between("covariance-levels", b.covarianceLevels, 0, 256);
        engine = b.engine == null ? Engine.AUTO : b.engine;
        if (engine == Engine.OCCUPANCY && !occupancyExact()) {
            throw MflbException.invalid("engine", engine.cliName(), "auto or agent for this scenario: the occupancy"
                    + " engine needs exponential service (without --event-calendar) and a policy of"
                    + " random|sqd|jsq|jiq|threshold|adaptive-threshold");
        }
        percentiles = b.percentiles.clone();
        if (percentiles.length > MAX_PERCENTILES) {
            throw MflbException.invalid("percentiles", percentiles.length + " values", "at most " + MAX_PERCENTILES
                    + " percentiles");
        }
        for (double p : percentiles) {
            if (!(p > 0 && p < 100)) {
                throw MflbException.invalid("percentiles", p, "in (0, 100)");
            }
        }
        requireMemory();
    }

    /**
     * Bytes of state per server and replication in flight, whatever the engine: the level sets
     * (three ints), a FIFO ring of eight arrival times with its head and count, overflow links and
     * an event-calendar entry; an upper estimate.
     */
    static final long BYTES_PER_SERVER = 128;

    /** Bytes per job in the system (its arrival time, links and calendar entry); an upper estimate. */
    static final long BYTES_PER_JOB = 32;
    /** Simulations expected to take more events than this (days of work) are refused. */
    public static final double MAX_EVENTS = 1e12;

    /**
     * @return the estimated heap the replications running at once need on the agent engine:
     *         {@link #BYTES_PER_SERVER} per server and {@link #BYTES_PER_JOB} per job held at once
     *         ({@link #expectedJobs()}); 0 on the occupancy engine, whose state is a count per level
     */
    public long memoryEstimate() {
        if (engineInUse() == Engine.OCCUPANCY) {
            return 0; // counts per level only: no per-server or per-job state
        }
        return (long) Math.min(Long.MAX_VALUE / 2, (BYTES_PER_SERVER * (double) servers + BYTES_PER_JOB * expectedJobs())
                * Math.min(threads, replications));
    }

    /**
     * @return the jobs one replication holds at the end, estimated: the initial ones plus, for
     *         pools, about {@code λE[S]} per pool (Little's law; at most {@code C} for loss pools) and,
     *         for single-server queues, the growth {@code (λE[S] − 1)T} when overloaded
     */
    public double expectedJobs() {
        double meanService = service == null ? 1.0 : service.mean();
        double load = arrivalRate.supremum(0, tEnd) * meanService;
        double initial = 0; // mean jobs per server of the initial state, Σ_i x_i
        for (double x : initialState.levels(initialState.occupiedLevels())) {
            initial += x;
        }
        double perServer = switch (system) {
            case POOLS -> load;
            case LOSS -> Math.min(load, capacity);
            case SUPERMARKET -> Math.max(0, (load - 1) * tEnd);
        };
        return servers * (initial + perServer);
    }

    /** @return the events expected over all replications: arrivals {@code NλT} and as many departures */
    public double expectedEvents() {
        return 2.0 * servers * arrivalRate.supremum(0, tEnd) * tEnd * replications;
    }

    /** Refuses, before any work, a system whose state cannot fit in the heap, with the numbers. */
    private void requireMemory() {
        if (expectedEvents() > MAX_EVENTS) {
            throw MflbException.invalid("t-end", tEnd, String.format(java.util.Locale.ROOT,
                    "shorter: this run would simulate about %.2g events (n lambda t-end replications, days of work"
                            + " at a few million events per second); at most %.0g", expectedEvents(), MAX_EVENTS));
        }
        Runtime runtime = Runtime.getRuntime();
        long available = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
        if (memoryEstimate() > 0.8 * available) {
            int atOnce = Math.min(threads, replications);
            boolean jobs = expectedJobs() * BYTES_PER_JOB > BYTES_PER_SERVER * (double) servers;
            throw MflbException.invalid(jobs ? "lambda" : "n", jobs ? (Object) arrivalRate.supremum(0, tEnd) : (Object) servers,
                    String.format(java.util.Locale.ROOT, "smaller: the run needs about %.0f MB (%d bytes per server, %d per"
                            + " job held, about %.3g jobs per replication, %d replication(s) at once), more than the %.0f MB"
                            + " of memory available: lower --n, --lambda, --t-end or --threads, or raise the heap with"
                            + " MFLB_JAVA_OPTS=-Xmx...", memoryEstimate() / 1e6, BYTES_PER_SERVER, BYTES_PER_JOB,
                            expectedJobs(), atOnce, available / 1e6));
        }
    }

    /** @return a builder with the defaults (see {@link Builder}) */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder initialised with this scenario's parameters */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.system = system;
        b.policy = policy;
        b.d = d;
        b.sampling = sampling;
        b.capacity = capacity;
        b.threshold = threshold;
        b.thresholdGiven = threshold >= 0;
        b.alpha = alpha;
        b.arrivalRate = arrivalRate;
        b.servers = servers;
        b.service = service;
        b.eventCalendar = eventCalendar;
        b.initialState = initialState;
        b.initialMemory = initialMemory;
        b.tEnd = tEnd;
        b.warmup = warmup;
        b.dt = dt;
        b.replications = replications;
        b.seed = seed;
        b.threads = threads;
        b.batches = batches;
        b.covarianceLevels = covarianceLevels;
        b.engine = engine;
        b.percentiles = percentiles.clone();
        return b;
    }

    /** @return the system */
    public SystemKind system() {
        return system;
    }

    /** @return the dispatching policy */
    public Policy policy() {
        return policy;
    }

    /** @return the number of sampled servers of SQ(d) and SQ(d) with memory */
    public int d() {
        return d;
    }

    /** @return how the {@code d} servers are sampled */
    public Sampling sampling() {
        return sampling;
    }

    /** @return the pool capacity {@code C} of loss pools ({@link Integer#MAX_VALUE} for other systems) */
    public int capacity() {
        return system == SystemKind.LOSS ? capacity : Integer.MAX_VALUE;
    }

    /** @return the threshold ℓ of the threshold policy (initial ℓ of the adaptive one), −1 if unset */
    public int threshold() {
        return threshold;
    }

    /** @return the parameter α of the self-learning threshold, NaN if unset */
    public double alpha() {
        return alpha;
    }

    /** @return the per-server arrival rate {@code λ(t)} */
    public ArrivalRate arrivalRate() {
        return arrivalRate;
    }

    /** @return the number {@code N} of servers (pools) */
    public int servers() {
        return servers;
    }

    /** @return the service law, or {@code null} for exponential service of mean 1 */
    public ServiceDistribution service() {
        return service;
    }

    /**
     * @return whether the exponential fast path applies: exponential service (of any mean) and no
     *         forced event calendar
     */
    public boolean exponentialFastPath() {
        return (service == null || service instanceof Exponential) && !eventCalendar;
    }

    /** @return the service rate {@code 1/E[S]} of exponential service (1 when no law is given) */
    public double exponentialServiceRate() {
        return service instanceof Exponential e ? e.rate() : 1.0;
    }

    /** @return whether the event-calendar engine is forced even for exponential service */
    public boolean eventCalendar() {
        return eventCalendar;
    }

    /** @return the initial state (never the fixed point: the simulator has no model to take it of) */
    public InitialState initialState() {
        return initialState;
    }

    /**
     * The number of jobs of each server at time 0: the integer state nearest to the tail vector
     * {@code x} of {@link #initialState()}. Rounding: {@code c_i = ⌊N·x_i + 1/2⌋} servers hold at
     * least {@code i} jobs (round half up; monotone, so {@code c_i} stays non-increasing), servers
     * {@code 0..c_i−1} being the ones with at least {@code i}. Each coordinate of the simulated tail
     * is then within {@code 1/(2N)} of {@code x_i}; {@code all:K} and {@code empty} are exact. Jobs
     * present at time 0 start their service afresh (age 0, a full service requirement), and their
     * arrival times are unknown, so the per-job estimators (response and waiting time) leave them out.
     *
     * @return a new array of length {@link #servers()}
     */
    public int[] initialLevels() {
        if (initialMemory != null) {
            return memoryCounts(true);
        }
        return initialLevels(initialState, servers);
    }

    /** @return the (queue, observation) state SQ(d) with memory starts from, or {@code null}: observations = true lengths */
    public MemoryState initialMemory() {
        return initialMemory;
    }

    /**
     * The dispatcher's observation of each server at time 0 (policy memory): for a
     * {@link Builder#initialMemory} state, servers are given (queue, observation) pairs in the
     * proportions {@code y_{i,j}} rounded to whole servers by largest remainders (the counts sum to
     * {@code N}; each within 1 of {@code N·y_{i,j}}), in the same server order as {@link #initialLevels()};
     * otherwise {@code null} (the dispatcher starts knowing every queue).
     *
     * @return a new array of length {@link #servers()}, or {@code null}
     */
    public int[] initialObservations() {
        return initialMemory == null ? null : memoryCounts(false);
    }

    /** The pairs in order of observation, then queue; {@code queues} picks which coordinate is returned. */
    private int[] memoryCounts(boolean queues) {
        int top = initialMemory.maxObservation();
        int pairs = (top + 1) * (top + 2) / 2;
        long[] count = new long[pairs];
        double[] remainder = new double[pairs];
        long assigned = 0;
        int k = 0;
        for (int j = 0; j <= top; j++) {
            for (int i = 0; i <= j; i++, k++) {
                double exact = servers * initialMemory.share(i, j);
                count[k] = (long) Math.floor(exact);
                remainder[k] = exact - count[k];
                assigned += count[k];
            }
        }
        while (assigned < servers) {
            int best = 0;
            for (int p = 1; p < pairs; p++) {
                if (remainder[p] > remainder[best]) {
                    best = p;
                }
            }
            count[best]++;
            remainder[best] = -1;
            assigned++;
        }
        int[] out = new int[servers];
        int s = 0;
        k = 0;
        for (int j = 0; j <= top; j++) {
            for (int i = 0; i <= j; i++, k++) {
                for (long c = 0; c < count[k] && s < servers; c++) {
                    out[s++] = queues ? i : j;
                }
            }
        }
        return out;
    }

    private static double[] tailOf(MemoryState m) {
        double[] x = m.queueLevels();
        double[] tail = new double[x.length + 1];
        tail[0] = 1.0;
        for (int i = 0; i < x.length; i++) {
            tail[i + 1] = Math.min(x[i], tail[i]);
        }
        return tail;
    }

    private static int[] initialLevels(InitialState initial, int n) {
        double[] x = initial.levels(initial.occupiedLevels());
        int[] l = new int[n];
        for (double xi : x) {
            long c = (long) Math.floor(n * xi + 0.5);
            for (int s = 0; s < c; s++) {
                l[s]++;
            }
        }
        return l;
    }

    /** @return the horizon {@code T} */
    public double tEnd() {
        return tEnd;
    }

    /** @return the warm-up time before the time averages start */
    public double warmup() {
        return warmup;
    }

    /** @return the step of the time grid of the transient estimates, 0 for none */
    public double dt() {
        return dt;
    }

    /**
     * {@code λ·E[S]} in a steady-state run: no time grid ({@code dt = 0}) and a constant arrival rate.
     * It is the exact stationary mean, at any N and under any policy, of the busy fraction {@code x_1}
     * of single-server queues (no job is lost, and in steady state the servers complete work at the
     * rate it arrives: Little's law for the servers) and of the jobs per infinite-server pool (Little's
     * law). With a rate profile or along a transient {@code E[x_1(t)]} is not known.
     *
     * @return {@code λ·E[S]}, or empty with a grid or with a time-varying rate
     */
    public OptionalDouble stationaryLoad() {
        if (dt != 0 || !arrivalRate.isConstant()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(arrivalRate.at(0) * (service == null ? 1.0 : service.mean()));
    }

    /** @return {@link #stationaryLoad()} for single-server queues, where it is the mean busy fraction; else empty */
    public OptionalDouble stationaryBusyFraction() {
        return system.isQueue() ? stationaryLoad() : OptionalDouble.empty();
    }

    /** @return the grid times {@code k·dt ≤ tEnd}, empty when {@code dt = 0} */
    public double[] gridTimes() {
        if (dt == 0) {
            return new double[0];
        }
        // tolerate round-off so that t-end itself is on the grid when it is a multiple of dt
        int count = (int) Math.floor(tEnd / dt * (1 + 1e-12)) + 1;
        double[] g = new double[count];
        for (int k = 0; k < count; k++) {
            g[k] = Math.min(k * dt, tEnd);
        }
        return g;
    }

    /** @return the number {@code R} of independent replications */
    public int replications() {
        return replications;
    }

    /** @return the seed from which every replication's stream is derived */
    public long seed() {
        return seed;
    }

    /** @return the number of worker threads */
    public int threads() {
        return threads;
    }

    /** @return the number of batches for batch means (used when {@code R = 1}) */
    public int batches() {
        return batches;
    }

    /** @return how many tail coordinates {@code x_1..x_K} enter the covariance estimate (0: none) */
    public int covarianceLevels() {
        return covarianceLevels;
    }

    /** @return the engine asked for ({@link Engine#AUTO} unless set) */
    public Engine engine() {
        return engine;
    }

    /**
     * @return whether the occupancy counts alone are an exact simulation: exponential service (no
     *         forced event calendar) and a policy that looks only at the queue lengths of servers
     *         that are exchangeable (everything but SQ(d) with memory, whose per-server observations
     *         are state)
     */
    public boolean occupancyExact() {
        return exponentialFastPath() && policy != Policy.MEMORY;
    }

    /** @return the engine that runs this scenario: {@link Engine#AUTO} resolved */
    public Engine engineInUse() {
        if (engine == Engine.AUTO) {
            return occupancyExact() ? Engine.OCCUPANCY : Engine.AGENT;
        }
        return engine;
    }

    /**
     * @return the response-time percentiles to estimate, each in (0, 100) (single-server queues; empty
     *         by default: no quantile estimates)
     */
    public double[] percentiles() {
        return percentiles.clone();
    }

    /**
     * The initial counts {@code c_i}, {@code i = 0..H}: the servers with at least {@code i} jobs in
     * {@link #initialLevels()}, computed without the per-server array.
     *
     * @return a new array, {@code c_0 = N}
     */
    public int[] initialCounts() {
        double[] x = initialState.levels(initialState.occupiedLevels());
        int[] c = new int[x.length + 1];
        c[0] = servers;
        for (int i = 0; i < x.length; i++) {
            c[i + 1] = (int) Math.min(servers, (long) Math.floor(servers * x[i] + 0.5));
        }
        int len = c.length;
        while (len > 1 && c[len - 1] == 0) {
            len--;
        }
        return java.util.Arrays.copyOf(c, len);
    }

    /** @return the number of observations per replication behind each confidence interval */
    public int unitsPerReplication() {
        return replications == 1 ? batches : 1;
    }

    /**
     * Mutable builder. Defaults: system supermarket, policy random, d = 2, sampling with replacement (as every command),
     * exponential service, empty initial state, warm-up {@code tEnd/10} for steady-state runs and 0
     * with a time grid, one replication, seed 1, as many threads as processors, 20 batches, no
     * covariance, engine auto, no response-time percentiles. {@code servers}, {@code lambda} (or
     * {@code arrivalRate}) and {@code tEnd} are required.
     */
    public static final class Builder {
        private SystemKind system = SystemKind.SUPERMARKET;
        private Policy policy = Policy.RANDOM;
        private int d = 2;
        private Sampling sampling = Sampling.REPLACEMENT;
        private int capacity = 0;
        private int threshold = -1;
        private boolean thresholdGiven;
        private double alpha = Double.NaN;
        private ArrivalRate arrivalRate;
        private int servers;
        private ServiceDistribution service;
        private boolean eventCalendar;
        private InitialState initialState = InitialState.empty();
        private MemoryState initialMemory;
        private double tEnd = Double.NaN;
        private double warmup = Double.NaN;
        private double dt;
        private int replications = 1;
        private long seed = 1;
        private int threads = Runtime.getRuntime().availableProcessors();
        private int batches = 20;
        private int covarianceLevels;
        private Engine engine = Engine.AUTO;
        private double[] percentiles = new double[0];

        private Builder() {
        }

        /** @param v the engine ({@link Engine#AUTO}: the occupancy engine where it is exact) */
        public Builder engine(Engine v) {
            engine = v;
            return this;
        }

        /** @param v response-time percentiles in (0, 100) to estimate (single-server queues) */
        public Builder percentiles(double... v) {
            percentiles = v.clone();
            return this;
        }

        /**
         * Sets everything the model states: system, policy (with d, sampling, threshold, alpha),
         * arrival rate and service law.
         *
         * @param model the load-balancing model
         */
        public Builder model(org.mflb.core.system.LoadBalancingModel model) {
            org.mflb.core.system.ServerSystem servers = model.system();
            system = switch (servers.kind()) {
                case SUPERMARKET -> SystemKind.SUPERMARKET;
                case POOLS -> SystemKind.POOLS;
                case LOSS -> SystemKind.LOSS;
            };
            if (servers.isLossy()) {
                capacity = servers.capacity();
            }
            org.mflb.core.system.Policy p = model.policy();
            policy = Policy.parse(p.id());
            d = p.d();
            sampling = p.sampling() == org.mflb.core.system.Sampling.DISTINCT ? Sampling.DISTINCT : Sampling.REPLACEMENT;
            if (p instanceof org.mflb.core.system.Policy.Threshold t) {
                threshold(t.threshold());
            } else if (p instanceof org.mflb.core.system.Policy.AdaptiveThreshold a) {
                threshold(a.initialThreshold());
                alpha = a.alpha();
            }
            arrivalRate = model.arrivalRate();
            service = model.service();
            return this;
        }

        /** @param v the system */
        public Builder system(SystemKind v) {
            system = v;
            return this;
        }

        /** @param v the policy */
        public Builder policy(Policy v) {
            policy = v;
            return this;
        }

        /** @param v number of sampled servers */
        public Builder d(int v) {
            d = v;
            return this;
        }

        /** @param v sampling mode */
        public Builder sampling(Sampling v) {
            sampling = v;
            return this;
        }

        /** @param v pool capacity {@code C} (loss pools) */
        public Builder capacity(int v) {
            capacity = v;
            return this;
        }

        /** @param v threshold ℓ */
        public Builder threshold(int v) {
            threshold = v;
            thresholdGiven = true;
            return this;
        }

        /** @param v α of the self-learning threshold */
        public Builder alpha(double v) {
            alpha = v;
            return this;
        }

        /** @param lambda constant per-server arrival rate */
        public Builder lambda(double lambda) {
            arrivalRate = new ArrivalRate.Constant(lambda); // validated in build()
            return this;
        }

        /** @param v per-server arrival rate {@code λ(t)} */
        public Builder arrivalRate(ArrivalRate v) {
            arrivalRate = v;
            return this;
        }

        /** @param v number of servers (pools) {@code N} */
        public Builder servers(int v) {
            servers = v;
            return this;
        }

        /** @param v service law ({@code null}: exponential of mean 1) */
        public Builder service(ServiceDistribution v) {
            service = v;
            return this;
        }

        /** @param v force the event-calendar engine even for exponential service (for cross-checks) */
        public Builder eventCalendar(boolean v) {
            eventCalendar = v;
            return this;
        }

        /** @param v initial state: empty, a tail vector or all:K (rounded by {@link SimulationScenario#initialLevels()}) */
        public Builder initialState(InitialState v) {
            initialState = v;
            return this;
        }

        /**
         * @param v the (queue, observation) state SQ(d) with memory starts from, e.g. stale memory
         *        {@code memory:0/3=1} (replaces {@link #initialState}; {@code null}: none)
         */
        public Builder initialMemory(MemoryState v) {
            initialMemory = v;
            return this;
        }

        /** @param v horizon {@code T} */
        public Builder tEnd(double v) {
            tEnd = v;
            return this;
        }

        /** @param v warm-up time ({@code NaN}: the default) */
        public Builder warmup(double v) {
            warmup = v;
            return this;
        }

        /** @param v grid step of the transient estimates (0: none) */
        public Builder dt(double v) {
            dt = v;
            return this;
        }

        /** @param v number of replications */
        public Builder replications(int v) {
            replications = v;
            return this;
        }

        /** @param v seed */
        public Builder seed(long v) {
            seed = v;
            return this;
        }

        /** @param v worker threads */
        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /** @param v number of batches for batch means with one replication */
        public Builder batches(int v) {
            batches = v;
            return this;
        }

        /** @param v number of tail coordinates in the covariance estimate (0: none) */
        public Builder covarianceLevels(int v) {
            covarianceLevels = v;
            return this;
        }

        /** @return the validated scenario */
        public SimulationScenario build() {
            return new SimulationScenario(this);
        }
    }
}
