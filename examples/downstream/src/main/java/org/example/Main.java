package org.example;

import java.util.Locale;

import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;

/**
 * mflb used from a project of one's own: SQ(2) with N = 20 single-server queues at λ = 0.9, its
 * fluid fixed point (checked against the closed form x_i = λ^(2^i − 1)), the refined mean field
 * E[Q] ≈ Σx_i + V/N (+ A/N²) at N = 20, and a short simulation of the real 20-server system.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        double lambda = 0.9;
        int n = 20;

        // the model, stated once: the fluid limit and the simulator are both built from it
        LoadBalancingModel sq2 = LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.powerOfD(2), lambda);
        FluidFixedPoint pi = FluidModel.of(sq2).fixedPoint();
        double[] tail = pi.tail();
        for (int i = 1; i < 6; i++) {
            double closedForm = Math.pow(lambda, Math.pow(2, i) - 1);
            if (Math.abs(tail[i] - closedForm) > 1e-12) {
                throw new AssertionError("x_" + i + " = " + tail[i] + ", closed form " + closedForm);
            }
        }
        System.out.printf(Locale.ROOT, "fixed point: E[Q] = %.10f (x_1 = %.6f, x_2 = %.6f, residual %.1e)%n",
                pi.meanQueueLength(), tail[1], tail[2], pi.residual());

        SteadyStateExpansion refined = new RefinedMeanField(2).steadyState(pi.smoothDrift().orElseThrow(), pi.levels());
        System.out.printf(Locale.ROOT, "refined at N = %d: E[Q] = %.10f (1/N), %.10f (1/N^2)%n", n,
                refined.meanTotal(n, 1), refined.meanTotal(n, 2));

        // SQ(2) samples with replacement (Policy.powerOfD), the law the fluid limit and its expansion are for.
        SimulationResult sim = Simulator.run(SimulationScenario.builder().model(sq2).servers(n)
                .tEnd(2000).replications(4).seed(42).build());
        System.out.printf(Locale.ROOT, "simulation at N = %d: E[Q] = %.10f, 95%% CI [%.10f, %.10f]%n", n,
                sim.meanQueueLength().mean(), sim.meanQueueLength().ci95Low(), sim.meanQueueLength().ci95High());
    }
}
