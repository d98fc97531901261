package org.mflb.simulation.engine;

import java.util.Arrays;
import java.util.List;

import org.HdrHistogram.DoubleHistogram;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.simulation.Engine;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.LevelJump;
import org.mflb.simulation.dispatch.PolicyStatistics;
import org.mflb.simulation.state.LevelCounts;

/**
 * The workload engine: LL(d), the least loaded of {@code d} sampled single-server FCFS queues, with any
 * service law (docs/models.md §11). Under FCFS the whole state of server {@code i} is the epoch
 * {@code E_i} at which it empties (its workload at {@code t} is {@code max(0, E_i − t)}), so an arrival
 * at {@code t}
 * <ol>
 * <li>samples {@code d} servers (independent uniform draws, or {@code d} distinct ones in a uniformly
 *     random order),</li>
 * <li>joins the one of least {@code max(E_i, t)} — the first such of the sample; a sample whose order
 *     is exchangeable makes the first of the tied ones a uniformly random one, so ties (idle servers,
 *     the same server drawn twice) are broken at random without a draw,</li>
 * <li>waits {@code W = max(0, E_i − t)}, leaves at {@code max(E_i, t) + X} (response time
 *     {@code W + X}, the job's size {@code X} drawn from the service law) and sets
 *     {@code E_i ← max(E_i, t) + X}.</li>
 * </ol>
 * No departure events and no queues: {@code d} reads and one write per job, one double per server.
 * {@link #events} counts the jobs (accepted arrivals).
 *
 * <p>A job's waiting and response times are known when it arrives, so the per-job estimators (means,
 * the HdrHistogram of response times) take the jobs that <em>arrive</em> in a unit (the agent engine
 * takes those that leave: the same stationary law). Time averages, exact for the simulated path:
 * <ul>
 * <li>the busy fraction {@code x̄_1} of {@code [a, b]}: a busy server works at rate 1, so the busy
 *     time is the work done, {@code Σ_i V_i(a) + (work arrived in [a, b)) − Σ_i V_i(b)} with
 *     {@code V_i(t) = max(0, E_i − t)}, two O(N) scans per unit. Its stationary mean is {@code λE[X]}
 *     exactly (a check); {@code x̄_2, …} are not known (queue lengths are not this engine's state);</li>
 * <li>the mean number of jobs per server, {@code ∫ Σ_i Q_i dt / (N(b − a))}: every job is present on
 *     {@code [arrival, departure)}, both known at its arrival; the part of that interval beyond the
 *     unit's end {@code b} is carried to the next unit by keeping the departure epochs of the jobs
 *     present at {@code b} (about {@code N·E[Q]} doubles at a unit's end, none in between).</li>
 * </ul>
 * Grid snapshots give {@code x_1(t)}, the fraction of servers with {@code E_i > t} (an O(N) scan).
 * Arrivals at a time-varying rate are thinned as in every engine ({@link Replication}).
 *
 * <p>The initial state's jobs (whole numbers per server) get fresh sizes at time 0 (in server order)
 * and stay out of the per-job estimators, whose arrival times are unknown.
 */
final class WorkloadReplication extends Replication {

    /** Largest {@code d} sampled distinct by rejection (redraw a server already drawn); beyond, a partial shuffle. */
    private static final int REJECTION_MAX_D = 8;
    /** Jobs whose samples (with replacement) are drawn, and their epochs fetched, in one block. */
    static final int LOOKAHEAD_JOBS = 64;

    private final double[] epochs;
    private final int d;
    private final boolean distinct;
    /** A permutation of the servers for the partial Fisher–Yates shuffle of distinct samples, or null. */
    private final int[] perm;
    /** The servers drawn so far for the current arrival (distinct sampling by rejection). */
    private final int[] picked;
    private final ContinuousSampler service;
    private double nextArrival;
    /**
     * Sampling with replacement: the servers of the next {@value #LOOKAHEAD_JOBS} jobs, {@code d} each,
     * drawn ahead (the draws do not depend on the state, so drawing them early changes nothing in
     * law, and the order of the draws depends on the number of jobs only).
     */
    private final int[] ahead;
    private int aheadPos;
    /** Keeps the block's fetches of {@code epochs[]} alive (see {@link #drawAhead()}). */
    private long fetched;

    // time integrals of the current unit [unitStart, carryEnd]; during the warm-up carryEnd is its end
    private double unitStart;
    private double carryEnd;
    /** {@code Σ_i V_i(unitStart)}. */
    private double workloadAtStart;
    /** Work brought by the arrivals of the unit. */
    private double workSum;
    /** {@code ∫ Σ_i Q_i dt} over the unit so far (each arrival adds its sojourn up to {@code carryEnd}). */
    private double jobArea;
    /** Departure epochs beyond {@code carryEnd} of the jobs that arrived before it. */
    private double[] carried = new double[64];
    private int carriedCount;

    WorkloadReplication(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        this(scenario, index, rng, new Epochs(scenario.run().servers()));
    }

    private WorkloadReplication(SimulationScenario scenario, int index, UniformRandomProvider rng, Epochs state) {
        super(scenario, index, rng, state, true, false);
        state.owner = this;
        this.epochs = state.epochs;
        Policy.LeastLoaded policy = scenario.policyImplementation().workload().orElseThrow();
        this.d = policy.d();
        this.distinct = policy.sampling() == Sampling.DISTINCT && d > 1;
        this.picked = new int[d];
        this.ahead = distinct ? null : new int[LOOKAHEAD_JOBS * d];
        this.aheadPos = distinct ? 0 : ahead.length;
        if (distinct && !(d <= REJECTION_MAX_D && 2 * d <= n)) {
            perm = new int[n];
            for (int s = 0; s < n; s++) {
                perm[s] = s;
            }
        } else {
            perm = null;
        }
        this.service = scenario.model().service().createSampler(rng);
        double warmup = scenario.run().warmup();
        this.carryEnd = warmup > 0 ? warmup : 0;
        int[] levels = scenario.run().initialLevels();
        for (int s = 0; s < n; s++) {
            double e = 0;
            for (int j = 0; j < levels[s]; j++) {
                e += service.sample();
                carry(e); // present from time 0 until e
            }
            epochs[s] = e;
        }
    }

    @Override
    Engine engine() {
        return Engine.WORKLOAD;
    }

    @Override
    void startPolicyMeasurement(double t) {
    }

    @Override
    void endPolicyUnit(double t, long arrivals, PolicyStatistics out) {
    }

    @Override
    List<LevelJump> policyJumps() {
        return List.of();
    }

    /** Arrival candidates: a fresh Exp time at the start, else the pending one rescaled (draws nothing). */
    @Override
    void onArrivalBoundChanged(double previousBound) {
        nextArrival = ExponentialClock.next(nextArrival, t, previousBound, arrivalBound, 0, exp1);
    }

    @Override
    void startUnitIntegrals(double a, double b) {
        unitStart = a;
        carryEnd = b;
        workloadAtStart = totalWorkload(a);
        workSum = 0;
        // the jobs present at a: their sojourn within [a, b]; those still present at b stay carried
        double area = 0;
        int kept = 0;
        for (int k = 0; k < carriedCount; k++) {
            double dep = carried[k];
            if (dep > a) {
                area += Math.min(dep, b) - a;
                if (dep > b) {
                    carried[kept++] = dep;
                }
            }
        }
        carriedCount = kept;
        jobArea = area;
    }

    @Override
    double[] endUnitTail() {
        double span = t - unitStart;
        double busy = (workloadAtStart + workSum - totalWorkload(t)) / (n * span);
        return new double[] {1, busy};
    }

    @Override
    double endUnitMeanJobs() {
        return jobArea / (n * (t - unitStart));
    }

    /** @return {@code Σ_i max(0, E_i − time)} */
    private double totalWorkload(double time) {
        double sum = 0;
        for (double e : epochs) {
            if (e > time) {
                sum += e - time;
            }
        }
        return sum;
    }

    /** Keeps the departure epoch of a job still present at {@link #carryEnd}. */
    private void carry(double departure) {
        if (carriedCount == carried.length) {
            carried = Arrays.copyOf(carried, 2 * carriedCount);
        }
        carried[carriedCount++] = departure;
    }

    /*
     * The loop keeps the counters in locals between checkpoints (as the agent engine's loops do). Per
     * job: one exponential gap, d uniform ints and d reads of epochs[], one service draw, one write.
     */
    @Override
    void simulate() {
        final double[] epochs = this.epochs;
        final ContinuousSampler service = this.service;
        final ContinuousSampler exp1 = this.exp1;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            final double carryEnd = this.carryEnd;
            final DoubleHistogram responseTimes = this.responseTimes;
            double arrivalTime = nextArrival;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long completions = this.completions;
            double responseSum = this.responseSum;
            double waitingSum = this.waitingSum;
            double workSum = this.workSum;
            double jobArea = this.jobArea;
            double now = t;
            while (arrivalTime < checkpointTime) {
                now = arrivalTime;
                arrivalTime = now + exp1.sample() / bound;
                if (!constantRate) {
                    t = now;
                    if (!acceptCandidate()) {
                        continue;
                    }
                }
                final int s = distinct ? selectDistinct(now) : select(now);
                final double e = epochs[s];
                final double start = e > now ? e : now;
                final double wait = start - now;
                final double x = service.sample();
                final double departure = start + x;
                epochs[s] = departure;
                final double response = wait + x;
                events++;
                arrivals++;
                completions++;
                if (wait == 0) {
                    idleArrivals++;
                }
                workSum += x;
                waitingSum += wait;
                responseSum += response;
                if (responseTimes != null) {
                    recordResponseTime(response);
                }
                if (departure > carryEnd) {
                    jobArea += carryEnd - now;
                    carry(departure);
                } else {
                    jobArea += response;
                }
            }
            t = now;
            nextArrival = arrivalTime;
            this.events = events;
            this.arrivals = arrivals;
            this.idleArrivals = idleArrivals;
            this.completions = completions;
            this.responseSum = responseSum;
            this.waitingSum = waitingSum;
            this.workSum = workSum;
            this.jobArea = jobArea;
            if (!checkpoint()) {
                return;
            }
        }
    }

    /**
     * @return the first of {@code d} independent uniform draws of least {@code max(E_i, now)}, i.e. of
     *         least workload (ties: uniformly random, the draws being exchangeable)
     */
    private int select(double now) {
        final double[] epochs = this.epochs;
        final int[] ahead = this.ahead;
        int p = aheadPos;
        if (p == ahead.length) {
            drawAhead();
            p = 0;
        }
        int best = ahead[p];
        double least = Math.max(epochs[best], now);
        for (int k = 1; k < d; k++) {
            final int s = ahead[p + k];
            final double e = epochs[s];
            final double w = e > now ? e : now;
            if (w < least) {
                best = s;
                least = w;
            }
        }
        aheadPos = p + d;
        return best;
    }

    /**
     * Draws the samples of the next {@value #LOOKAHEAD_JOBS} jobs, then reads their epochs in a tight
     * loop of independent loads: with N = 10⁶ the epochs (8 MB) do not fit in the caches, and the
     * processor overlaps a block's cache misses where the jobs, one after the other, would wait for
     * each. The jobs read the epochs again (now cached) when they arrive, since earlier jobs of the
     * block may have changed them.
     */
    private void drawAhead() {
        final int[] ahead = this.ahead;
        final int n = this.n;
        for (int k = 0; k < ahead.length; k++) {
            ahead[k] = rng.nextInt(n);
        }
        final double[] epochs = this.epochs;
        long bits = 0;
        for (int s : ahead) {
            bits += Double.doubleToRawLongBits(epochs[s]);
        }
        fetched += bits;
    }

    /**
     * @return the first of {@code d} distinct servers, drawn uniformly in a uniformly random order, of
     *         least workload
     */
    private int selectDistinct(double now) {
        final double[] epochs = this.epochs;
        int best = -1;
        double least = Double.POSITIVE_INFINITY;
        for (int k = 0; k < d; k++) {
            int s;
            if (perm == null) {
                s = drawNew(k); // rejection: d ≤ 8 and 2d ≤ N, so fewer than 2 draws per server on average
            } else {
                int j = k + rng.nextInt(n - k); // partial Fisher–Yates shuffle of a permutation kept between calls
                s = perm[j];
                perm[j] = perm[k];
                perm[k] = s;
            }
            final double e = epochs[s];
            final double w = e > now ? e : now;
            if (w < least) {
                best = s;
                least = w;
            }
        }
        return best;
    }

    /** @return a uniform server not among {@code picked[0..k)}, recorded as {@code picked[k]} */
    private int drawNew(int k) {
        for (;;) {
            int s = rng.nextInt(n);
            boolean fresh = true;
            for (int j = 0; j < k; j++) {
                if (picked[j] == s) {
                    fresh = false;
                    break;
                }
            }
            if (fresh) {
                picked[k] = s;
                return s;
            }
        }
    }

    /**
     * The counts the observers read: {@code c_1} = servers with {@code E_i > t} at the current time
     * (an O(N) scan, at grid times only). The workload engine knows busy or idle only, so the highest
     * level it reports is 1 and the tail vector stops at {@code x_1}.
     */
    private static final class Epochs implements LevelCounts {
        final double[] epochs;
        WorkloadReplication owner;

        Epochs(int n) {
            epochs = new double[n];
        }

        @Override
        public int servers() {
            return epochs.length;
        }

        @Override
        public int countAtLeast(int i) {
            if (i == 0) {
                return epochs.length;
            }
            if (i > 1) {
                throw new IllegalStateException("the workload engine knows busy or idle only, not level " + i);
            }
            double now = owner == null ? 0 : owner.t;
            int busy = 0;
            for (double e : epochs) {
                if (e > now) {
                    busy++;
                }
            }
            return busy;
        }

        @Override
        public int highestLevel() {
            return 1;
        }
    }
}
