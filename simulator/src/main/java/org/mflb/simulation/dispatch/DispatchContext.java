package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.state.Occupancy;

/**
 * What a dispatcher of one replication is built from.
 *
 * @param scenario the run's parameters (policy, d, sampling, threshold, ...)
 * @param occupancy read-only view of the true occupancy of the servers
 * @param rng the replication's random stream
 */
public record DispatchContext(SimulationScenario scenario, Occupancy occupancy, UniformRandomProvider rng) {
}
