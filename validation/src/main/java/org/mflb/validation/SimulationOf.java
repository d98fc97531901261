package org.mflb.validation;

import org.mflb.core.model.InitialState;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.RandomRouting;
import org.mflb.fluid.ServerSystem;
import org.mflb.fluid.SmoothRouting;
import org.mflb.simulation.Policy;
import org.mflb.simulation.Sampling;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.SystemKind;

/**
 * The simulated counterpart of a fluid model: the same system, the real dispatching algorithm
 * (SQ(d) samples {@code d} distinct servers), the same arrival rate. Only parameters cross over;
 * the simulator never sees the fluid model's rates.
 */
public final class SimulationOf {

    private SimulationOf() {
    }

    /**
     * @param fluid the fluid model
     * @param servers number of servers (pools) {@code N}
     * @return a scenario builder with system, policy, {@code d}, capacity, arrival rate and {@code N} set
     */
    public static SimulationScenario.Builder scenario(FluidModel fluid, int servers) {
        ServerSystem system = fluid.system();
        SmoothRouting routing = fluid.policy();
        SimulationScenario.Builder builder = SimulationScenario.builder()
                .system(switch (system.kind()) {
                    case SUPERMARKET -> SystemKind.SUPERMARKET;
                    case POOLS -> SystemKind.POOLS;
                    case LOSS -> SystemKind.LOSS;
                })
                .policy(routing instanceof RandomRouting ? Policy.RANDOM : Policy.SQD)
                .d(routing.d())
                .sampling(Sampling.DISTINCT)
                .servers(servers)
                .arrivalRate(fluid.arrivalRate());
        if (system.isLossy()) {
            builder.capacity(system.capacity());
        }
        return builder;
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
