package org.mflb.validation;

import org.mflb.core.model.InitialState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationScenario;

/**
 * The simulation of a load-balancing model, as the catalogue runs it next to the model's fluid limit:
 * a scenario states its {@link LoadBalancingModel} once, and the fluid model
 * ({@code FluidModel.of(model)}, or its {@code N → ∞} limit) and the simulated system of {@code N}
 * servers are both built from it. Only the model's parameters cross over: the simulator runs the real
 * dispatching algorithm and never sees a fluid model's rates.
 */
public final class SimulationOf {

    private SimulationOf() {
    }

    /**
     * @param model the system, policy, arrival rate and service law
     * @param servers number of servers (pools) {@code N}
     * @return a scenario builder with the model and {@code N} set
     */
    public static ScenarioBuilder scenario(LoadBalancingModel model, int servers) {
        return SimulationScenario.builder().model(model).servers(servers);
    }

    /**
     * @param initial the fluid's initial state
     * @param tail the fluid transient's tail vector {@code (1, x_1, ...)} at its start (used for the
     *        fixed point, which only the fluid model can resolve)
     * @return the same initial state for the simulator, which rounds it to whole jobs per server
     */
    public static InitialState initialState(InitialState initial, double[] tail) {
        return initial.kind() == InitialState.Kind.FIXED_POINT ? InitialState.tail(tail) : initial;
    }
}
