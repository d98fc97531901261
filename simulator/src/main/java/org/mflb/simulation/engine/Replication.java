package org.mflb.simulation.engine;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.sojourn.ErlangMixture;
import org.HdrHistogram.DoubleHistogram;
import org.mflb.simulation.Engine;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.LevelJump;
import org.mflb.simulation.dispatch.PolicyStatistics;
import org.mflb.simulation.state.LevelCounts;

/**
 * One replication of the {@code N}-server system on {@code [0, T]}: the parts common to every
 * engine. Subclasses own the event loop; this class owns the clock's <em>checkpoints</em> —
 * the grid times, the end of the warm-up, the ends of the units of observation, the ends of the
 * thinning windows and {@code T}. Between two events the state is constant, so when the next event
 * would fall at or after the next checkpoint the engine calls {@link #checkpoint()} first and then
 * goes on with the <em>same</em> pending event.
 *
 * <p>Common random numbers: observation consumes no randomness and cuts no pending event. The
 * sample path is a function of the seed (and of the model) only — not of the grid, the warm-up,
 * the batches or the horizon — so a longer run extends a shorter one event for event. Only a new
 * thinning window (a deterministic time, {@code k·}{@value #THINNING_WINDOW}) changes a rate: the
 * exponential engines then rescale the pending event's residual time by the ratio of the old and the
 * new total rate (the residual {@code rate·(t_next − t)} is Exp(1) whatever the rate), which is
 * exact and draws nothing.
 *
 * <p>Arrivals: a Poisson process of rate {@code N·λ(t)}. A constant rate is used directly. A
 * time-varying rate is simulated exactly by thinning (Lewis and Shedler): on each window
 * {@code [a, b]} of length at most {@link #THINNING_WINDOW} candidates arrive at rate
 * {@code N·λ̄} with {@code λ̄ = λ.supremum(a, b)}, and a candidate at {@code t} is kept with
 * probability {@code λ(t)/λ̄}. A rate above its announced supremum is reported, never clipped.
 *
 * <p>Response-time quantiles (single-server queues, when the scenario asks for percentiles), per
 * unit of observation: the per-job estimator records each completed job's response time in an
 * HdrHistogram {@link DoubleHistogram} with {@value #HISTOGRAM_DIGITS} significant digits (bounded
 * memory and O(1) per job whatever the run length; a quantile is exact up to a relative
 * 10^−{@value #HISTOGRAM_DIGITS}, far inside the confidence intervals; an HdrHistogram covers a ratio of
 * at most about 2^52 between its largest and smallest value, so times are recorded within
 * [2^−{@value #RESPONSE_FLOOR_EXPONENT}, 2^{@value #RESPONSE_CEILING_EXPONENT}] times the mean service
 * time, and a quantile outside that range is reported at its end: a heavy law such as Weibull of
 * shape 0.05 spans more than 10^40), and for exponential FIFO
 * service the conditional estimator ({@link #conditionalQuantiles}) of the levels the arrivals joined.
 */
public abstract class Replication {

    /** Longest window on which the thinning bound {@code λ̄} is held fixed. */
    static final double THINNING_WINDOW = 0.25;
    /**
     * Relative margin added to {@code λ.supremum(a, b)}: a supremum found by sampling a smooth rate
     * may fall short of the true one by round-off or sampling error; any upper bound keeps thinning
     * exact, so the margin costs only a few more rejected candidates.
     */
    static final double SUPREMUM_MARGIN = 1e-6;
    /** Significant decimal digits of the per-job response-time histogram. */
    static final int HISTOGRAM_DIGITS = 3;
    /** Response times below 2^−this times the mean service time are recorded at that floor. */
    public static final int RESPONSE_FLOOR_EXPONENT = 30;
    /** Response times above 2^this times the mean service time are recorded at that ceiling. */
    public static final int RESPONSE_CEILING_EXPONENT = 20;

    final SimulationScenario scenario;
    final int n;
    final UniformRandomProvider rng;
    /** Exponential of mean 1 (ziggurat). */
    final ContinuousSampler exp1;
    /** The counts {@code c_i} the observers read. */
    private final LevelCounts counts;
    final TailIntegrals tail;
    /** Pool capacity ({@link Integer#MAX_VALUE} when jobs are never lost). */
    final int capacity;

    private final ArrivalRate rate;
    final boolean constantRate;
    /** Per-server bound {@code λ̄} of the arrival rate on the current window (= λ when constant). */
    double rateBound;
    /** {@code N·λ̄}: the rate of arrival candidates. */
    double arrivalBound;
    private double windowStart;
    private double windowEnd;

    /** Current time. */
    double t;
    /** Time of the next checkpoint. */
    double nextCheckpoint;
    private final int index;
    private final double tEnd;
    private final double warmup;
    private final double[] grid;
    private int gridIndex;
    private final double[][] snapshots;
    /** 0: warm-up, 1: measuring, 2: done. */
    private int phase;
    private final int units;
    private int unitIndex;
    private double unitStart;
    private double unitEnd;
    private final List<UnitResult> results = new ArrayList<>();

    /** Events simulated on [0, T]. */
    long events;
    // counters of the current unit (reset at the start of each unit)
    long arrivals;
    long blocked;
    long idleArrivals;
    long completions;
    double responseSum;
    double waitingSum;
    /** Percentiles of the response-time quantiles (empty: none). */
    private final double[] percentiles;
    /** Per-job response times of the current unit, or {@code null} when not estimated by this engine. */
    final DoubleHistogram responseTimes;
    /** The range of {@link #responseTimes}, from the mean service time (see the class comment). */
    private final double responseFloor;
    private final double responseCeiling;
    /**
     * {@code joined[k]}: arrivals of the current unit that joined a queue holding {@code k} jobs (for
     * the conditional estimator), or {@code null} when that estimator is not exact here.
     */
    long[] joined;
    /** Per-class measurements and service rates, or {@code null} for servers of one speed. */
    final ClassStatistics classes;

    /**
     * @param counts the counts {@code c_i} of the engine's state (read by the observers)
     * @param perJobTimes whether the engine measures each job's response time
     * @param conditionalTimes whether the engine records the levels arrivals join, and the conditional
     *        estimator is exact (exponential FIFO service)
     */
    Replication(SimulationScenario scenario, int index, UniformRandomProvider rng, LevelCounts counts,
            boolean perJobTimes, boolean conditionalTimes) {
        this.scenario = scenario;
        this.index = index;
        this.n = scenario.run().servers();
        this.rng = rng;
        this.exp1 = ZigguratSampler.Exponential.of(rng);
        this.counts = counts;
        this.tail = new TailIntegrals(counts, scenario.observation().covarianceLevels(),
                scenario.classLayout() == null ? 1 : scenario.classLayout().count());
        this.capacity = scenario.model().system().capacity();
        this.rate = scenario.model().arrivalRate();
        this.constantRate = rate.isConstant();
        if (constantRate) {
            rateBound = rate.at(0);
            arrivalBound = n * rateBound;
            windowEnd = Double.POSITIVE_INFINITY;
        } else {
            windowEnd = 0; // the first checkpoint opens the first window
        }
        this.tEnd = scenario.run().tEnd();
        this.warmup = scenario.run().warmup();
        this.grid = scenario.gridTimes();
        this.snapshots = new double[grid.length][];
        this.units = scenario.unitsPerReplication();
        this.percentiles = scenario.isQueue() ? scenario.observation().percentiles() : new double[0];
        boolean quantiles = percentiles.length > 0;
        this.responseTimes = quantiles && perJobTimes ? new DoubleHistogram(HISTOGRAM_DIGITS) : null;
        double meanService = scenario.model().service().mean();
        this.responseFloor = Math.scalb(meanService, -RESPONSE_FLOOR_EXPONENT);
        this.responseCeiling = Math.scalb(meanService, RESPONSE_CEILING_EXPONENT);
        // the conditional estimator needs one service rate: not with classes of different speeds
        this.joined = quantiles && conditionalTimes && scenario.classLayout() == null ? new long[64] : null;
        this.classes = scenario.classLayout() == null ? null
                : new ClassStatistics(scenario.classLayout(), exponentialServiceRate(scenario));
    }

    /** Runs the replication and returns what it measured. */
    public final ReplicationResult run() {
        t = 0;
        nextCheckpoint = 0;
        checkpoint(); // time 0: grid point, warm-up 0, first thinning window
        if (constantRate) {
            onArrivalBoundChanged(Double.NaN);
        }
        simulate();
        return new ReplicationResult(index, List.copyOf(results), snapshots, events, policyJumps(), engine());
    }

    /** @return which engine this is */
    abstract Engine engine();

    /** The warm-up ended at {@code t}: the policy's statistics start. */
    abstract void startPolicyMeasurement(double t);

    /** A unit ends at {@code t}: the policy's statistics of the unit into {@code out}, then restart them. */
    abstract void endPolicyUnit(double t, long arrivals, PolicyStatistics out);

    /** @return the policy's level trace (ℓ(t) of the self-learning threshold), empty for most */
    abstract List<LevelJump> policyJumps();

    /** Grows {@link #joined} to hold level {@code k}; returns it. */
    final long[] growJoined(int k) {
        joined = java.util.Arrays.copyOf(joined, Math.max(2 * joined.length, k + 1));
        return joined;
    }

    /**
     * Starts the time integrals of a unit {@code [a, b]}: by default the counts' ({@link TailIntegrals});
     * an engine without events for every change of the counts (the workload engine) integrates by itself.
     */
    void startUnitIntegrals(double a, double b) {
        if (classes == null) {
            tail.startUnit(a, b);
        } else {
            tail.startUnit(a, b, classTailCounts());
        }
    }

    /** @return the unit's time-averaged tail vector {@code x̄_0..x̄_H}, at its end */
    double[] endUnitTail() {
        return tail.endUnitTail();
    }

    /** @return the unit's time-averaged number of jobs per server, or NaN when it is {@code Σ_{i≥1} x̄_i} */
    double endUnitMeanJobs() {
        return Double.NaN;
    }

    /** The event loop: runs until {@link #checkpoint()} returns false. */
    abstract void simulate();

    /**
     * The tail counts of each class now, {@code c_{k,i}} = servers of class k with at least i jobs, counted
     * when a unit starts so that the events need only update the integrals ({@link TailIntegrals}). Only
     * the engines that simulate server classes are asked (the agent engine and the occupancy engine of
     * classes override it); the others never have {@link #classes}.
     *
     * @return {@code c_{k,i}} at index {@code i·K + k}, for {@code 1 ≤ i ≤} the highest level reached
     * @throws IllegalStateException for an engine without server classes: a scenario with classes was
     *         given to an engine that cannot simulate them ({@link #create} never does)
     */
    int[] classTailCounts() {
        throw new IllegalStateException("server classes given to the " + engine().cliName() + " engine's "
                + getClass().getSimpleName() + ", which does not simulate them");
    }

    /**
     * The rate of arrival candidates changed (a new thinning window, or the start of a run).
     *
     * @param previousBound the former {@link #arrivalBound}, NaN at the start of the run
     */
    void onArrivalBoundChanged(double previousBound) {
    }

    /**
     * Whether the arrival candidate at the current time is an arrival: always for a constant rate,
     * with probability {@code λ(t)/λ̄} otherwise.
     */
    final boolean acceptCandidate() {
        if (constantRate) {
            return true;
        }
        double lambda = rate.at(t);
        if (!(lambda >= 0 && lambda <= rateBound)) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "lambda",
                    "lambda(t) = " + lambda + " at t = " + t + " is invalid: must be finite, >= 0 and <= its supremum "
                            + rateBound + " reported on [" + windowStart + ", " + windowEnd + "]");
        }
        return rng.nextDouble() * rateBound < lambda;
    }

    /**
     * Processes everything due at {@link #nextCheckpoint}, which becomes the current time, and
     * computes the next checkpoint.
     *
     * @return false when the horizon {@code T} is reached
     */
    final boolean checkpoint() {
        final double c = nextCheckpoint;
        t = c;
        while (gridIndex < grid.length && grid[gridIndex] <= c) {
            snapshot(gridIndex++);
        }
        if (phase == 0 && c >= warmup) {
            phase = 1;
            startPolicyMeasurement(c);
            unitIndex = 0;
            beginUnit(c);
        } else if (phase == 1 && c >= unitEnd) {
            endUnit(c);
            if (++unitIndex < units) {
                beginUnit(c);
            } else {
                phase = 2;
            }
        }
        if (c >= tEnd) {
            return false;
        }
        if (c >= windowEnd) {
            openWindow(c);
        }
        double next = tEnd;
        if (gridIndex < grid.length) {
            next = Math.min(next, grid[gridIndex]);
        }
        if (phase == 0) {
            next = Math.min(next, warmup);
        } else if (phase == 1) {
            next = Math.min(next, unitEnd);
        }
        next = Math.min(next, windowEnd);
        nextCheckpoint = next;
        return true;
    }

    private void openWindow(double c) {
        windowStart = c;
        windowEnd = Math.min(c + THINNING_WINDOW, tEnd);
        double bound = rate.supremum(windowStart, windowEnd);
        if (!(bound >= 0 && bound < Double.POSITIVE_INFINITY)) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "lambda", "lambda(t) has supremum " + bound
                    + " on [" + windowStart + ", " + windowEnd + "]: must be finite and >= 0");
        }
        double previous = c == 0 ? Double.NaN : arrivalBound; // the first window opens at 0
        rateBound = bound * (1 + SUPREMUM_MARGIN);
        arrivalBound = n * rateBound;
        onArrivalBoundChanged(previous);
    }

    private void snapshot(int k) {
        int h = counts.highestLevel();
        double[] x = new double[h + 1];
        for (int i = 0; i <= h; i++) {
            x[i] = counts.countAtLeast(i) / (double) n;
        }
        snapshots[k] = x;
    }

    private void beginUnit(double c) {
        unitStart = c;
        unitEnd = unitIndex == units - 1 ? tEnd : warmup + (unitIndex + 1) * ((tEnd - warmup) / units);
        arrivals = 0;
        blocked = 0;
        idleArrivals = 0;
        completions = 0;
        responseSum = 0;
        waitingSum = 0;
        if (responseTimes != null) {
            responseTimes.reset();
        }
        if (joined != null) {
            java.util.Arrays.fill(joined, 0);
        }
        startUnitIntegrals(c, unitEnd);
        if (classes != null) {
            classes.startUnit(c, unitEnd);
        }
    }

    private void endUnit(double c) {
        double[] x = endUnitTail();
        double meanJobs = endUnitMeanJobs();
        double[] products = tail.endUnitProducts();
        PolicyStatistics ps = new PolicyStatistics();
        endPolicyUnit(c, arrivals, ps);
        double meanResponse = completions > 0 ? responseSum / completions : Double.NaN;
        double meanWaiting = completions > 0 ? waitingSum / completions : Double.NaN;
        double blocking = arrivals > 0 ? (double) blocked / arrivals : Double.NaN;
        double idle = arrivals > 0 ? (double) idleArrivals / arrivals : Double.NaN;
        double arrivalRate = arrivals / (n * (c - unitStart));
        double[] perJob = null;
        if (responseTimes != null) {
            perJob = new double[percentiles.length];
            for (int j = 0; j < perJob.length; j++) {
                // the middle of the quantile's bucket (getValueAtPercentile gives its upper end)
                perJob[j] = responseTimes.getTotalCount() > 0
                        ? responseTimes.medianEquivalentValue(responseTimes.getValueAtPercentile(percentiles[j]))
                        : Double.NaN;
            }
        }
        double[] conditional = null;
        if (joined != null && percentiles.length > 0) {
            conditional = conditionalQuantiles(joined, exponentialServiceRate(scenario), percentiles);
        }
        results.add(new UnitResult(x, products, meanResponse, meanWaiting, blocking, idle, arrivalRate, arrivals,
                completions, ps.values(), perJob, conditional, classes == null ? null : tail.endUnitClassMeanJobs(scenario.classLayout()),
                classes == null ? null : classes.arrivalRates(), meanJobs));
    }

    /**
     * The conditional (Rao–Blackwell) estimator of the response-time quantiles of FIFO queues with
     * exponential service of rate μ (docs/models.md §7): given the {@code k} jobs it finds, a job's
     * response time is Erlang({@code k + 1}, μ), so averaging that law over the levels the arrivals
     * joined, with {@code s_j} the share of arrivals that joined a queue holding at least {@code j}
     * jobs, gives the unbiased CCDF estimate {@code e^{−μt} Σ_j s_j (μt)^j/j!}. It integrates out the
     * service times, hence its smaller variance than the empirical quantiles of measured times.
     *
     * @param joined {@code joined[k]}: arrivals that joined a queue holding {@code k} jobs (not modified)
     * @param mu the service rate
     * @param percentiles in (0, 100)
     * @return the estimated quantiles; NaN without arrivals
     */
    static double[] conditionalQuantiles(long[] joined, double mu, double[] percentiles) {
        double[] q = new double[percentiles.length];
        long total = 0;
        for (long a : joined) {
            total += a;
        }
        if (total == 0) {
            java.util.Arrays.fill(q, Double.NaN);
            return q;
        }
        double[] atLeast = new double[joined.length];
        long tail = 0;
        for (int j = joined.length - 1; j >= 0; j--) {
            tail += joined[j];
            atLeast[j] = (double) tail / total;
        }
        ErlangMixture unitRate = ErlangMixture.of(atLeast);
        for (int j = 0; j < q.length; j++) {
            q[j] = unitRate.quantile(percentiles[j] / 100) / mu;
        }
        return q;
    }

    /** @return the service rate {@code 1/E[S]} of the exponential service of the fast paths */
    static double exponentialServiceRate(SimulationScenario scenario) {
        return scenario.model().service() instanceof Exponential e ? e.rate() : 1.0;
    }

    /** @return a new replication of {@code scenario} with stream {@code rng}, on its engine ({@link SimulationScenario#engineInUse()}) */
    public static Replication create(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        if (scenario.engineInUse() == Engine.OCCUPANCY) {
            return scenario.classLayout() == null ? new OccupancyReplication(scenario, index, rng)
                    : new OccupancyClassReplication(scenario, index, rng);
        }
        if (scenario.engineInUse() == Engine.WORKLOAD) {
            return new WorkloadReplication(scenario, index, rng);
        }
        boolean queue = scenario.isQueue();
        if (scenario.exponentialFastPath()) {
            return queue ? new QueueExponential(scenario, index, rng) : new PoolExponential(scenario, index, rng);
        }
        return queue ? new QueueCalendar(scenario, index, rng) : new PoolCalendar(scenario, index, rng);
    }

    /** Records a completed job's response time in {@link #responseTimes}, within the histogram's range. */
    final void recordResponseTime(double t) {
        responseTimes.recordValue(Math.min(Math.max(t, responseFloor), responseCeiling));
    }
}
