package org.mflb.simulation.engine;

import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.Engine;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.dispatch.DispatchContext;
import org.mflb.simulation.dispatch.Dispatcher;
import org.mflb.simulation.dispatch.LevelJump;
import org.mflb.simulation.dispatch.PolicyStatistics;
import org.mflb.simulation.state.LevelSets;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * The agent engine's common state: every server's level in a {@link LevelSets} and the dispatcher's
 * own algorithm and data structures ({@link Dispatcher}), which the event loops of the four
 * subclasses (queues or pools, exponential or general service) drive.
 */
abstract class AgentReplication extends Replication {

    final LevelSets occ;
    final Dispatcher dispatcher;

    AgentReplication(SimulationScenario scenario, int index, UniformRandomProvider rng, boolean perJobTimes,
            boolean conditionalTimes) {
        this(scenario, index, rng, new LevelSets(scenario.initialLevels(),
                scenario.policyImplementation().needsLevelOrder(), scenario.classLayout()), perJobTimes,
                conditionalTimes);
    }

    private AgentReplication(SimulationScenario scenario, int index, UniformRandomProvider rng, LevelSets occ,
            boolean perJobTimes, boolean conditionalTimes) {
        super(scenario, index, rng, occ, perJobTimes, conditionalTimes);
        this.occ = occ;
        this.dispatcher = scenario.policyImplementation().createDispatcher(new DispatchContext(scenario, occ, rng));
    }

    @Override
    final Engine engine() {
        return Engine.AGENT;
    }

    @Override
    final void startPolicyMeasurement(double t) {
        dispatcher.startMeasurement(t);
    }

    @Override
    final void endPolicyUnit(double t, long arrivals, PolicyStatistics out) {
        dispatcher.endUnit(t, arrivals, out);
    }

    @Override
    final List<LevelJump> policyJumps() {
        return dispatcher.jumps();
    }

    @Override
    int[] classTailCounts() {
        ServerClassLayout layout = occ.layout();
        int classes = layout.count();
        int[] counts = new int[(occ.highestLevel() + 1) * classes];
        for (int k = 0; k < classes; k++) {
            for (int s = layout.start(k); s < layout.end(k); s++) {
                // server s counts in c_{k,i} for every i ≤ its level
                for (int i = occ.level(s); i >= 1; i--) {
                    counts[i * classes + k]++;
                }
            }
        }
        return counts;
    }
}
