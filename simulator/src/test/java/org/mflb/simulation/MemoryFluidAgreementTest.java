package org.mflb.simulation;

import static org.mflb.simulation.TestModels.queues;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.memory.MemoryFixedPoint;
import org.mflb.fluid.memory.MemoryModel;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.memory.MemoryTransient;

/**
 * The simulated dispatcher with memory against the memory fluid (docs/models.md §1a): stationary
 * tail, share of jobs to idle servers and to servers believed idle, with and without replacement,
 * and a transient from stale memory (idle servers believed loaded, set through the scenario's
 * initial observations). Slack per estimate: 0.1/√N, the finite-N allowance of the non-smooth limits
 * (the validation catalogue's; at N = 10⁴ and 10⁵ the measured errors were within the 95% intervals).
 */
class MemoryFluidAgreementTest {

    private static final int N = 2000;
    private static final double SLACK = 0.1 / Math.sqrt(N);

    private static MemoryModel fluid(int d, double lambda) {
        return MemoryModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(d), lambda);
    }

    @Test
    void simulatedDispatcherWithMemoryAgreesWithItsFluidLimit() {
        // 3 joint checks (two stationary runs, one transient), each missing with probability at most
        // p = 0.01/3: none allowed, false alarm <= 3 x 0.33% = 1% (union bound)
        CiChecks checks = new CiChecks(0.01 / 3);
        int[] ds = {2, 3};
        double[] loads = {0.9, 0.8};
        Sampling[] samplings = {Sampling.DISTINCT, Sampling.REPLACEMENT};
        for (int c = 0; c < 2; c++) {
            MemoryFixedPoint fp = fluid(ds[c], loads[c]).fixedPoint();
            SimulationResult r = Simulator.run(SimulationScenario.builder()
                    .model(queues(new Policy.Memory(ds[c], samplings[c]), loads[c])).servers(N).tEnd(2200).warmup(200)
                    .seed(41 + c).build());
            double[] x = fp.levels();
            CiChecks.Joint joint = checks.joint("d = " + ds[c] + " " + samplings[c].id())
                    .levels(r.tail(), 1, x, SLACK)
                    .add("idle share", r.idleArrivalFraction(), fp.idleShare(), SLACK)
                    .add("believed-idle share", r.policyStatistics().get("believedIdleShare"), fp.believedIdleShare(), SLACK);
            joint.check();
            int beyond = fp.maxQueueLength() + 1;
            double above = beyond < r.tail().size() ? r.tail().get(beyond).mean() : 0.0;
            checks.require("x_" + beyond + " = " + above + " <= 1e-3 (queues bounded by " + fp.maxQueueLength() + ")",
                    above <= 1e-3);
        }
        MemoryState stale = MemoryState.parse("memory:0/3=0.5,3/3=0.5");
        double tEnd = 10;
        MemoryTransient tr = fluid(2, 0.85).transientFrom(stale, TimeGrid.uniform(tEnd, 1));
        SimulationResult r = Simulator.run(SimulationScenario.builder()
                .model(queues(new Policy.Memory(2, Sampling.DISTINCT), 0.85)).servers(N).tEnd(tEnd).dt(1)
                .replications(10).seed(43)
                .initialMemory(stale).build());
        CiChecks.Joint joint = checks.joint("stale memory");
        for (int k = 1; k < r.times().length; k++) {
            double[] x = tr.levels(k);
            VectorEstimate at = r.tailTrajectory().get(k);
            for (int i = 1; i <= x.length && i < at.size(); i++) {
                joint.add("x_" + i + "(t=" + r.times()[k] + ")", at.get(i), x[i - 1], SLACK);
            }
        }
        joint.check();
        checks.assertAtMostMisses(0);
    }
}
