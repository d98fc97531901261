package org.mflb.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.InitialState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.core.system.ServerSystem;
import org.mflb.simulation.Engine;
import org.mflb.simulation.SimulationScenario;

/**
 * The occupancy engine with server classes keeps every server's level in a table up to 2^16 servers
 * and searches the class counts beyond: the two ways must be one chain. Where both make the same
 * choice from the same draws (SED(d) with iid or distinct draws, speed-weighted SQ(d)) the outputs are
 * identical, event for event; speed-blind SQ(d), whose two ways pick a different one of the tied
 * samples, agrees in law (per-class mean queue lengths within their batch-means intervals). After each
 * run the table still holds {@code L_k(r) = max{l : c_{k,l} > r}} for every server.
 */
class LevelTableTest {

    /** a = (0.3, 0.3, 0.4), s = (1.5, 1, 0.625): the benchmark's classes, C = 1. */
    private static final ServerClasses THREE = ServerClasses.parse("0.3:1.5,0.3:1,0.4:0.625");

    private static SimulationScenario scenario(Policy policy, double lambda, int n, double tEnd, long seed) {
        LoadBalancingModel model = LoadBalancingModel.of(ServerSystem.singleServerQueues(), policy, lambda)
                .withClasses(THREE);
        return SimulationScenario.builder().model(model).servers(n).tEnd(tEnd).warmup(tEnd / 10).threads(1)
                .seed(seed).engine(Engine.OCCUPANCY).build();
    }

    private static ReplicationResult run(SimulationScenario scenario, boolean table) {
        OccupancyClassReplication r = new OccupancyClassReplication(scenario, 0,
                ReplicationStreams.create(scenario.run().seed(), 0), table);
        ReplicationResult out = r.run();
        assertTrue(r.levelTableAgreesWithCounts(), "the level table follows the counts");
        return out;
    }

    @Test
    void sameChoicesGiveTheSameRunWithAndWithoutTheTable() {
        List<Policy> policies = List.of(new Policy.ShortestExpectedDelay(2, Sampling.REPLACEMENT),
                new Policy.ShortestExpectedDelay(3, Sampling.DISTINCT), new Policy.ShortestExpectedDelay(2, Sampling.SPEED),
                new Policy.PowerOfD(2, Sampling.SPEED));
        for (Policy policy : policies) {
            SimulationScenario s = scenario(policy, 0.9, 300, 400, 11);
            ReplicationResult withTable = run(s, true);
            ReplicationResult withSearch = run(s, false);
            assertEquals(withSearch.events(), withTable.events(), policy.toString());
            assertTrue(withTable.events() > 100_000, "a run long enough to reach high levels");
            assertEquals(withSearch.units().size(), withTable.units().size());
            for (int u = 0; u < withTable.units().size(); u++) {
                UnitResult a = withTable.units().get(u);
                UnitResult b = withSearch.units().get(u);
                assertArrayEquals(b.classQueueLengths(), a.classQueueLengths(), 0, policy + " unit " + u);
                assertArrayEquals(b.tail(), a.tail(), 0, policy + " unit " + u);
                assertEquals(b.meanResponse(), a.meanResponse(), 0, policy + " unit " + u);
            }
        }
    }

    @Test
    void speedBlindSquareOfDAgreesInLawWithAndWithoutTheTable() {
        for (int d = 2; d <= 3; d++) {
            SimulationScenario s = scenario(new Policy.PowerOfD(d, Sampling.REPLACEMENT), 0.9, 400, 3000, 5);
            ReplicationResult withTable = run(s, true);
            ReplicationResult withSearch = run(s.toBuilder().seed(6).build(), false);
            for (int k = 0; k < 3; k++) {
                double[] a = classMeans(withTable, k);
                double[] b = classMeans(withSearch, k);
                double gap = Math.abs(a[0] - b[0]);
                double se = Math.sqrt(a[1] + b[1]);
                // 4 standard errors of the difference: a false alarm once in ~16 000 runs
                assertTrue(gap < 4 * se, "SQ(" + d + ") class " + k + ": " + a[0] + " vs " + b[0] + " (se " + se + ")");
                assertTrue(se < 0.02 * a[0], "intervals narrow enough to see a wrong law: se " + se);
            }
        }
    }

    @Test
    void classCountsGrowPastTheirFirstLength() {
        // every server starts with 100 jobs, so the class counts first hold 128 levels; under random
        // routing at λ = 0.6 a slow server (speed 0.625, load 0.96) drifts down by only 0.025 a unit of
        // time against fluctuations of ±√(1.2 t), so that some of them pass level 126: the counts are
        // laid out again, and searched far beyond the counted levels, with the table and without
        LoadBalancingModel model = LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.random(), 0.6)
                .withClasses(THREE);
        SimulationScenario s = SimulationScenario.builder().model(model).servers(300).tEnd(800).warmup(200).threads(1)
                .seed(3).initialState(InitialState.all(100)).engine(Engine.OCCUPANCY).build();
        for (boolean table : new boolean[] {true, false}) {
            ReplicationResult r = run(s, table); // the counts of all servers stay the sums of the classes'
            int highest = 0;
            for (UnitResult u : r.units()) {
                highest = Math.max(highest, u.tail().length - 1);
            }
            assertTrue(highest > 127, "a slow server reaches level " + highest);
            // a class-0 server (speed 1.5) is an M/M/1 queue of load 0.4 whatever the others do: ρ/(1 − ρ) = 2/3
            double[] fast = classMeans(r, 0);
            double se = Math.sqrt(fast[1]);
            assertTrue(Math.abs(fast[0] - 2.0 / 3) < 4 * se, "class 0: " + fast[0] + " (se " + se + "), table " + table);
            assertTrue(se < 0.03 * 2 / 3, "intervals narrow enough to see a wrong law: se " + se);
        }
    }

    /** @return the mean over the units of class k's mean queue length, and the variance of that mean */
    private static double[] classMeans(ReplicationResult r, int k) {
        List<UnitResult> units = r.units();
        int m = units.size();
        double sum = 0;
        double squares = 0;
        for (UnitResult u : units) {
            double x = u.classQueueLengths()[k];
            sum += x;
            squares += x * x;
        }
        double mean = sum / m;
        double variance = (squares - m * mean * mean) / (m - 1);
        return new double[] {mean, variance / m};
    }
}
