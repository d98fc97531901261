package org.mflb.fluid;

import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.nonsmooth.Regime;

/**
 * How the fixed point and the transients of a {@link FluidModel} are computed: one implementation
 * per family of {@link FluidPolicy}, chosen by {@link FluidPolicy#match} — {@link SmoothFluid} (one
 * smooth ODE on the tail vector, docs/models.md §1–2), {@link SwitchedFluid} (smooth pieces between
 * switching surfaces, §3) and {@link MemoryFluid} (the (queue, observation) state, §1a). What a
 * family cannot do is refused with the parameter that asked for it.
 */
sealed interface FluidSolver permits SmoothFluid, SwitchedFluid, MemoryFluid {

    /**
     * @param rate the constant arrival rate, at which the system is stable
     * @return the stable fixed point
     */
    FluidFixedPoint fixedPoint(double rate);

    /**
     * @param initial initial state
     * @param grid output times
     * @return the transient
     */
    FluidTransient transientFrom(InitialState initial, TimeGrid grid);

    /**
     * @param initial a (queue, observation) state
     * @param grid output times
     * @return the transient of SQ(d) with memory
     * @throws MflbException naming {@code init} unless the policy is SQ(d) with memory
     */
    default FluidTransient transientFrom(MemoryState initial, TimeGrid grid) {
        throw MflbException.invalid("init", "a (queue, observation) state", "given only with the policy SQ(d) with memory");
    }

    /**
     * Where arrivals go at a tail vector (docs/models.md §7).
     *
     * @param regime the piece in force (non-smooth policies), or null: the piece the policy puts in
     *        force at the state
     * @return the arrival shares
     */
    ArrivalShares arrivalShares(Regime regime);

    /**
     * @param fixedPoint the model's fixed point
     * @return the stationary response-time law (docs/models.md §7): where arrivals go at the fixed point
     */
    default FluidResponseTime responseTime(FluidFixedPoint fixedPoint) {
        return FluidResponseTime.of(model().system(), arrivalShares(null), model().arrivalRate().at(0), fixedPoint.levels());
    }

    /**
     * @param transient_ a transient of the model
     * @param k grid index
     * @return the response-time law of a job arriving at grid time {@code k}: where arrivals go under
     *         the piece in force there (non-smooth policies)
     */
    default FluidResponseTime responseTime(FluidTransient transient_, int k) {
        Regime regime = transient_.regimes().map(h -> h.regime(k)).orElse(null);
        return FluidResponseTime.of(model().system(), arrivalShares(regime), model().arrivalRate().at(transient_.grid().time(k)),
                transient_.state(k));
    }

    /**
     * @param transient_ a transient of the model
     * @param t a time of its span
     * @return the response-time law of a job arriving at {@code t}: where arrivals go at
     *         {@link FluidTransient#stateAt}, under the piece the policy puts in force there
     */
    default FluidResponseTime responseTime(FluidTransient transient_, double t) {
        return FluidResponseTime.of(model().system(), arrivalShares(null), model().arrivalRate().at(t), transient_.stateAt(t));
    }

    /**
     * @param levels the number of levels {@code K}
     * @return the smooth drift with {@code K} levels
     * @throws MflbException naming {@code policy} unless the drift is smooth
     */
    default TailModel withLevels(int levels) {
        throw MflbException.invalid("policy", model().policy().name(), "a policy with a smooth drift (random or SQ(d))");
    }

    /** @return the model solved */
    FluidModel model();
}
