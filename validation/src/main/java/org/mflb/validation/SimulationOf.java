package org.mflb.validation;

import org.mflb.core.model.InitialState;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.SmoothRouting;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.AdaptiveThreshold;
import org.mflb.fluid.nonsmooth.JoinShortestQueue;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;
import org.mflb.fluid.nonsmooth.ThresholdPolicy;
import org.mflb.simulation.Policy;
import org.mflb.simulation.Sampling;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.SystemKind;

/**
 * The simulated counterpart of a fluid model: the same system, the real dispatching algorithm
 * (SQ(d) samples {@code d} distinct servers unless the caller sets {@link #sampling(FluidModel)};
 * JSQ, JIQ and the threshold policies with their threshold and {@code α}), the same arrival rate. Only parameters cross over;
 * the simulator never sees the fluid model's rates.
 */
public final class SimulationOf {

    private SimulationOf() {
    }

    /**
     * @param fluid the fluid model, any policy
     * @param servers number of servers (pools) {@code N}
     * @return a scenario builder with system, policy (with {@code d}, its threshold and {@code α}),
     *         capacity, arrival rate and {@code N} set
     */
    public static SimulationScenario.Builder scenario(FluidModel fluid, int servers) {
        if (fluid.policy() instanceof NonSmoothPolicy policy) {
            return nonSmooth(fluid, policy, servers);
        }
        if (fluid.policy() instanceof MemoryPolicy memory) {
            // the real dispatcher with memory, d distinct servers (set sampling() for the other scheme)
            return SimulationScenario.builder().system(SystemKind.SUPERMARKET).policy(Policy.MEMORY).d(memory.d())
                    .sampling(Sampling.DISTINCT).servers(servers).arrivalRate(fluid.arrivalRate());
        }
        ServerSystem system = fluid.system();
        SmoothRouting routing = (SmoothRouting) fluid.policy();
        SimulationScenario.Builder builder = SimulationScenario.builder()
                .system(kind(system))
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
     * @param fluid the fluid model, any policy
     * @return how the simulated dispatcher samples to run the system {@code fluid} describes exactly:
     *         {@code d} distinct servers for {@link PowerOfD#distinct} (its finite-N drift is that
     *         algorithm's), with replacement otherwise (the law of the {@code x^d} drift; irrelevant
     *         to the policies that sample no servers)
     */
    public static Sampling sampling(FluidModel fluid) {
        return fluid.policy() instanceof PowerOfD p && p.sampling() == PowerOfD.Sampling.DISTINCT
                ? Sampling.DISTINCT : Sampling.REPLACEMENT;
    }

    /** JSQ, JIQ, threshold or self-learning threshold, with its threshold and {@code α}. */
    private static SimulationScenario.Builder nonSmooth(FluidModel fluid, NonSmoothPolicy policy, int servers) {
        SimulationScenario.Builder builder = SimulationScenario.builder()
                .system(kind(fluid.system()))
                .servers(servers)
                .arrivalRate(fluid.arrivalRate());
        if (policy instanceof JoinShortestQueue) {
            return builder.policy(Policy.JSQ);
        }
        if (policy instanceof AdaptiveThreshold a) {
            return builder.policy(Policy.ADAPTIVE_THRESHOLD).alpha(a.alpha()).threshold(a.initialThreshold());
        }
        int threshold = ((ThresholdPolicy) policy).threshold();
        // threshold 0 is JIQ (ThresholdPolicy): the simulator's own JIQ dispatcher
        return threshold == 0 ? builder.policy(Policy.JIQ) : builder.policy(Policy.THRESHOLD).threshold(threshold);
    }

    private static SystemKind kind(ServerSystem system) {
        return switch (system.kind()) {
            case SUPERMARKET -> SystemKind.SUPERMARKET;
            case POOLS -> SystemKind.POOLS;
            case LOSS -> SystemKind.LOSS;
        };
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
