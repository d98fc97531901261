package org.mflb.simulation.engine;

import org.HdrHistogram.DoubleHistogram;
import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.Dispatcher;
import org.mflb.simulation.state.FifoJobs;
import org.mflb.simulation.state.LevelSets;

/**
 * Single-server FIFO queues with exponential service of rate μ (1 by convention): the fast path,
 * without an event calendar. In a state with {@code B} busy servers the next event comes after an
 * Exp({@code N·λ̄ + μB}) time; it is an arrival candidate with probability
 * {@code N·λ̄/(N·λ̄ + μB)}, otherwise the departure from a uniformly random busy server
 * (docs/models.md §1). One uniform {@code u ∈ [0, N·λ̄ + μB)} decides both: {@code u < N·λ̄} is an
 * arrival, otherwise {@code ⌊(u − N·λ̄)/μ⌋} is uniform on the busy servers, which are the last
 * {@code B} of the occupancy's sorted order. The time of the next event is drawn right after an
 * event and kept across checkpoints (common random numbers, see {@link Replication}).
 *
 * <p>Servers of different speeds (docs/models.md §10): a class-k server serves at rate {@code μ s_k},
 * the departure rate is {@code Σ_k μ s_k B_k} with {@code B_k} the busy servers of class k, and the
 * part {@code u − N·λ̄} of the uniform picks the class with probability proportional to its rate and
 * then a uniformly random busy server of it ({@link ClassStatistics#departure}; the level sets keep
 * each class's busy servers in a block).
 */
final class QueueExponential extends AgentReplication {

    private final FifoJobs jobs;

    private final double mu;
    private final double inverseMu;
    /** Time of the next event (arrival candidate or departure). */
    private double pending = Double.NaN;

    QueueExponential(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng, true, true);
        mu = exponentialServiceRate(scenario);
        inverseMu = 1 / mu;
        jobs = QueueCalendar.initialJobs(occ, n);
    }

    @Override
    void onArrivalBoundChanged(double previousBound) {
        pending = ExponentialClock.next(pending, t, previousBound, arrivalBound, departureRate(), exp1);
    }

    /** @return the total rate of service completions */
    private double departureRate() {
        return classes == null ? mu * occ.countAtLeast(1) : classes.busyRate(occ.classBusy(), arrivalBound);
    }

    /*
     * Performance notes (this loop is the simulator's hot spot):
     * - the arrival and departure code sits in the loop body: as separate methods the JIT compiles
     *   the arrival on its own first and then refuses to inline it ("already compiled into a big
     *   method");
     * - the inner loop makes no call, so that the JIT keeps the clock, the counters and the array
     *   references in registers; they go back to the fields only at a checkpoint, which reads and
     *   resets them.
     */
    @Override
    void simulate() {
        final LevelSets occ = this.occ;
        final FifoJobs jobs = this.jobs;
        final TailIntegrals tail = this.tail;
        final Dispatcher dispatcher = this.dispatcher;
        final int n = this.n;
        final double mu = this.mu;
        final double inverseMu = this.inverseMu;
        final ClassStatistics classes = this.classes;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            final DoubleHistogram responseTimes = this.responseTimes;
            long[] joined = this.joined;
            double next = pending;
            double now = t;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long completions = this.completions;
            double responseSum = this.responseSum;
            double waitingSum = this.waitingSum;
            // with classes, Σ_k μ s_k B_k: it changes only when a server becomes busy or idle, so it is
            // recomputed then (the same sum, the same numbers) rather than twice an event
            double classBusyRate = classes == null ? 0 : classes.busyRate(occ.classBusy(), arrivalBound);
            while (next < checkpointTime) {
                now = next;
                final int busy = occ.countAtLeast(1);
                final double total = bound + (classes == null ? mu * busy : classBusyRate);
                final double u = rng.nextDouble() * total;
                if (u < bound) {
                    if (!constantRate) {
                        t = now;
                        if (!acceptCandidate()) {
                            next = now + exp1.sample() / total;
                            continue;
                        }
                    }
                    final int s = dispatcher.select(now);
                    final int k = occ.level(s);
                    events++;
                    arrivals++;
                    if (k == 0) {
                        idleArrivals++;
                        jobs.setServiceStart(s, now);
                    }
                    if (joined != null) {
                        if (k >= joined.length) {
                            joined = growJoined(k);
                        }
                        joined[k]++;
                    }
                    if (classes == null) {
                        tail.beforeUp(k + 1, now);
                        occ.up(s);
                    } else {
                        final int c = occ.classOf(s);
                        tail.beforeUpInClass(k + 1, c, now);
                        occ.upInClass(s, c);
                        classes.arrival(c);
                    }
                    jobs.push(s, k, now);
                    dispatcher.onArrival(s, k + 1, now);
                    if (classes != null) {
                        if (k == 0) {
                            classBusyRate = classes.busyRate(occ.classBusy(), arrivalBound);
                        }
                        next = now + exp1.sample() / (bound + classBusyRate);
                        continue;
                    }
                    next = now + exp1.sample() / (bound + mu * occ.countAtLeast(1));
                } else {
                    final int s;
                    final int c;
                    if (classes == null) {
                        final int i = (int) ((u - bound) * inverseMu);
                        s = occ.serverAt(n - busy + (i < busy ? i : busy - 1));
                        c = -1;
                    } else {
                        final long ci = classes.departure(occ.classBusy(), u);
                        c = (int) (ci >>> 32);
                        s = occ.busyServerOfClass(c, (int) ci);
                    }
                    final int k = occ.level(s);
                    events++;
                    if (classes == null) {
                        tail.beforeDown(k, now);
                        occ.down(s);
                    } else {
                        tail.beforeDownInClass(k, c, now);
                        occ.downInClass(s, c);
                    }
                    final double a = jobs.pop(s, k);
                    if (a == a) { // not a job present at time 0
                        completions++;
                        responseSum += now - a;
                        waitingSum += jobs.serviceStart(s) - a;
                        if (responseTimes != null) {
                            recordResponseTime(now - a);
                        }
                    }
                    if (k > 1) {
                        jobs.setServiceStart(s, now);
                    }
                    dispatcher.onDeparture(s, k - 1, now);
                    if (classes != null && k == 1) {
                        classBusyRate = classes.busyRate(occ.classBusy(), arrivalBound);
                    }
                    next = now + exp1.sample() / (bound + (classes == null ? mu * occ.countAtLeast(1)
                            : classBusyRate));
                }
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
}
