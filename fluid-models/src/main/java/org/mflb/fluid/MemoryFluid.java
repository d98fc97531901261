package org.mflb.fluid;

import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.memory.MemoryModel;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.Regime;

/**
 * The fixed point and transients of a {@link FluidModel} whose policy is SQ(d) with memory
 * ({@link MemoryPolicy}, docs/models.md §1a): the model's {@link MemoryModel}, whose state is the
 * (queue, observation) pair; its own results are in {@code memory()} of the fixed point and transient.
 */
final class MemoryFluid implements FluidSolver {

    private final FluidModel model;
    private final MemoryPolicy policy;
    private final MemoryModel memory;

    /**
     * @param model the fluid model solved
     * @param policy its policy
     * @throws MflbException naming {@code system} unless the servers are single-server queues
     */
    MemoryFluid(FluidModel model, MemoryPolicy policy) {
        this.model = model;
        this.policy = policy;
        this.memory = MemoryModel.of(model.system(), policy, model.arrivalRate()).withTruncation(model.truncation())
                .withIntegratorSettings(model.integrator());
    }

    @Override
    public FluidModel model() {
        return model;
    }

    @Override
    public FluidFixedPoint fixedPoint(double rate) {
        return FluidFixedPoint.memory(memory.fixedPoint());
    }

    @Override
    public FluidTransient transientFrom(InitialState initial, TimeGrid grid) {
        return FluidTransient.memory(memory.transientFrom(initial, grid));
    }

    @Override
    public FluidTransient transientFrom(MemoryState initial, TimeGrid grid) {
        return FluidTransient.memory(memory.transientFrom(initial, grid));
    }

    /**
     * @throws MflbException always: where arrivals go follows from the (queue, observation) state,
     *         not from the tail vector (the response times below take it from the results)
     */
    @Override
    public ArrivalShares arrivalShares(Regime regime) {
        throw MflbException.invalid("policy", policy.name(), "a policy whose arrival shares follow from the tail vector"
                + " (SQ(d) with memory: from the (queue, observation) state of its own results)");
    }

    /** @return the law of the shares of arrivals at the tagged-server fixed point ({@code memory().joinShares()}) */
    @Override
    public FluidResponseTime responseTime(FluidFixedPoint fixedPoint) {
        return FluidResponseTime.ofShares(model.system(), fixedPoint.memory().orElseThrow().joinShares());
    }

    @Override
    public FluidResponseTime responseTime(FluidTransient transient_, int k) {
        return FluidResponseTime.ofShares(model.system(), transient_.memory().orElseThrow().joinShares(k));
    }

    @Override
    public FluidResponseTime responseTime(FluidTransient transient_, double t) {
        return FluidResponseTime.ofShares(model.system(), transient_.memory().orElseThrow().joinShares(t));
    }
}
