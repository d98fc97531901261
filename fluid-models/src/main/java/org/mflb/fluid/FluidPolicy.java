package org.mflb.fluid;

/**
 * A dispatching policy with a fluid (mean-field) limit: what {@link FluidModel#of} takes, whatever
 * the drift. Two families implement it: {@link SmoothRouting} (random routing, SQ(d): a smooth drift,
 * solved by Newton and integrated as one ODE, with refined mean-field expansions), and
 * {@link org.mflb.fluid.nonsmooth.NonSmoothPolicy} (JSQ, JIQ, threshold, self-learning threshold:
 * a drift that switches between smooth pieces on surfaces, solved exactly on them, never smoothed;
 * docs/models.md §3). {@link org.mflb.fluid.memory.MemoryPolicy} (SQ(d) with memory, docs/models.md
 * §1a) is non-smooth too, on the (queue, observation) state of {@link org.mflb.fluid.memory.MemoryModel}.
 */
public interface FluidPolicy {

    /** @return whether the drift is smooth ({@link SmoothRouting}) rather than piecewise smooth */
    boolean isSmooth();

    /**
     * @return whether the policy depends on the number of servers {@code N} (SQ(d) with distinct
     *         servers); false by default
     */
    default boolean dependsOnSize() {
        return false;
    }

    /** @return the {@code N → ∞} limit of the policy: itself unless {@link #dependsOnSize()} */
    default FluidPolicy limit() {
        return this;
    }

    /** @return a short description, e.g. {@code SQ(2)} or {@code threshold(2)} */
    String name();
}
