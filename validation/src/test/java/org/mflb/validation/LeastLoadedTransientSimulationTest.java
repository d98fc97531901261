package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;
import org.mflb.pde.workload.WorkloadInitialState;
import org.mflb.pde.workload.WorkloadTransient;
import org.mflb.pde.workload.WorkloadTransport;
import org.mflb.simulation.CiChecks;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.Simulator;
import org.mflb.simulation.VectorEstimate;

/**
 * The LL(d) workload transport equation (docs/models.md §11) against the workload engine: from
 * empty servers, the busy fraction {@code F̄(t, 0+)} of the transient against the simulated
 * N-server system at each grid time, one joint check (miss probability 1%) with an allowance
 * of {@code 5/N} for the O(1/N) distance of the finite system to its limit.
 */
class LeastLoadedTransientSimulationTest {

    @Test
    void busyFractionFollowsTheTransportEquationFromEmpty() {
        int d = 2;
        double lambda = 0.9;
        ServiceDistribution sizes = ServiceDistributions.parse("h2:scv=4");
        TimeGrid grid = TimeGrid.uniform(8, 1);
        WorkloadTransient transport = WorkloadTransport.of(d, lambda, sizes).withRichardson(true)
                .transientFrom(WorkloadInitialState.empty(), grid);
        int n = 2000;
        SimulationResult r = Simulator.run(SimulationOf.scenario(LeastLoadedScenarios.model(d, lambda, sizes), n)
                .tEnd(8).dt(1).warmup(0).replications(16).seed(20_261_202L).threads(2).build());
        double[] times = r.times();
        List<VectorEstimate> tails = r.tailTrajectory();
        assertEquals(grid.size(), times.length);
        CiChecks checks = new CiChecks(0.01);
        CiChecks.Joint joint = checks.joint("LL(2), h2:scv=4, lambda = 0.9, N = 2000: busy fraction from empty");
        for (int k = 1; k < times.length; k++) { // t = 0: both exactly 0
            assertEquals(grid.time(k), times[k], 1e-12);
            joint.add("t = " + times[k], tails.get(k).get(1), transport.busyFraction(k), 5.0 / n);
        }
        joint.check();
        checks.assertAtMostMisses(0);
    }
}
