package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mflb.simulation.TestModels.queues;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.system.Policy;

/** Replication r draws only from the stream of (seed, r): results do not depend on the number of threads. */
class ReproducibilityTest {

    private static SimulationScenario scenario(long seed, int threads, boolean calendar) {
        return SimulationScenario.builder().model(queues(Policy.powerOfD(2), 0.85)
                .withService(calendar ? TestDistributions.h2(2) : Exponential.unit())).servers(50)
                .eventCalendar(calendar).tEnd(200).warmup(20).dt(20).replications(5)
                .covarianceLevels(3).seed(seed).threads(threads).build();
    }

    @Test
    void sameSeedGivesIdenticalResultsWhateverTheThreadCount() {
        for (boolean calendar : new boolean[] {false, true}) {
            SimulationResult one = Simulator.run(scenario(7, 1, calendar));
            SimulationResult two = Simulator.run(scenario(7, 2, calendar));
            SimulationResult three = Simulator.run(scenario(7, 3, calendar));
            for (SimulationResult other : new SimulationResult[] {two, three}) {
                assertEquals(one.events(), other.events());
                assertArrayEquals(one.tail().mean(), other.tail().mean());
                assertArrayEquals(one.tail().ci95Low(), other.tail().ci95Low());
                assertArrayEquals(one.tail().ci95High(), other.tail().ci95High());
                assertEquals(one.meanQueueLength(), other.meanQueueLength());
                assertEquals(one.meanResponseTime(), other.meanResponseTime());
                assertEquals(one.meanWaitingTime(), other.meanWaitingTime());
                assertEquals(one.idleArrivalFraction(), other.idleArrivalFraction());
                for (int g = 0; g < one.times().length; g++) {
                    assertArrayEquals(one.tailTrajectory().get(g).mean(), other.tailTrajectory().get(g).mean());
                    assertArrayEquals(one.tailTrajectory().get(g).ci95High(), other.tailTrajectory().get(g).ci95High());
                }
                assertArrayEquals(one.covariance().orElseThrow().mean(), other.covariance().orElseThrow().mean());
            }
        }
    }

    @Test
    void differentSeedsGiveDifferentSamples() {
        SimulationResult a = Simulator.run(scenario(7, 1, false));
        SimulationResult b = Simulator.run(scenario(8, 1, false));
        assertFalse(Arrays.equals(a.tail().mean(), b.tail().mean()));
        assertFalse(a.events() == b.events() && a.meanResponseTime().equals(b.meanResponseTime()));
    }

    @Test
    void replicationsDrawFromDistinctStreams() {
        // two replications of one run must differ (a stream shared by mistake would repeat them):
        // some grid value must have a non-degenerate interval
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), 0.5)).servers(20)
                .tEnd(50).dt(5).replications(2).seed(9).build());
        boolean differ = false;
        for (VectorEstimate v : r.tailTrajectory()) {
            differ |= !Arrays.equals(v.ci95Low(), v.ci95High());
        }
        assertTrue(differ, "the two replications followed identical paths");
    }
}
