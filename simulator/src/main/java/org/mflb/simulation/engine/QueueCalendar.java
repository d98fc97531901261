package org.mflb.simulation.engine;

import org.HdrHistogram.DoubleHistogram;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.Dispatcher;
import org.mflb.simulation.state.EventCalendar;
import org.mflb.simulation.state.FifoJobs;
import org.mflb.simulation.state.LevelSets;
import org.mflb.simulation.state.Occupancy;

/**
 * Single-server FIFO queues with a general service law: each busy server has its service
 * completion in an {@link EventCalendar}; the service requirement of a job is drawn when its
 * service starts (requirements are i.i.d., so this is the same law as drawing at arrival). The
 * next event is the earlier of the next arrival candidate and the earliest completion. A server of
 * speed {@code s_k} (docs/models.md §10) takes {@code 1/s_k} of each requirement.
 */
final class QueueCalendar extends AgentReplication {

    private final FifoJobs jobs;
    private final EventCalendar calendar;
    private final ContinuousSampler service;
    private double nextArrival;

    QueueCalendar(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng, true, false);
        jobs = initialJobs(occ, n);
        calendar = new EventCalendar(n);
        service = scenario.model().service().createSampler(rng);
        for (int s = 0; s < n; s++) {
            if (occ.level(s) > 0) {
                calendar.add(serviceTime(s), s); // a fresh service starting at time 0
            }
        }
    }

    /** @return the service time of a job starting service at server {@code s}: the requirement over its speed */
    private double serviceTime(int s) {
        double x = service.sample();
        return classes == null ? x : x * classes.slowness[occ.classOf(s)];
    }

    /** The FIFO queues of the initial state, its jobs with unknown (NaN) arrival times. */
    static FifoJobs initialJobs(Occupancy occ, int n) {
        FifoJobs jobs = new FifoJobs(n);
        for (int s = 0; s < n; s++) {
            for (int j = 0; j < occ.level(s); j++) {
                jobs.push(s, j, Double.NaN);
            }
        }
        return jobs;
    }

    /** Arrival candidates: a fresh Exp time at the start, else the pending one rescaled (draws nothing). */
    @Override
    void onArrivalBoundChanged(double previousBound) {
        nextArrival = ExponentialClock.next(nextArrival, t, previousBound, arrivalBound, 0, exp1);
    }

    /* Same structure as QueueExponential.simulate (see the performance notes there). */
    @Override
    void simulate() {
        final LevelSets occ = this.occ;
        final FifoJobs jobs = this.jobs;
        final TailIntegrals tail = this.tail;
        final EventCalendar calendar = this.calendar;
        final Dispatcher dispatcher = this.dispatcher;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            final DoubleHistogram responseTimes = this.responseTimes;
            double arrivalTime = nextArrival;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long completions = this.completions;
            double responseSum = this.responseSum;
            double waitingSum = this.waitingSum;
            double now = t;
            for (;;) {
                final double dep = calendar.firstTime();
                final boolean arrival = arrivalTime < dep;
                final double next = arrival ? arrivalTime : dep;
                if (next >= checkpointTime) {
                    break;
                }
                now = next;
                if (arrival) {
                    arrivalTime = now + exp1.sample() / bound;
                    if (!constantRate) {
                        t = now;
                        if (!acceptCandidate()) {
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
                        calendar.add(now + serviceTime(s), s);
                    }
                    if (classes == null) {
                        tail.beforeUp(k + 1, now);
                    } else {
                        final int c = occ.classOf(s);
                        tail.beforeUpInClass(k + 1, c, now);
                        classes.arrival(c);
                    }
                    occ.up(s);
                    jobs.push(s, k, now);
                    dispatcher.onArrival(s, k + 1, now);
                } else {
                    final int s = calendar.firstOwner();
                    final int k = occ.level(s);
                    events++;
                    if (classes == null) {
                        tail.beforeDown(k, now);
                    } else {
                        tail.beforeDownInClass(k, occ.classOf(s), now);
                    }
                    occ.down(s);
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
                        calendar.replaceFirst(now + serviceTime(s), s);
                    } else {
                        calendar.removeFirst();
                    }
                    dispatcher.onDeparture(s, k - 1, now);
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
            if (!checkpoint()) {
                return;
            }
        }
    }
}
