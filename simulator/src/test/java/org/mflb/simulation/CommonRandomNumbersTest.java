package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.loss;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.system.Policy;

/**
 * Common random numbers: the sample path depends on the seed and the model only, never on the
 * observation schedule (grid step, horizon, warm-up, batches). Two runs with the same seed therefore
 * give bit-identical tail vectors at every grid time they share, on every engine.
 */
class CommonRandomNumbersTest {

    private static SimulationResult run(ScenarioBuilder b, Engine engine, double tEnd, double dt) {
        return Simulator.run(b.engine(engine).tEnd(tEnd).dt(dt).warmup(0).build());
    }

    private static void sameWhereGridsOverlap(SimulationResult a, SimulationResult b, String label) {
        double[] ta = a.times();
        double[] tb = b.times();
        int shared = 0;
        for (int i = 0; i < ta.length; i++) {
            for (int j = 0; j < tb.length; j++) {
                if (ta[i] == tb[j]) {
                    double[] xa = a.tailTrajectory().get(i).mean();
                    double[] xb = b.tailTrajectory().get(j).mean();
                    int len = Math.max(xa.length, xb.length);
                    assertArrayEquals(java.util.Arrays.copyOf(xa, len), java.util.Arrays.copyOf(xb, len),
                            label + " at t = " + ta[i]);
                    shared++;
                }
            }
        }
        assertTrue(shared >= 5, label + ": too few shared grid times");
    }

    @Test
    void longerRunsAndFinerGridsExtendTheSamePath() {
        // the case of the issue: seed 4, SQ(2), N = 100, lambda = 0.9, t-end 100 vs 200, dt 10 (and dt 5)
        ScenarioBuilder sq2 = SimulationScenario.builder().model(queues(Policy.powerOfD(2), 0.9))
                .servers(100)
                .seed(4).threads(1);
        // pools with a time-varying rate: thinning windows start at fixed times, so they are shared too
        ScenarioBuilder varying = SimulationScenario.builder()
                .model(loss(4, Policy.jsq(), (ArrivalRate) t -> 2 + Math.sin(t))).servers(50).seed(5)
                .replications(2).threads(1);
        ScenarioBuilder general = SimulationScenario.builder().model(queues(Policy.powerOfD(2), 0.8)
                .withService(TestDistributions.h2(3))).servers(60).seed(6).threads(1);
        Object[][] cases = {{"SQ(2)", sq2, Engine.AGENT}, {"SQ(2)", sq2, Engine.OCCUPANCY},
            {"loss JSQ, varying rate", varying, Engine.AGENT}, {"loss JSQ, varying rate", varying, Engine.OCCUPANCY},
            {"SQ(2) H2 service", general, Engine.AGENT}};
        for (Object[] c : cases) {
            ScenarioBuilder b = (ScenarioBuilder) c[1];
            Engine engine = (Engine) c[2];
            String label = c[0] + " (" + engine.cliName() + ")";
            SimulationResult shortRun = run(b, engine, 100, 10);
            SimulationResult longRun = run(b, engine, 200, 10);
            SimulationResult fineGrid = run(b, engine, 150, 5);
            sameWhereGridsOverlap(shortRun, longRun, label + ", t-end 100 vs 200");
            sameWhereGridsOverlap(shortRun, fineGrid, label + ", dt 10 vs 5");
        }
    }
}
