package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.Dispatcher;
import org.mflb.simulation.state.LevelSets;
import org.mflb.simulation.state.EventCalendar;

/**
 * Infinite-server or loss pools with a general service law: every task in service has its
 * completion time in an {@link EventCalendar} (a task starts its service on arrival). An arrival
 * sent to a pool holding {@code C} tasks is lost.
 */
final class PoolCalendar extends AgentReplication {

    private final EventCalendar calendar;
    private final ContinuousSampler service;
    private double nextArrival;

    PoolCalendar(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng, false, false);
        calendar = new EventCalendar(2 * n);
        service = scenario.model().service().createSampler(rng);
        for (int p = 0; p < n; p++) {
            for (int j = occ.level(p); j > 0; j--) {
                calendar.add(service.sample(), p);
            }
        }
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
        final TailIntegrals tail = this.tail;
        final EventCalendar calendar = this.calendar;
        final ContinuousSampler service = this.service;
        final Dispatcher dispatcher = this.dispatcher;
        final int capacity = this.capacity;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            double arrivalTime = nextArrival;
            double now = t;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long blocked = this.blocked;
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
                    final int p = dispatcher.select(now);
                    final int k = occ.level(p);
                    events++;
                    arrivals++;
                    if (k >= capacity) {
                        blocked++;
                        dispatcher.onBlocked(p, now);
                        continue;
                    }
                    if (k == 0) {
                        idleArrivals++;
                    }
                    tail.beforeUp(k + 1, now);
                    occ.up(p);
                    calendar.add(now + service.sample(), p);
                    dispatcher.onArrival(p, k + 1, now);
                } else {
                    final int p = calendar.firstOwner();
                    calendar.removeFirst();
                    final int k = occ.level(p);
                    events++;
                    tail.beforeDown(k, now);
                    occ.down(p);
                    dispatcher.onDeparture(p, k - 1, now);
                }
            }
            t = now;
            nextArrival = arrivalTime;
            this.events = events;
            this.arrivals = arrivals;
            this.idleArrivals = idleArrivals;
            this.blocked = blocked;
            if (!checkpoint()) {
                return;
            }
        }
    }
}
