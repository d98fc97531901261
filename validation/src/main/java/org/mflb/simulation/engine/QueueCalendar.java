package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.state.EventCalendar;
import org.mflb.simulation.state.FifoJobs;
import org.mflb.simulation.state.Occupancy;

/**
 * Single-server FIFO queues with a general service law: each busy server has its service
 * completion in an {@link EventCalendar}; the service requirement of a job is drawn when its
 * service starts (requirements are i.i.d., so this is the same law as drawing at arrival). The
 * next event is the earlier of the next arrival candidate and the earliest completion.
 */
final class QueueCalendar extends Replication {

    private final FifoJobs jobs;
    private final double[] serviceStart;
    private final EventCalendar calendar;
    private final ContinuousSampler service;
    private double nextArrival;

    QueueCalendar(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng);
        jobs = initialJobs(occ, n);
        serviceStart = new double[n];
        calendar = new EventCalendar(n);
        service = scenario.service() == null ? exp1 : scenario.service().createSampler(rng);
        for (int s = 0; s < n; s++) {
            if (occ.level(s) > 0) {
                calendar.add(service.sample(), s); // a fresh service starting at time 0
            }
        }
    }

    /** The FIFO queues of the initial state, its jobs with unknown (NaN) arrival times. */
    static FifoJobs initialJobs(Occupancy occ, int n) {
        long total = 0;
        for (int s = 0; s < n; s++) {
            total += occ.level(s);
        }
        FifoJobs jobs = new FifoJobs(n, (int) Math.min(Integer.MAX_VALUE / 2, Math.max(2L * n, total + n)));
        for (int s = 0; s < n; s++) {
            for (int j = occ.level(s); j > 0; j--) {
                jobs.push(s, Double.NaN);
            }
        }
        return jobs;
    }

    @Override
    void onArrivalBoundChanged() {
        nextArrival = t + exp1.sample() / arrivalBound;
    }

    @Override
    void simulate() {
        for (;;) {
            final double dep = calendar.firstTime();
            final boolean arrival = nextArrival < dep;
            final double next = arrival ? nextArrival : dep;
            if (next >= nextCheckpoint) {
                if (!checkpoint()) {
                    return;
                }
                continue;
            }
            t = next;
            if (arrival) {
                nextArrival = next + exp1.sample() / arrivalBound;
                if (constantRate || acceptCandidate()) {
                    arrive();
                }
            } else {
                depart(calendar.firstOwner());
            }
        }
    }

    private void arrive() {
        final double now = t;
        final int s = dispatcher.select(now);
        final int k = occ.level(s);
        events++;
        arrivals++;
        if (k == 0) {
            idleArrivals++;
            serviceStart[s] = now;
            calendar.add(now + service.sample(), s);
        }
        tail.beforeChange(k + 1, now);
        occ.up(s);
        jobs.push(s, now);
        dispatcher.onArrival(s, k + 1, now);
    }

    private void depart(int s) {
        final double now = t;
        final int k = occ.level(s);
        events++;
        tail.beforeChange(k, now);
        occ.down(s);
        final double a = jobs.pop(s);
        if (a == a) {
            completions++;
            responseSum += now - a;
            waitingSum += serviceStart[s] - a;
        }
        if (k > 1) {
            serviceStart[s] = now;
            calendar.replaceFirst(now + service.sample(), s);
        } else {
            calendar.removeFirst();
        }
        dispatcher.onDeparture(s, k - 1, now);
    }
}
