package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.state.FifoJobs;

/**
 * Single-server FIFO queues with exponential service of rate μ (1 by convention): the fast path,
 * without an event calendar. In a state with {@code B} busy servers the next event comes after an
 * Exp({@code N·λ̄ + μB}) time; it is an arrival candidate with probability
 * {@code N·λ̄/(N·λ̄ + μB)}, otherwise the departure from a uniformly random busy server
 * (MODELS.md §1). One uniform {@code u ∈ [0, N·λ̄ + μB)} decides both: {@code u < N·λ̄} is an
 * arrival, otherwise {@code ⌊(u − N·λ̄)/μ⌋} is uniform on the busy servers, which are the last
 * {@code B} of the occupancy's sorted order.
 */
final class QueueExponential extends Replication {

    private final FifoJobs jobs;
    /** Time at which the job in service at each server started its service. */
    private final double[] serviceStart;

    private final double mu;
    private final double inverseMu;

    QueueExponential(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng);
        mu = scenario.exponentialServiceRate();
        inverseMu = 1 / mu;
        jobs = QueueCalendar.initialJobs(occ, n);
        serviceStart = new double[n];
    }

    @Override
    void simulate() {
        for (;;) {
            final int busy = occ.countAtLeast(1);
            final double total = arrivalBound + mu * busy;
            final double next = t + exp1.sample() / total;
            if (next >= nextCheckpoint) {
                if (!checkpoint()) {
                    return;
                }
                continue;
            }
            t = next;
            final double u = rng.nextDouble() * total;
            if (u < arrivalBound) {
                if (constantRate || acceptCandidate()) {
                    arrive();
                }
            } else {
                int k = (int) ((u - arrivalBound) * inverseMu);
                depart(occ.serverAt(n - busy + (k < busy ? k : busy - 1)));
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
        if (a == a) { // not a job present at time 0
            completions++;
            responseSum += now - a;
            waitingSum += serviceStart[s] - a;
        }
        if (k > 1) {
            serviceStart[s] = now;
        }
        dispatcher.onDeparture(s, k - 1, now);
    }
}
