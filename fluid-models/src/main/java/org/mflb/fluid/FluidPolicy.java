package org.mflb.fluid;

import org.mflb.core.MflbException;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

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

    /**
     * The fluid counterpart of a policy of the model vocabulary.
     *
     * @param policy the dispatching policy
     * @param n the number of servers {@code N} for SQ(d) with distinct sampling (whose drift depends
     *        on it, docs/models.md §7), ignored otherwise
     * @return its fluid policy
     * @throws MflbException naming {@code n} when distinct sampling is asked without a valid {@code N}
     */
    static FluidPolicy of(Policy policy, int n) {
        return policy.match(new Policy.Cases<FluidPolicy>() {
            @Override
            public FluidPolicy random(Policy.Random p) {
                return RandomRouting.INSTANCE;
            }

            @Override
            public FluidPolicy powerOfD(Policy.PowerOfD p) {
                if (p.sampling() == Sampling.REPLACEMENT) {
                    return PowerOfD.withReplacement(p.d());
                }
                if (n <= 0) {
                    throw MflbException.missing("n", "with distinct sampling (the number of servers N of the d-distinct law)");
                }
                return PowerOfD.distinct(p.d(), n);
            }

            @Override
            public FluidPolicy joinShortestQueue(Policy.JoinShortestQueue p) {
                return NonSmoothPolicy.jsq();
            }

            @Override
            public FluidPolicy joinIdleQueue(Policy.JoinIdleQueue p) {
                return NonSmoothPolicy.jiq();
            }

            @Override
            public FluidPolicy threshold(Policy.Threshold p) {
                return NonSmoothPolicy.threshold(p.threshold());
            }

            @Override
            public FluidPolicy adaptiveThreshold(Policy.AdaptiveThreshold p) {
                return NonSmoothPolicy.adaptiveThreshold(p.alpha(), p.initialThreshold());
            }

            @Override
            public FluidPolicy memory(Policy.Memory p) {
                return MemoryPolicy.of(p.d());
            }
        });
    }

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
