package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.state.EventCalendar;

/**
 * Infinite-server or loss pools with a general service law: every task in service has its
 * completion time in an {@link EventCalendar} (a task starts its service on arrival). An arrival
 * sent to a pool holding {@code C} tasks is lost.
 */
final class PoolCalendar extends Replication {

    private final EventCalendar calendar;
    private final ContinuousSampler service;
    private double nextArrival;

    PoolCalendar(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng);
        calendar = new EventCalendar(2 * n);
        service = scenario.service() == null ? exp1 : scenario.service().createSampler(rng);
        for (int p = 0; p < n; p++) {
            for (int j = occ.level(p); j > 0; j--) {
                calendar.add(service.sample(), p);
            }
        }
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
                int p = calendar.firstOwner();
                calendar.removeFirst();
                depart(p);
            }
        }
    }

    private void arrive() {
        final double now = t;
        final int p = dispatcher.select(now);
        final int k = occ.level(p);
        events++;
        arrivals++;
        if (k >= capacity) {
            blocked++;
            dispatcher.onBlocked(p, now);
            return;
        }
        if (k == 0) {
            idleArrivals++;
        }
        tail.beforeChange(k + 1, now);
        occ.up(p);
        calendar.add(now + service.sample(), p);
        dispatcher.onArrival(p, k + 1, now);
    }

    private void depart(int p) {
        final double now = t;
        final int k = occ.level(p);
        events++;
        tail.beforeChange(k, now);
        occ.down(p);
        dispatcher.onDeparture(p, k - 1, now);
    }
}
