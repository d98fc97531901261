package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;

import org.mflb.core.model.InitialState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidModel;

/**
 * Validation scenarios of the non-smooth fluid limits (docs/models.md §3, issue 5): the JSQ and JIQ
 * fluid transients, integrated piece by piece with their sliding regimes
 * ({@link FluidModel}), against the simulated {@code N}-server system running the real
 * dispatcher ({@link Policy.JoinShortestQueue}, {@link Policy.JoinIdleQueue}), by {@link NonSmoothVersusSimulation}. Only
 * parameters cross over.
 * <p>
 * Tolerance: 3 CI half-widths plus {@code 0.1/√N}, the {@code 1/√N} bias of the levels that slide
 * at 1 (diffusion scale, [GABL] Theorems 3–4; see {@link NonSmoothVersusSimulation}).
 */
public final class NonSmoothScenarios {

    private NonSmoothScenarios() {
    }

    /** @return the scenarios, in report order */
    public static List<ValidationScenario> scenarios() {
        ServerSystem pools = ServerSystem.infiniteServerPools();
        ServerSystem queues = ServerSystem.singleServerQueues();
        List<ValidationScenario> list = new ArrayList<>();
        list.add(transientRun("jsq-pools-transient", "JSQ in infinite-server pools from empty, lambda = 2.5",
                "JSQ fills one level at a time: level k is full at t = ln(lambda/(lambda - k)) (ln(5/3), ln 5), "
                        + "after which the fluid slides on x_2 = 1 and x_3 -> 0.5 (the balanced state q*).",
                pools, Policy.jsq(), 2.5, InitialState.empty(), 1000, new double[] {6, 10}, 0.5));
        list.add(transientRun("jiq-pools-transient", "JIQ in infinite-server pools from empty, lambda = 1.5",
                "JIQ sends every task to an idle pool until none is left (x_1 = 1 at t = ln 3), then routes "
                        + "the excess at random: the fluid slides on x_1 = 1 towards the birth-death equilibrium "
                        + "with unbounded support.",
                pools, Policy.jiq(), 1.5, InitialState.empty(), 1000, new double[] {6, 10}, 0.5));
        list.add(transientRun("jsq-queues-drain", "JSQ in single-server queues from 2 jobs each, lambda = 0.9",
                "Queues start with 2 jobs each; JSQ keeps them balanced, so while every server is busy the total "
                        + "falls like 2 - 0.1 t and x_2 drains linearly; then x_1 -> 0.9, nothing waits.",
                queues, Policy.jsq(), 0.9, InitialState.all(2), 1000, new double[] {20, 30}, 2));
        list.add(transientRun("jiq-queues-drain", "JIQ in single-server queues from 2 jobs each, lambda = 0.9",
                "Queues start with 2 jobs each; JIQ routes to a random queue while no server is idle, so the "
                        + "queue-length spread grows before the system drains to x_1 = 0.9.",
                queues, Policy.jiq(), 0.9, InitialState.all(2), 1000, new double[] {20, 30}, 2));
        return list;
    }

    /** @return the transient of {@code policy} against the simulated system (see {@link NonSmoothVersusSimulation}) */
    private static ValidationScenario transientRun(String id, String title, String why, ServerSystem system,
            Policy policy, double lambda, InitialState initial, int servers, double[] horizon, double dt) {
        return new NonSmoothVersusSimulation(id, title, why, LoadBalancingModel.of(system, policy, lambda), initial, servers,
                horizon, dt, "the sliding levels");
    }
}
