package org.mflb.simulation.engine;

import java.util.List;

import org.mflb.simulation.dispatch.LevelJump;

/**
 * Everything one replication produced.
 *
 * @param index replication number {@code r}
 * @param units its units of observation, in time order
 * @param snapshots tail vector {@code x(t_k)} at each grid time (row k: {@code x_0..x_H})
 * @param events number of simulated events (arrivals, blocked ones included, and departures) on [0, T];
 *        on the workload engine, which has no departure events, the jobs
 * @param jumps the dispatcher's level trace
 * @param engine the engine that ran it
 */
public record ReplicationResult(int index, List<UnitResult> units, double[][] snapshots, long events,
        List<LevelJump> jumps, org.mflb.simulation.Engine engine) {
}
