package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.state.Occupancy;

/**
 * What a dispatcher of one replication is built from.
 *
 * @param scenario the scenario being run (the policy's own parameters come with the policy: see
 *        {@link PolicyImplementation})
 * @param occupancy read-only view of the true occupancy of the servers
 * @param rng the replication's random stream
 */
public record DispatchContext(SimulationScenario scenario, Occupancy occupancy, UniformRandomProvider rng) {
}
