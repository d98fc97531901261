package org.mflb.fluid;

import org.mflb.core.MflbException;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

/**
 * A dispatching policy with a fluid (mean-field) limit: what {@link FluidModel#of} takes, whatever
 * the drift. Three families implement it, each closed:
 * <pre>
 *   FluidPolicy
 *   ├── SmoothRouting     (sealed)  RandomRouting, PowerOfD           h(x_k): one smooth ODE, docs/models.md §1–2
 *   ├── NonSmoothPolicy   (sealed)  JoinShortestQueue, ThresholdPolicy (JIQ: ℓ = 0), AdaptiveThreshold
 *   │                                                                 smooth pieces between surfaces, §3
 *   └── MemoryPolicy      (record)  SQ(d) with memory                 (queue, observation) state, §1a
 * </pre>
 * {@link SmoothRouting} has a smooth drift, solved by Newton and integrated as one ODE, with refined
 * mean-field expansions; {@link NonSmoothPolicy} a drift that switches between smooth pieces on
 * surfaces, solved exactly on them, never smoothed; {@link MemoryPolicy} is non-smooth too, on the
 * (queue, observation) state of {@link org.mflb.fluid.memory.MemoryModel}.
 * <p>
 * What depends on the family is reached through {@link #match(Cases)}, exhaustive: a new family is a
 * new case, which every caller must then handle. The families live in three packages, so the
 * interface itself cannot carry the {@code sealed} modifier outside a named module (JLS §9.1.1.4);
 * {@link #match(Cases)} closes it instead: an implementation can only answer with one of the three
 * cases, whose argument types are sealed or final, so no fourth family reaches a solver.
 */
public interface FluidPolicy {

    /**
     * One method per family of fluid policy: what a caller does with each (e.g. {@link FluidModel}
     * builds the solver of the family).
     *
     * @param <R> the result
     */
    interface Cases<R> {

        /** @return the result for a smooth routing (random, SQ(d)) */
        R smooth(SmoothRouting routing);

        /** @return the result for a piecewise-smooth policy (JSQ, JIQ, threshold, self-learning threshold) */
        R nonSmooth(NonSmoothPolicy rule);

        /** @return the result for SQ(d) with memory */
        R memory(MemoryPolicy memory);
    }

    /**
     * @param cases what to do with each family
     * @param <R> the result
     * @return the result of the case of this policy's family
     */
    <R> R match(Cases<R> cases);

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
                // speed-weighted sampling of servers of one speed is uniform sampling with replacement
                if (p.sampling() == Sampling.REPLACEMENT || p.sampling() == Sampling.SPEED) {
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

            @Override
            public FluidPolicy shortestExpectedDelay(Policy.ShortestExpectedDelay p) {
                // servers of one speed: the smallest (Q+1)/s is the shortest queue (docs/models.md §10)
                return powerOfD(new Policy.PowerOfD(p.d(), p.sampling()));
            }

            @Override
            public FluidPolicy leastLoaded(Policy.LeastLoaded p) {
                throw MflbException.invalid("policy", p.id(), "a queue-length policy for the tail-vector fluid"
                        + " models; LL(d) reads workloads: its limit is the workload equation (org.mflb.pde.workload)");
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
