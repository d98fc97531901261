package org.mflb.simulation.engine;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.state.TaskList;

/**
 * Infinite-server or loss pools with exponential service of rate μ (1 by convention) per task:
 * the fast path. With {@code M} tasks in the system the next event comes after an
 * Exp({@code N·λ̄ + μM}) time; it is an arrival candidate with probability
 * {@code N·λ̄/(N·λ̄ + μM)}, otherwise the completion of a uniformly random task (MODELS.md §2),
 * found in O(1) in the {@link TaskList}. An arrival sent to a pool holding {@code C} tasks is lost.
 */
final class PoolExponential extends Replication {

    private final TaskList tasks;

    private final double mu;
    private final double inverseMu;

    PoolExponential(SimulationScenario scenario, int index, UniformRandomProvider rng) {
        super(scenario, index, rng);
        mu = scenario.exponentialServiceRate();
        inverseMu = 1 / mu;
        tasks = new TaskList(2 * n);
        for (int p = 0; p < n; p++) {
            for (int j = occ.level(p); j > 0; j--) {
                tasks.add(p);
            }
        }
    }

    @Override
    void simulate() {
        for (;;) {
            final int m = tasks.size();
            final double total = arrivalBound + mu * m;
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
                depart(tasks.removeAt(k < m ? k : m - 1));
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
        tasks.add(p);
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
