package org.mflb.simulation.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.Engine;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.AdaptiveThresholdDispatcher;
import org.mflb.simulation.dispatch.LevelJump;
import org.mflb.simulation.dispatch.OccupancyArrivals;
import org.mflb.simulation.dispatch.PolicyStatistics;
import org.mflb.simulation.state.LevelCounts;

/**
 * The occupancy engine: for exponential service (rate μ) and a policy that looks only at queue
 * lengths, the counts {@code c_i} = number of servers (pools) with at least {@code i} jobs — plus the
 * threshold ℓ of the threshold policies, whose tokens are functions of the counts — form a Markov
 * chain, because the servers are exchangeable (docs/models.md §0–§3). This engine simulates that chain
 * and nothing else: no per-server or per-job memory, O(K) memory and O(log K) work per event, with K
 * the highest level, whatever N. It is written from the policies' definitions, independently of the
 * agent engine's dispatchers and of the fluid models' drifts.
 *
 * <p>Rank the servers by decreasing level: the server of rank {@code r ∈ [0, N)} has level
 * {@code L(r) = max{l : c_l > r}} (found by a galloping binary search over the counts), and a uniform
 * server is a uniform rank. So
 * <ul>
 * <li>an arrival of random routing joins {@code L(r)} for a uniform rank r; of SQ(d), the level at the
 *     <em>largest</em> of d sampled ranks (the shortest of the d queues) — d independent ranks with
 *     replacement, d distinct ranks (Floyd's sample; for d = 2 two draws) without: the exact
 *     finite-population law {@code P(join ≥ l) = C(c_l, d)/C(N, d)}; JSQ joins the minimum level; JIQ
 *     level 0 when {@code c_1 < N}, else a uniform rank; the threshold policies with threshold ℓ a
 *     uniform rank in {@code [c_ℓ, N)} (the pools below ℓ: a green token) if there is one, else level
 *     ℓ if {@code c_{ℓ+1} < N} (a yellow token), else a uniform rank. An arrival to a loss pool at
 *     capacity is lost;</li>
 * <li>a departure from single-server queues leaves the busy server of a uniform rank in
 *     {@code [0, c_1)}; from pools, a uniform task: the tasks form layers (the l-th task of every pool
 *     holding at least l), layer l has {@code c_l} tasks, so a uniform task index is located in its
 *     layer by a Fenwick tree over the {@code c_l} and its rank within the layer is a uniform rank
 *     among the pools with at least l tasks: level j with probability {@code j·(c_j − c_{j+1})/M}.</li>
 * </ul>
 * The self-learning threshold moves ℓ after each arrival exactly as the token dispatcher does
 * ({@link AdaptiveThresholdDispatcher}); the messages are counted from the counts (one per arrival
 * leaving its pool below ℓ, per departure to ℓ or ℓ − 1, per pool whose token changes with ℓ).
 *
 * <p>Response times (single-server FIFO queues): a job that joins a queue of k jobs has an
 * Erlang(k + 1, μ) response time, so the mean response time of a unit is the average of
 * {@code (k + 1)/μ} over its arrivals (the waiting time {@code k/μ}), and the quantiles come from
 * the conditional estimator ({@link Replication#conditionalQuantiles}), with less variance than per-job measurements.
 */
final class OccupancyReplication extends Replication {

    /** The counts {@code c_0 = N ≥ c_1 ≥ ...}, zero beyond the highest level. */
    static final class Counts implements LevelCounts {
        private final int n;
        int[] c;
        int highest;

        Counts(SimulationScenario scenario) {
            this(scenario.run().servers(), scenario.run().initialCounts());
        }

        /** @param initial {@code c_0 = n, c_1, ...} at time 0 */
        Counts(int n, int[] initial) {
            this.n = n;
            highest = initial.length - 1;
            c = Arrays.copyOf(initial, Math.max(64, Integer.highestOneBit(highest + 2) << 1));
        }

        @Override
        public int servers() {
            return n;
        }

        @Override
        public int countAtLeast(int i) {
            return i < c.length ? c[i] : 0;
        }

        @Override
        public int highestLevel() {
            return highest;
        }

        /** A server reaches level {@code k}: {@code highest} follows, and {@code c} stays long enough. */
        void reach(int k) {
            if (k > highest) {
                highest = k;
            }
            ensure(k);
        }

        /** Keeps {@code c} at least {@code k + 2} long, so that {@code c[k + 1]} can be read (zeros beyond). */
        void ensure(int k) {
            if (k + 2 > c.length) {
                c = Arrays.copyOf(c, Math.max(2 * c.length, k + 2));
            }
        }
    }

    private static final int RANDOM = 0;
    private static final int SQD = 1;
    private static final int JSQ = 2;
    private static final int JIQ = 3;
    private static final int THRESHOLD = 4;
    private static final int ADAPTIVE = 5;

    private final Counts counts;
    private final boolean queue;
    private final int policy;
    private final int d;
    private final boolean distinct;
    private final int[] sample;
    private final double mu;
    private final double inverseMu;
    /** Time of the next event (arrival candidate or departure). */
    private double pending = Double.NaN;
    /** Tasks in the system (pools): {@code Σ_{l ≥ 1} c_l}. */
    private long tasks;
    /** Fenwick tree over the layer sizes {@code c_l}, l = 1..size (pools), 1-based. */
    private long[] fenwick;
    private int fenwickSize;
    /** Minimum level, kept for JSQ. */
    private int min;

    // threshold policies
    private int ell;
    private final double lowerBelow;
    private long messages;
    private long adjustmentMessages;
    private final List<LevelJump> trace = new ArrayList<>();
    private double unitStart;
    private double lastChange;
    private double ellArea;
    private long changes;

    OccupancyReplication(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        this(scenario, index, rng, new Counts(scenario));
    }

    private OccupancyReplication(SimulationScenario scenario, int index, UniformRandomProvider rng, Counts counts) {
        super(scenario, index, rng, counts, false, scenario.isQueue());
        if (!scenario.occupancyExact()) {
            throw new IllegalStateException("the occupancy engine is not exact for this scenario");
        }
        this.counts = counts;
        this.queue = scenario.isQueue();
        this.mu = exponentialServiceRate(scenario);
        this.inverseMu = 1 / mu;
        OccupancyArrivals arrivals = scenario.policyImplementation().occupancyArrivals().orElseThrow();
        this.d = arrivals.d();
        this.distinct = arrivals.distinct();
        // int codes: the arrival's switch runs once per event
        this.policy = switch (arrivals.rule()) {
            case RANDOM -> RANDOM;
            case SQD -> SQD;
            case SED -> throw new IllegalStateException("SED(d) of servers of one speed runs as SQ(d)");
            case JSQ -> JSQ;
            case JIQ -> JIQ;
            case THRESHOLD -> THRESHOLD;
            case ADAPTIVE_THRESHOLD -> ADAPTIVE;
        };
        this.sample = new int[Math.max(1, d)];
        ell = arrivals.threshold();
        lowerBelow = policy == ADAPTIVE ? arrivals.alpha() * n + 1 : 0;
        counts.ensure(ell + 1);
        for (int l = 1; l <= counts.highest; l++) {
            tasks += counts.c[l];
        }
        if (!queue) {
            buildFenwick(Math.max(64, Integer.highestOneBit(counts.highest + 1) << 1));
        }
    }

    @Override
    Engine engine() {
        return Engine.OCCUPANCY;
    }

    @Override
    void onArrivalBoundChanged(double previousBound) {
        pending = ExponentialClock.next(pending, t, previousBound, arrivalBound, mu * departureWeight(), exp1);
    }

    /** @return the number of busy servers (queues) or of tasks (pools) */
    private double departureWeight() {
        return queue ? counts.c[1] : (double) tasks;
    }

    private void buildFenwick(int size) {
        fenwickSize = size;
        fenwick = new long[size + 1];
        int[] c = counts.c;
        for (int l = 1; l <= counts.highest; l++) {
            fenwickAdd(l, c[l]);
        }
    }

    private void fenwickAdd(int l, long delta) {
        final long[] f = fenwick;
        final int size = fenwickSize;
        for (int i = l; i <= size; i += i & -i) {
            f[i] += delta;
        }
    }

    /** Highest level up to which {@link #levelOfRank} counts rather than searches. */
    static final int COUNTED_LEVELS = 32;

    /**
     * @param c counts {@code c_0 > r}, non-increasing, zero beyond {@code highest} (and beyond its length)
     * @param r a rank in {@code [0, c_0)}
     * @param highest a level at or above the highest level with {@code c_l > 0}
     * @return the level {@code L(r) = max{l : c_l > r}} of the server of rank {@code r ∈ [0, N)}
     */
    static int levelOfRank(int[] c, int r, int highest) {
        if (highest <= COUNTED_LEVELS) {
            // the counts are non-increasing, so L(r) = #{1 ≤ l ≤ highest : c_l > r}: counted without
            // branches (r − c_l < 0 iff c_l > r; both in [0, N]: no overflow), whereas each step of a
            // search is a branch on a random rank that mispredicts half the time
            final int top = Math.min(highest, c.length - 1);
            int level = 0;
            for (int l = 1; l <= top; l++) {
                level += (r - c[l]) >>> 31;
            }
            return level;
        }
        return searchAbove(c, 0, 0, c.length - 1, r); // c_0 = N > r and c[highest + 1] = 0 <= r
    }

    /**
     * {@code L(r) = max{l : c_l > r}} for the counts {@code c_l = c[offset + l]}, known to be at least
     * {@code lo}: gallop up from {@code lo} to a bracket, then bisect.
     *
     * @param c counts, non-increasing, with {@code c[offset + lo] > r} and {@code c[offset + last] <= r}
     * @param offset where level 0 sits
     * @param lo a level with {@code c_lo > r}
     * @param last the last level that may be read
     * @param r a rank
     * @return {@code L(r)}
     */
    static int searchAbove(int[] c, int offset, int lo, int last, int r) {
        int hi = lo + 1;
        int step = 1;
        while (c[offset + hi] > r) {
            lo = hi;
            step <<= 1;
            hi = Math.min(lo + step, last);
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (c[offset + mid] > r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** @return the level of the server (pool) the arriving job is sent to */
    private int joinLevel(int[] c) {
        switch (policy) {
            case SQD:
                return levelOfRank(c, sampleMaxRank(), counts.highest);
            case JSQ: {
                int m = min;
                while (m > 0 && c[m] < n) {
                    m--;
                }
                while (c[m + 1] == n) {
                    m++;
                }
                min = m;
                return m;
            }
            case JIQ:
                return c[1] < n ? 0 : levelOfRank(c, rng.nextInt(n), counts.highest);
            case THRESHOLD:
            case ADAPTIVE: {
                int below = n - c[ell];
                if (below > 0) {
                    return levelOfRank(c, c[ell] + (below == 1 ? 0 : rng.nextInt(below)), counts.highest);
                }
                return c[ell + 1] < n ? ell : levelOfRank(c, rng.nextInt(n), counts.highest);
            }
            default:
                return levelOfRank(c, rng.nextInt(n), counts.highest);
        }
    }

    /** @return the largest of d sampled ranks: the rank of the shortest sampled queue */
    private int sampleMaxRank() {
        if (!distinct) {
            int best = rng.nextInt(n);
            for (int i = 1; i < d; i++) {
                best = Math.max(best, rng.nextInt(n));
            }
            return best;
        }
        if (d == 2) {
            int a = rng.nextInt(n);
            int b = rng.nextInt(n - 1);
            b += (a - b - 1) >>> 31; // b += 1 when b >= a: a uniform ordered pair of distinct ranks
            return Math.max(a, b);
        }
        int[] s = sample;
        distinctSample(rng, n, d, s);
        int best = -1;
        for (int v : s) {
            best = Math.max(best, v);
        }
        return best;
    }

    /**
     * Floyd's algorithm: fills {@code s[0..d)} with a uniformly random d-subset of {@code [0, n)} (the
     * subset is uniform, its order is not).
     */
    static void distinctSample(UniformRandomProvider rng, int n, int d, int[] s) {
        int size = 0;
        for (int j = n - d; j < n; j++) {
            int v = rng.nextInt(j + 1);
            for (int i = 0; i < size; i++) {
                if (s[i] == v) {
                    v = j;
                    break;
                }
            }
            s[size++] = v;
        }
    }

    /** Self-learning threshold: the rule of {@link AdaptiveThresholdDispatcher}, after an arrival. */
    private void adaptThreshold(double now) {
        int[] c = counts.c;
        if (c[ell + 1] == n) {
            // no token left: every pool has at least h = ℓ + 1 tasks
            ell++;
            counts.ensure(ell + 1);
            c = counts.c;
            adjustmentMessages += c[ell] - c[ell + 1];
            recordJump(now, ell - 1, ell);
        } else if (ell >= 1 && c[ell] <= lowerBelow) {
            ell--;
            int h = ell + 1;
            adjustmentMessages += (c[h] - c[h + 1]) + (c[ell] - c[ell + 1]);
            recordJump(now, ell + 1, ell);
        }
    }

    private void recordJump(double now, int from, int to) {
        ellArea += from * (now - lastChange);
        lastChange = now;
        changes++;
        if (trace.size() < AdaptiveThresholdDispatcher.MAX_RECORDED_JUMPS) {
            trace.add(new LevelJump(now, from, to));
        }
    }

    @Override
    void simulate() {
        final TailIntegrals tail = this.tail;
        final Counts counts = this.counts;
        final int capacity = this.capacity;
        final double mu = this.mu;
        final double inverseMu = this.inverseMu;
        final boolean queue = this.queue;
        final boolean tokens = policy == THRESHOLD || policy == ADAPTIVE;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            long[] joined = this.joined;
            int[] c = counts.c;
            double next = pending;
            double now = t;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long blocked = this.blocked;
            long completions = this.completions;
            double responseSum = this.responseSum;
            double waitingSum = this.waitingSum;
            while (next < checkpointTime) {
                now = next;
                final double weight = queue ? c[1] : (double) tasks;
                final double total = bound + mu * weight;
                final double u = rng.nextDouble() * total;
                if (u < bound) {
                    if (!constantRate) {
                        t = now;
                        if (!acceptCandidate()) {
                            next = now + exp1.sample() / total;
                            continue;
                        }
                    }
                    final int k = joinLevel(c);
                    events++;
                    arrivals++;
                    if (k >= capacity) {
                        blocked++;
                        next = now + exp1.sample() / total;
                        continue;
                    }
                    if (k == 0) {
                        idleArrivals++;
                    }
                    if (queue) {
                        completions++;
                        responseSum += (k + 1) * inverseMu;
                        waitingSum += k * inverseMu;
                        if (joined != null) {
                            if (k >= joined.length) {
                                joined = growJoined(k);
                            }
                            joined[k]++;
                        }
                    }
                    if (k + 1 > counts.highest) {
                        counts.reach(k + 1);
                        c = counts.c;
                        if (!queue && k + 1 > fenwickSize) {
                            buildFenwick(2 * fenwickSize);
                        }
                    }
                    tail.beforeUp(k + 1, now);
                    c[k + 1]++;
                    tasks++;
                    if (!queue) {
                        fenwickAdd(k + 1, 1);
                    }
                    if (tokens) {
                        if (k + 1 < ell) {
                            messages++;
                        }
                        if (policy == ADAPTIVE) {
                            adaptThreshold(now);
                            c = counts.c;
                        }
                    }
                } else {
                    final int j;
                    if (queue) {
                        final int busy = c[1];
                        final int i = (int) ((u - bound) * inverseMu);
                        j = levelOfRank(c, i < busy ? i : busy - 1, counts.highest);
                    } else {
                        long i = (long) ((u - bound) * inverseMu);
                        if (i >= tasks) {
                            i = tasks - 1;
                        }
                        // the layer holding task i (Fenwick descent), then a rank within the layer
                        final long[] f = fenwick;
                        int pos = 0;
                        for (int step = fenwickSize; step > 0; step >>= 1) {
                            int q = pos + step;
                            if (q <= fenwickSize && f[q] <= i) {
                                pos = q;
                                i -= f[q];
                            }
                        }
                        j = levelOfRank(c, (int) i, counts.highest);
                        fenwickAdd(j, -1);
                    }
                    events++;
                    tail.beforeDown(j, now);
                    c[j]--;
                    tasks--;
                    if (tokens && (j - 1 == ell || j - 1 == ell - 1)) {
                        messages++;
                    }
                }
                next = now + exp1.sample() / (bound + mu * (queue ? c[1] : (double) tasks));
            }
            pending = next;
            t = now;
            this.events = events;
            this.arrivals = arrivals;
            this.idleArrivals = idleArrivals;
            this.blocked = blocked;
            this.completions = completions;
            this.responseSum = responseSum;
            this.waitingSum = waitingSum;
            if (!checkpoint()) {
                return;
            }
        }
    }

    @Override
    void startPolicyMeasurement(double t) {
        messages = 0;
        adjustmentMessages = 0;
        unitStart = t;
        lastChange = t;
        ellArea = 0;
        changes = 0;
    }

    @Override
    void endPolicyUnit(double t, long arrivals, PolicyStatistics out) {
        if (policy == THRESHOLD) {
            out.put("messagesPerTask", arrivals > 0 ? (double) messages / arrivals : Double.NaN);
            out.put("meanThreshold", ell);
        } else if (policy == ADAPTIVE) {
            long total = messages + adjustmentMessages;
            out.put("messagesPerTask", arrivals > 0 ? (double) total / arrivals : Double.NaN);
            out.put("adjustmentMessagesPerTask", arrivals > 0 ? (double) adjustmentMessages / arrivals : Double.NaN);
            double span = t - unitStart;
            ellArea += ell * (t - lastChange);
            out.put("meanThreshold", span > 0 ? ellArea / span : ell);
            out.put("thresholdChangesPerUnitTime", span > 0 ? changes / span : Double.NaN);
        }
        startPolicyMeasurement(t);
    }

    @Override
    List<LevelJump> policyJumps() {
        return List.copyOf(trace);
    }
}
