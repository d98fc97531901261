package org.mflb.simulation.engine;

import java.util.Arrays;
import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.system.Sampling;
import org.mflb.simulation.Engine;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.LevelJump;
import org.mflb.simulation.dispatch.OccupancyArrivals;
import org.mflb.simulation.dispatch.PolicyImplementation;
import org.mflb.simulation.dispatch.PolicyStatistics;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * The occupancy engine for single-server queues of different speeds (docs/models.md §10): with
 * exponential service the servers of one class are exchangeable, so the counts {@code c_{k,i}} of the
 * class-k servers with at least i jobs, for every class, form a Markov chain, and this engine simulates
 * it — O(K·levels) memory beyond {@link #LEVEL_TABLE_SERVERS} servers. It follows {@link OccupancyReplication}, class by class:
 * <ul>
 * <li>a server is a pair (class k, rank r within the class), the rank ordering the class's servers by
 *     decreasing level, so that its level is {@code max{l : c_{k,l} > r}}; numbering the pairs
 *     {@code start(k) + r} numbers the N servers;</li>
 * <li>an arrival draws its d servers as such pairs — d uniform numbers in {@code [0, N)} with
 *     replacement, d distinct ones (Floyd's sample), or speed-weighted (a class with probability
 *     {@code ∝ N_k s_k}, then a uniform rank) — and joins the one of fewest jobs (SQ(d)) or of smallest
 *     {@code (q+1)/s_k} (SED(d), compared exactly: {@link ServerClassLayout#compareValues}), ties
 *     uniformly at random (the first of iid draws; among distinct ones, a uniform choice among the tied);
 *     random routing is one uniform (or speed-weighted) server;</li>
 * <li>a sampled server's level is one read up to {@link #LEVEL_TABLE_SERVERS} servers, where every
 *     server's level is kept ({@link #serverLevel}: the server whose level changes is the one at the
 *     edge of its level's block of ranks, so keeping it is one write an event), and for SED(d) its value
 *     too, as an integer ({@link #serverDelay}); beyond, a search of the class's counts, and
 *     speed-blind iid draws need one search, not one per draw, by reading them as ranks among all
 *     servers ({@link #joinByLevel});</li>
 * <li>a departure comes from class k with probability {@code ∝ μ s_k c_{k,1}}, from its busy server of
 *     a uniform rank in {@code [0, c_{k,1})} ({@link ClassStatistics#departure}).</li>
 * </ul>
 * The counts of all servers {@code c_i = Σ_k c_{k,i}} are kept alongside for the tail vector. A job
 * that joins a class-k queue of q jobs has an Erlang(q + 1, μ s_k) response time, so the unit's mean
 * response time averages {@code (q + 1)/(μ s_k)} over its arrivals; the conditional quantile estimator
 * (one rate) does not apply.
 */
final class OccupancyClassReplication extends Replication {

    private final ServerClassLayout layout;
    private final OccupancyReplication.Counts counts;
    /**
     * {@code cc[(k << shift) + i] = c_{k,i}}: the classes' counts in one array, class after class, each
     * {@code 2^shift} long (zero beyond the class's highest level, at least 2 beyond it). One array
     * rather than one per class: reading a class's counts needs no load of its array first, a load that
     * lengthened every search's chain of dependent reads (draw, class, array, counts).
     */
    private int[] cc;
    /** {@code log2} of the length of each class's counts in {@link #cc}. */
    private int shift;
    /** {@code busy[k] = c_{k,1}}. */
    private final int[] busy;
    /**
     * {@code serverLevel[start(k) + r] = L_k(r) = max{l : c_{k,l} > r}}: the level of every server, the
     * server numbered by its class and its rank, kept for systems of at most
     * {@link #LEVEL_TABLE_SERVERS} servers (null above). A sampled server's level is then one read
     * instead of a search of its class's counts, and keeping the table costs one write an event: the
     * server whose level changes is the one at the edge of its level's block of ranks.
     */
    private final int[] serverLevel;
    /**
     * SED(d) with {@link #serverLevel}: {@code serverDelay[s] = (L(s) + 1)·W_k}, the SED value of server s
     * of class k in the integers of {@link ServerClassLayout#delayWeights} (same order, same ties), so
     * that comparing two samples is one subtraction; null otherwise.
     */
    private final long[] serverDelay;
    /** {@link ServerClassLayout#delayWeights} when {@link #serverDelay} is kept. */
    private final long[] delayWeight;
    private final boolean sed;
    private final int d;
    private final boolean distinct;
    private final boolean speedWeighted;
    /** Speed-blind SQ(d) or random routing with iid uniform draws: {@link #joinByLevel}. */
    private final boolean uniformLevels;
    /**
     * d = 2 uniform iid draws with every server's level (and, for SED, value) kept: the two draws are
     * compared in registers ({@link #joinPair}), the common case of the benchmarks and the papers.
     */
    private final boolean pairOfDraws;
    private final int[] sample;
    private double pending = Double.NaN;

    OccupancyClassReplication(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        this(scenario, index, rng, scenario.run().servers() <= LEVEL_TABLE_SERVERS);
    }

    /**
     * @param levelTable whether to keep every server's level ({@link #serverLevel}); the engine keeps it
     *        up to {@link #LEVEL_TABLE_SERVERS} servers (the tests compare both ways)
     */
    OccupancyClassReplication(SimulationScenario scenario, int index, UniformRandomProvider rng, boolean levelTable) {
        this(scenario, index, rng, scenario.initialClassCounts(), levelTable);
    }

    private OccupancyClassReplication(SimulationScenario scenario, int index, UniformRandomProvider rng,
            int[][] initial, boolean levelTable) {
        this(scenario, index, rng, initial, new OccupancyReplication.Counts(scenario.run().servers(), sum(initial)),
                levelTable);
    }

    private OccupancyClassReplication(SimulationScenario scenario, int index, UniformRandomProvider rng,
            int[][] initial, OccupancyReplication.Counts counts, boolean levelTable) {
        super(scenario, index, rng, counts, false, false);
        if (!scenario.occupancyExact() || !scenario.isQueue()) {
            throw new IllegalStateException("the occupancy engine is not exact for this scenario");
        }
        this.layout = scenario.classLayout();
        this.counts = counts;
        OccupancyArrivals arrivals = scenario.policyImplementation().occupancyArrivals().orElseThrow();
        this.sed = arrivals.rule() == OccupancyArrivals.Rule.SED;
        this.d = arrivals.rule() == OccupancyArrivals.Rule.RANDOM ? 1 : arrivals.d();
        this.distinct = arrivals.sampling() == Sampling.DISTINCT && d > 1;
        this.speedWeighted = PolicyImplementation.speedWeighted(arrivals.sampling(), layout);
        if (arrivals.rule() != OccupancyArrivals.Rule.RANDOM && arrivals.rule() != OccupancyArrivals.Rule.SQD && !sed) {
            throw new IllegalStateException("policy " + arrivals.rule() + " with server classes");
        }
        this.sample = new int[d];
        int k = layout.count();
        busy = new int[k];
        int length = 0;
        for (int[] c : initial) {
            length = Math.max(length, Math.max(64, Integer.highestOneBit(c.length + 1) << 1));
        }
        shift = Integer.numberOfTrailingZeros(length);
        cc = new int[k << shift];
        for (int c = 0; c < k; c++) {
            System.arraycopy(initial[c], 0, cc, c << shift, initial[c].length);
            busy[c] = cc[(c << shift) + 1];
        }
        serverLevel = levelTable ? serverLevels(cc, shift, layout) : null;
        long[] w = layout.delayWeights();
        delayWeight = sed && serverLevel != null ? w : null;
        if (delayWeight != null) {
            serverDelay = new long[n];
            for (int s = 0; s < n; s++) {
                serverDelay[s] = (serverLevel[s] + 1L) * delayWeight[layout.classOf(s)];
            }
        } else {
            serverDelay = null;
        }
        this.uniformLevels = !sed && !distinct && !speedWeighted;
        this.pairOfDraws = d == 2 && !distinct && !speedWeighted && (serverLevel == null || !sed || serverDelay != null);
    }

    /**
     * Systems up to this size keep the level of every server ({@link #serverLevel}, 4 bytes a server, at
     * most 256 KiB, so that its reads stay in the core's caches); larger ones search the counts, which
     * take O(K·levels) memory whatever N.
     */
    static final int LEVEL_TABLE_SERVERS = 1 << 16;

    /** @return {@code L_k(r)} at {@code start(k) + r}, for every class k and rank {@code r ∈ [0, N_k)} */
    private static int[] serverLevels(int[] cc, int shift, ServerClassLayout layout) {
        int[] out = new int[layout.servers()];
        for (int k = 0; k < layout.count(); k++) {
            // ranks [c_{k,l+1}, c_{k,l}) hold level l
            int start = layout.start(k);
            int o = k << shift;
            for (int l = 0; l + 1 < 1 << shift && cc[o + l] > 0; l++) {
                Arrays.fill(out, start + cc[o + l + 1], start + cc[o + l], l);
            }
        }
        return out;
    }

    /**
     * @return whether {@link #serverLevel} (when kept) holds {@code L_k(r) = max{l : c_{k,l} > r}} at
     *         {@code start(k) + r} for every server, and {@link #serverDelay} its SED value (a test's check)
     */
    boolean levelTableAgreesWithCounts() {
        int length = 1 << shift;
        for (int l = 0; l < length; l++) {
            // the counts of all servers are the sums of the classes' counts
            long all = 0;
            for (int k = 0; k < layout.count(); k++) {
                all += cc[(k << shift) + l];
            }
            if (all != counts.countAtLeast(l)) {
                return false;
            }
        }
        if (serverLevel == null) {
            return true;
        }
        for (int k = 0; k < layout.count(); k++) {
            int[] own = Arrays.copyOfRange(cc, k << shift, (k + 1) << shift);
            for (int r = 0; r < layout.size(k); r++) {
                int s = layout.start(k) + r;
                int level = OccupancyReplication.levelOfRank(own, r, counts.highest); // the plain search, as the reference
                if (serverLevel[s] != level || serverDelay != null && serverDelay[s] != (level + 1L) * delayWeight[k]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return the level of server {@code s}, of class k */
    private int levelOf(int s, int k) {
        return serverLevel != null ? serverLevel[s] : levelOfRank(cc, k << shift, (1 << shift) - 1, s - layout.start(k));
    }

    /**
     * Levels counted without branches, whatever the highest level: the levels of the servers of one
     * speed at λ = 0.9 (docs/models.md §1), which those of a class seldom pass.
     */
    static final int COUNTED_FIRST = 8;

    /**
     * {@link OccupancyReplication#levelOfRank} for counts {@code c_l = c[offset + l]}, with a count of
     * fixed length: the first {@link #COUNTED_FIRST} levels are counted (a loop the JIT unrolls: no
     * branch), and only a rank at or above that level — rare, so the branch is predicted — is searched
     * further. The classes reach higher levels than servers of one speed (the slow ones), and a count up
     * to the highest level reached would lengthen every search by the rare ones; a count up to each
     * class's own highest level would end the loop at a different place for each class, which the
     * branch predictor misses.
     *
     * @param c counts, non-increasing from {@code c[offset] > r}, zero at {@code c[offset + last]} at the latest
     * @param offset where level 0 sits
     * @param last the last level that may be read ({@code > COUNTED_FIRST})
     * @param r a rank in {@code [0, c[offset])}
     * @return {@code L(r) = max{l : c_l > r}}
     */
    static int levelOfRank(int[] c, int offset, int last, int r) {
        int level = 0;
        for (int l = 1; l <= COUNTED_FIRST; l++) {
            level += (r - c[offset + l]) >>> 31;
        }
        return level < COUNTED_FIRST ? level : OccupancyReplication.searchAbove(c, offset, COUNTED_FIRST, last, r);
    }

    /**
     * The class of the server at place {@code p} of level l's block when the block is divided class
     * after class, class k taking its {@code c_{k,l} − c_{k,l+1}} servers: the number of classes whose
     * part ends at or before p, counted without branches (the class is random: a loop stopping at it
     * would mispredict). A class with no server in the block has its part's end equal to the previous
     * one, so it is counted past whenever the previous one is.
     *
     * @param p a place in {@code [0, c_l − c_{l+1})}
     */
    private int classAt(int l, int p) {
        final int[] c = cc;
        final int shift = this.shift;
        int k = 0;
        int end = 0;
        for (int j = 0; j < busy.length - 1; j++) {
            final int o = (j << shift) + l;
            end += c[o] - c[o + 1];
            k += (end - 1 - p) >>> 31;
        }
        return k;
    }

    /** Doubles the length of every class's counts: they stay of one length. */
    private void growCounts() {
        int length = 1 << shift;
        int[] grown = new int[cc.length << 1];
        for (int k = 0; k < layout.count(); k++) {
            System.arraycopy(cc, k * length, grown, 2 * k * length, length);
        }
        cc = grown;
        shift++;
    }

    /** @return {@code Σ_k c_{k,i}} */
    private static int[] sum(int[][] perClass) {
        int len = 0;
        for (int[] c : perClass) {
            len = Math.max(len, c.length);
        }
        int[] total = new int[len];
        for (int[] c : perClass) {
            for (int i = 0; i < c.length; i++) {
                total[i] += c[i];
            }
        }
        return total;
    }

    @Override
    Engine engine() {
        return Engine.OCCUPANCY;
    }

    @Override
    void onArrivalBoundChanged(double previousBound) {
        pending = ExponentialClock.next(pending, t, previousBound, arrivalBound, classes.busyRate(busy, arrivalBound), exp1);
    }

    /** Fills {@link #sample} with d server numbers in {@code [0, N)} (uniform, distinct or by speed: see the class comment). */
    private void drawServers() {
        final int[] s = sample;
        if (speedWeighted) {
            drawBySpeed(s);
        } else if (!distinct) {
            for (int i = 0; i < d; i++) {
                s[i] = rng.nextInt(n);
            }
        } else {
            // its order is not uniform: ties are broken by a uniform choice in joinDistinct
            OccupancyReplication.distinctSample(rng, n, d, s);
        }
    }

    /** Fills {@code s} with d iid servers, each of class k with probability {@code ∝ N_k s_k}, then of a uniform rank. */
    private void drawBySpeed(int[] s) {
        final double total = layout.totalSpeed();
        for (int i = 0; i < d; i++) {
            int k = layout.classAtSpeed(rng.nextDouble() * total);
            s[i] = layout.start(k) + rng.nextInt(layout.size(k));
        }
    }

    /**
     * @return {@code k·2^32 + q} for iid draws (SED(d), or speed-weighted SQ(d)): the first sample of least level (or least SED value)
     * is uniform among the tied; kept without branches (whether a later sample is better is a coin toss
     * for the predictor).
     */
    private long joinIid(int[] s) {
        if (serverDelay != null) {
            return joinByDelay(s);
        }
        int bestClass = layout.classOf(s[0]);
        int bestLevel = levelOf(s[0], bestClass);
        for (int i = 1; i < d; i++) {
            int k = layout.classOf(s[i]);
            int q = levelOf(s[i], k);
            // all ones when sample i is strictly better: q − bestLevel < 0, or a negative comparison
            int better = sed ? layout.smallerValueMask(k, q, bestClass, bestLevel) : (q - bestLevel) >> 31;
            bestClass ^= (bestClass ^ k) & better;
            bestLevel ^= (bestLevel ^ q) & better;
        }
        return ((long) bestClass << 32) | bestLevel;
    }

    /**
     * Speed-blind SQ(d) (or random routing) with d uniform draws, when every server's level is kept
     * ({@link #serverLevel}): the first sample of least level, uniform among the tied as the draws are
     * iid, found without branches; only its class is looked up.
     *
     * @return {@code k·2^32 + q}
     */
    private long joinByTable(int[] s) {
        final int[] level = serverLevel;
        int best = s[0];
        int bestLevel = level[best];
        for (int i = 1; i < d; i++) {
            int q = level[s[i]];
            int better = (q - bestLevel) >> 31;
            best ^= (best ^ s[i]) & better;
            bestLevel ^= (bestLevel ^ q) & better;
        }
        return ((long) layout.classOf(best) << 32) | bestLevel;
    }

    /**
     * SED(d) with iid draws when every server's SED value is kept ({@link #serverDelay}): the first
     * sample of least value (uniform among the tied), found without branches; only its class and its
     * level are looked up. The same choice as {@link #joinIid} makes by cross-multiplying.
     *
     * @return {@code k·2^32 + q}
     */
    private long joinByDelay(int[] s) {
        final long[] delay = serverDelay;
        int best = s[0];
        long bestDelay = delay[best];
        for (int i = 1; i < d; i++) {
            long v = delay[s[i]];
            int better = (int) ((v - bestDelay) >> 63);
            best ^= (best ^ s[i]) & better;
            bestDelay ^= (bestDelay ^ v) & better;
        }
        return ((long) layout.classOf(best) << 32) | serverLevel[best];
    }

    /**
     * {@link #joinByTable} (SQ(2)) or {@link #joinByDelay} (SED(2)) for the two draws a then b, without
     * the sample array: the same choice, b only when strictly better.
     *
     * @return {@code k·2^32 + q}
     */
    private long joinPair(int a, int b) {
        if (serverLevel == null) {
            return sed ? joinPairBySearch(a, b) : joinPairByLevel(a, b);
        }
        final int better;
        if (serverDelay != null) {
            better = (int) ((serverDelay[b] - serverDelay[a]) >> 63);
        } else {
            better = (serverLevel[b] - serverLevel[a]) >> 31;
        }
        final int best = a ^ ((a ^ b) & better);
        return ((long) layout.classOf(best) << 32) | serverLevel[best];
    }

    /**
     * SED(2) with two iid draws a then b and no level table: both levels counted in one pass over the
     * levels (two independent sums, one loop), then {@link #joinIid}'s exact comparison.
     *
     * @return {@code k·2^32 + q}
     */
    private long joinPairBySearch(int a, int b) {
        final int ka = layout.classOf(a);
        final int kb = layout.classOf(b);
        final int ra = a - layout.start(ka);
        final int rb = b - layout.start(kb);
        final int[] c = cc;
        final int shift = this.shift;
        final int oa = ka << shift;
        final int ob = kb << shift;
        // as levelOfRank counts, for the two draws at once
        int qa = 0;
        int qb = 0;
        for (int l = 1; l <= COUNTED_FIRST; l++) {
            qa += (ra - c[oa + l]) >>> 31;
            qb += (rb - c[ob + l]) >>> 31;
        }
        if (qa == COUNTED_FIRST) {
            qa = levelOfRank(c, oa, (1 << shift) - 1, ra);
        }
        if (qb == COUNTED_FIRST) {
            qb = levelOfRank(c, ob, (1 << shift) - 1, rb);
        }
        final int better = layout.smallerValueMask(kb, qb, ka, qa);
        return ((long) (ka ^ ((ka ^ kb) & better)) << 32) | (qa ^ ((qa ^ qb) & better));
    }

    /**
     * {@link #joinByLevel} for the two draws a then b, without the sample array: the level of the larger
     * rank, then a if it lies in that level's block, else b.
     *
     * @return {@code k·2^32 + q}
     */
    private long joinPairByLevel(int a, int b) {
        final int[] c = counts.c;
        final int q = levelOfRank(c, 0, c.length - 1, Math.max(a, b));
        final int below = c[q + 1];
        final int chosen = a >= below ? a : b;
        return ((long) classAt(q, chosen - below) << 32) | q;
    }

    /** @return {@code k·2^32 + q}: the class k and the level q of the server an arrival joins, its d servers drawn here */
    private long join() {
        drawServers();
        return uniformLevels ? (serverLevel != null ? joinByTable(sample) : joinByLevel(sample))
                : distinct ? joinDistinct(sample) : joinIid(sample);
    }

    /** @return {@code k·2^32 + q} for distinct samples: the best one, ties broken by a uniform choice among the tied (reservoir sampling). */
    private long joinDistinct(int[] s) {
        int bestClass = -1;
        int bestLevel = Integer.MAX_VALUE;
        int ties = 0;
        for (int i = 0; i < d; i++) {
            int k = layout.classOf(s[i]);
            int q = levelOf(s[i], k);
            int cmp = bestClass < 0 ? -1 : sed ? layout.compareValues(k, q, bestClass, bestLevel) : Integer.compare(q, bestLevel);
            if (cmp < 0) {
                bestClass = k;
                bestLevel = q;
                ties = 1;
            } else if (cmp == 0 && rng.nextInt(++ties) == 0) {
                bestClass = k;
                bestLevel = q;
            }
        }
        return ((long) bestClass << 32) | bestLevel;
    }

    /**
     * Speed-blind SQ(d) with d uniform draws (or random routing): the draws read as ranks in the order
     * of all servers by decreasing level, each level's block subdivided by class in class order (the
     * servers of one class and level are exchangeable, so this numbering is as good as any). The
     * least level of the sample is that of its largest rank, found in the counts of all servers, and
     * the first sample in that level's block is the server joined (uniform among the tied sampled ones,
     * as the draws are iid); its place in the block gives its class. One level search where a search
     * per sample would do.
     *
     * @return {@code k·2^32 + q}: the class k and the level q of the server joined
     */
    private long joinByLevel(int[] s) {
        final int[] c = counts.c;
        int top = s[0];
        for (int i = 1; i < d; i++) {
            top = Math.max(top, s[i]);
        }
        final int q = levelOfRank(c, 0, c.length - 1, top);
        final int below = c[q + 1]; // servers above level q: the ranks before q's block
        int chosen = top;
        for (int i = d - 1; i >= 0; i--) {
            // the first draw in q's block (ranks ≥ c_{q+1}), kept without branches
            int inBlock = (below - 1 - s[i]) >> 31;
            chosen ^= (chosen ^ s[i]) & inBlock;
        }
        // its class: the number of classes whose part of the block ends at or before its place
        return ((long) classAt(q, chosen - below) << 32) | q;
    }

    @Override
    void simulate() {
        final TailIntegrals tail = this.tail;
        final OccupancyReplication.Counts counts = this.counts;
        final ClassStatistics classes = this.classes;
        final double[] inverseRate = classes.inverseRate;
        final int[] busy = this.busy;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            double next = pending;
            double now = t;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long completions = this.completions;
            double responseSum = this.responseSum;
            double waitingSum = this.waitingSum;
            // Σ_k μ s_k c_{k,1} changes only when a server becomes busy or idle: recomputed then (the
            // same sum, the same numbers), not twice an event
            double busyRate = classes.busyRate(busy, arrivalBound);
            while (next < checkpointTime) {
                now = next;
                final double total = bound + busyRate;
                final double u = rng.nextDouble() * total;
                if (u < bound) {
                    if (!constantRate) {
                        t = now;
                        if (!acceptCandidate()) {
                            next = now + exp1.sample() / total;
                            continue;
                        }
                    }
                    // k·2^32 + q: the class k and the level q of the server joined; the cases in methods of
                    // their own called from here, each small enough for the JIT to inline (one method
                    // holding them all was not inlined: too big, or "already compiled into a big method")
                    final long kq = pairOfDraws ? joinPair(rng.nextInt(n), rng.nextInt(n)) : join();
                    final int k = (int) (kq >>> 32);
                    final int q = (int) kq;
                    events++;
                    arrivals++;
                    if (q == 0) {
                        idleArrivals++;
                        busy[k]++;
                        busyRate = classes.busyRate(busy, arrivalBound);
                    }
                    completions++;
                    responseSum += (q + 1) * inverseRate[k];
                    waitingSum += q * inverseRate[k];
                    if (q + 2 >= 1 << shift) {
                        growCounts();
                    }
                    if (q + 1 > counts.highest) {
                        counts.reach(q + 1);
                    }
                    tail.beforeUpInClass(q + 1, k, now);
                    final int at = (k << shift) + q + 1;
                    if (serverLevel != null) {
                        // the first rank of level q's block becomes the last of level q + 1's
                        final int moved = layout.start(k) + cc[at];
                        serverLevel[moved] = q + 1;
                        if (serverDelay != null) {
                            serverDelay[moved] = (q + 2L) * delayWeight[k];
                        }
                    }
                    cc[at]++;
                    counts.c[q + 1]++;
                    classes.arrival(k);
                } else {
                    final long ki = classes.departure(busy, u);
                    final int k = (int) (ki >>> 32);
                    final int j = levelOf(layout.start(k) + (int) ki, k);
                    events++;
                    tail.beforeDownInClass(j, k, now);
                    final int at = (k << shift) + j;
                    if (serverLevel != null) {
                        // the last rank of level j's block becomes the first of level j − 1's
                        final int moved = layout.start(k) + cc[at] - 1;
                        serverLevel[moved] = j - 1;
                        if (serverDelay != null) {
                            serverDelay[moved] = j * delayWeight[k];
                        }
                    }
                    cc[at]--;
                    counts.c[j]--;
                    if (j == 1) {
                        busy[k]--;
                        busyRate = classes.busyRate(busy, arrivalBound);
                    }
                }
                next = now + exp1.sample() / (bound + busyRate);
            }
            pending = next;
            t = now;
            this.events = events;
            this.arrivals = arrivals;
            this.idleArrivals = idleArrivals;
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
    }

    @Override
    void endPolicyUnit(double t, long arrivals, PolicyStatistics out) {
    }

    @Override
    List<LevelJump> policyJumps() {
        return List.of();
    }

    @Override
    int[] classTailCounts() {
        int classes = layout.count();
        int levels = 1 << shift;
        int[] counts = new int[levels * classes];
        for (int k = 0; k < classes; k++) {
            for (int l = 1; l < levels; l++) {
                counts[l * classes + k] = cc[(k << shift) + l];
            }
        }
        return counts;
    }
}
