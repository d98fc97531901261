package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.Dispatcher;
import org.mflb.simulation.state.LevelSets;
import org.mflb.simulation.state.TaskList;

/**
 * Infinite-server or loss pools with exponential service of rate μ (1 by convention) per task:
 * the fast path. With {@code M} tasks in the system the next event comes after an
 * Exp({@code N·λ̄ + μM}) time; it is an arrival candidate with probability
 * {@code N·λ̄/(N·λ̄ + μM)}, otherwise the completion of a uniformly random task (docs/models.md §2),
 * found in O(1) in the {@link TaskList}. An arrival sent to a pool holding {@code C} tasks is lost.
 * The next event's time is kept across checkpoints (common random numbers, see {@link Replication}).
 */
final class PoolExponential extends AgentReplication {

    private final TaskList tasks;

    private final double mu;
    private final double inverseMu;
    /** Time of the next event (arrival candidate or completion). */
    private double pending = Double.NaN;

    PoolExponential(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng, false, false);
        mu = exponentialServiceRate(scenario);
        inverseMu = 1 / mu;
        tasks = new TaskList(2 * n);
        for (int p = 0; p < n; p++) {
            for (int j = occ.level(p); j > 0; j--) {
                tasks.add(p);
            }
        }
    }

    @Override
    void onArrivalBoundChanged(double previousBound) {
        pending = ExponentialClock.next(pending, t, previousBound, arrivalBound, mu * tasks.size(), exp1);
    }

    /* Same structure as QueueExponential.simulate (see the performance notes there). */
    @Override
    void simulate() {
        final LevelSets occ = this.occ;
        final TaskList tasks = this.tasks;
        final TailIntegrals tail = this.tail;
        final Dispatcher dispatcher = this.dispatcher;
        final int capacity = this.capacity;
        final double mu = this.mu;
        final double inverseMu = this.inverseMu;
        for (;;) {
            final double checkpointTime = nextCheckpoint;
            final double bound = arrivalBound;
            double now = t;
            long events = this.events;
            long arrivals = this.arrivals;
            long idleArrivals = this.idleArrivals;
            long blocked = this.blocked;
            double next = pending;
            while (next < checkpointTime) {
                now = next;
                final int m = tasks.size();
                final double total = bound + mu * m;
                final double u = rng.nextDouble() * total;
                if (u < bound) {
                    if (!constantRate) {
                        t = now;
                        if (!acceptCandidate()) {
                            next = now + exp1.sample() / total;
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
                        next = now + exp1.sample() / total;
                        continue;
                    }
                    if (k == 0) {
                        idleArrivals++;
                    }
                    tail.beforeUp(k + 1, now);
                    occ.up(p);
                    tasks.add(p);
                    dispatcher.onArrival(p, k + 1, now);
                } else {
                    final int i = (int) ((u - bound) * inverseMu);
                    final int p = tasks.removeAt(i < m ? i : m - 1);
                    final int k = occ.level(p);
                    events++;
                    tail.beforeDown(k, now);
                    occ.down(p);
                    dispatcher.onDeparture(p, k - 1, now);
                }
                next = now + exp1.sample() / (bound + mu * tasks.size());
            }
            pending = next;
            t = now;
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
