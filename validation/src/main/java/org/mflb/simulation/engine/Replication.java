package org.mflb.simulation.engine;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.DispatchContext;
import org.mflb.simulation.dispatch.Dispatcher;
import org.mflb.simulation.dispatch.Dispatchers;
import org.mflb.simulation.dispatch.PolicyStatistics;
import org.mflb.simulation.state.LevelSets;

/**
 * One replication of the {@code N}-server system on {@code [0, T]}: the parts common to every
 * engine. Subclasses own the event loop; this class owns the clock's <em>checkpoints</em> —
 * the grid times, the end of the warm-up, the ends of the units of observation, the ends of the
 * thinning windows and {@code T}. Between two events the state is constant, so when the next event
 * would fall at or after the next checkpoint the engine calls {@link #checkpoint()} first; the
 * exponential engines then simply redraw the time to the next event (memorylessness makes this
 * exact), the calendar engines keep their scheduled completions.
 *
 * <p>Arrivals: a Poisson process of rate {@code N·λ(t)}. A constant rate is used directly. A
 * time-varying rate is simulated exactly by thinning (Lewis and Shedler): on each window
 * {@code [a, b]} of length at most {@link #THINNING_WINDOW} candidates arrive at rate
 * {@code N·λ̄} with {@code λ̄ = λ.supremum(a, b)}, and a candidate at {@code t} is kept with
 * probability {@code λ(t)/λ̄}. A rate above its announced supremum is reported, never clipped.
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

    final SimulationScenario scenario;
    final int n;
    final UniformRandomProvider rng;
    /** Exponential of mean 1 (ziggurat). */
    final ContinuousSampler exp1;
    final LevelSets occ;
    final TailIntegrals tail;
    final Dispatcher dispatcher;
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

    Replication(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        this.scenario = scenario;
        this.index = index;
        this.n = scenario.servers();
        this.rng = rng;
        this.exp1 = ZigguratSampler.Exponential.of(rng);
        this.occ = new LevelSets(scenario.initialLevels(), Dispatchers.needsLevelOrder(scenario.policy()));
        this.tail = new TailIntegrals(occ, scenario.covarianceLevels());
        this.dispatcher = Dispatchers.create(new DispatchContext(scenario, occ, rng));
        this.capacity = scenario.capacity();
        this.rate = scenario.arrivalRate();
        this.constantRate = rate.isConstant();
        if (constantRate) {
            rateBound = rate.at(0);
            arrivalBound = n * rateBound;
            windowEnd = Double.POSITIVE_INFINITY;
        } else {
            windowEnd = 0; // the first checkpoint opens the first window
        }
        this.tEnd = scenario.tEnd();
        this.warmup = scenario.warmup();
        this.grid = scenario.gridTimes();
        this.snapshots = new double[grid.length][];
        this.units = scenario.unitsPerReplication();
    }

    /** Runs the replication and returns what it measured. */
    public final ReplicationResult run() {
        t = 0;
        nextCheckpoint = 0;
        checkpoint(); // time 0: grid point, warm-up 0, first thinning window
        if (constantRate) {
            onArrivalBoundChanged();
        }
        simulate();
        return new ReplicationResult(index, List.copyOf(results), snapshots, events, dispatcher.jumps());
    }

    /** The event loop: runs until {@link #checkpoint()} returns false. */
    abstract void simulate();

    /** The rate of arrival candidates changed (a new thinning window, or the start of a run). */
    void onArrivalBoundChanged() {
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
            dispatcher.startMeasurement(c);
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
        rateBound = bound * (1 + SUPREMUM_MARGIN);
        arrivalBound = n * rateBound;
        onArrivalBoundChanged();
    }

    private void snapshot(int k) {
        int h = occ.highestLevel();
        double[] x = new double[h + 1];
        for (int i = 0; i <= h; i++) {
            x[i] = occ.countAtLeast(i) / (double) n;
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
        tail.startUnit(c, unitEnd);
    }

    private void endUnit(double c) {
        double[] x = tail.endUnitTail();
        double[] products = tail.endUnitProducts();
        PolicyStatistics ps = new PolicyStatistics();
        dispatcher.endUnit(c, arrivals, ps);
        double meanResponse = completions > 0 ? responseSum / completions : Double.NaN;
        double meanWaiting = completions > 0 ? waitingSum / completions : Double.NaN;
        double blocking = arrivals > 0 ? (double) blocked / arrivals : Double.NaN;
        double idle = arrivals > 0 ? (double) idleArrivals / arrivals : Double.NaN;
        double arrivalRate = arrivals / (n * (c - unitStart));
        results.add(new UnitResult(x, products, meanResponse, meanWaiting, blocking, idle, arrivalRate, arrivals,
                completions, ps.values()));
    }

    /** @return a new replication of {@code scenario} with stream {@code rng}, on the engine that fits it */
    public static Replication create(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        boolean queue = scenario.system().isQueue();
        if (scenario.exponentialFastPath()) {
            return queue ? new QueueExponential(scenario, index, rng) : new PoolExponential(scenario, index, rng);
        }
        return queue ? new QueueCalendar(scenario, index, rng) : new PoolCalendar(scenario, index, rng);
    }
}
