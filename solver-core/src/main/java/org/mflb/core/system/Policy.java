package org.mflb.core.system;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * A dispatching policy, as the model states it: what the dispatcher does with an arriving job,
 * independently of how a layer computes with it. The fluid models map it to a drift
 * ({@code org.mflb.fluid.FluidPolicy}), the simulator to a dispatcher that runs the algorithm itself
 * ({@code org.mflb.simulation.dispatch}); each does so once, through {@link #match(Cases)}: a
 * {@link Cases} has one method per policy, so a layer that forgets one does not compile (Java 17 has
 * no pattern matching in {@code switch}; this is its exhaustive equivalent over the sealed hierarchy). Every record is immutable and validated at construction, naming the parameter
 * and its valid range (docs/models.md §1–3, §1a).
 */
public sealed interface Policy {

    /**
     * What a layer does with each policy: one method per record of the sealed hierarchy.
     *
     * @param <R> the result
     */
    interface Cases<R> {
        /** @param p random routing @return the result for it */
        R random(Random p);

        /** @param p SQ(d) @return the result for it */
        R powerOfD(PowerOfD p);

        /** @param p JSQ @return the result for it */
        R joinShortestQueue(JoinShortestQueue p);

        /** @param p JIQ @return the result for it */
        R joinIdleQueue(JoinIdleQueue p);

        /** @param p the threshold policy @return the result for it */
        R threshold(Threshold p);

        /** @param p the self-learning threshold @return the result for it */
        R adaptiveThreshold(AdaptiveThreshold p);

        /** @param p SQ(d) with memory @return the result for it */
        R memory(Memory p);

        /** @param p SED(d) @return the result for it */
        R shortestExpectedDelay(ShortestExpectedDelay p);

        /** @param p LL(d) @return the result for it */
        R leastLoaded(LeastLoaded p);
    }

    /**
     * @param cases what to do with each policy
     * @param <R> the result
     * @return the result of the case of this policy
     */
    <R> R match(Cases<R> cases);

    /** @return the policy's name: {@code random}, {@code sqd}, {@code jsq}, ..., {@code adaptive-threshold} */
    String id();

    /** @return the number of servers sampled per arrival; 1 for the policies that sample none or all */
    default int d() {
        return 1;
    }

    /** @return how the {@code d} servers are drawn ({@link Sampling#REPLACEMENT} where none are sampled) */
    default Sampling sampling() {
        return Sampling.REPLACEMENT;
    }

    /** @return whether the policy samples {@code d} servers per arrival (SQ(d) and SQ(d) with memory) */
    default boolean samples() {
        return false;
    }

    /**
     * @return whether the fluid limit is smooth (random routing and SQ(d)); the others switch between
     *         smooth pieces on surfaces (docs/models.md §3, §1a)
     */
    default boolean hasSmoothFluidLimit() {
        return false;
    }

    /**
     * @return whether the policy is defined for servers of different speeds (random, SQ(d), SED(d):
     *         docs/models.md §10)
     */
    default boolean supportsServerClasses() {
        return false;
    }

    /**
     * Checks that the policy is defined for the system: SQ(d) with memory for single-server queues,
     * the threshold policies for infinite-server pools.
     *
     * @param system the servers
     * @throws MflbException naming {@code policy} otherwise
     */
    default void requireSupportedBy(ServerSystem system) {
    }

    /** A uniformly random server: the arrivals split into independent Poisson streams. */
    record Random() implements Policy {
        @Override
        public boolean supportsServerClasses() {
            return true;
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.random(this);
        }

        @Override
        public String id() {
            return "random";
        }

        @Override
        public boolean hasSmoothFluidLimit() {
            return true;
        }
    }

    /**
     * Power of d choices, SQ(d): the server with the fewest jobs among {@code d} sampled, ties uniformly
     * at random ([MIT], [VDK]; docs/models.md §1).
     *
     * @param d servers sampled per arrival, {@code ≥ 1}
     * @param sampling how they are drawn
     */
    record PowerOfD(int d, Sampling sampling) implements Policy {
        @Override
        public boolean supportsServerClasses() {
            return true;
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.powerOfD(this);
        }

        /** Validates {@code d ≥ 1} and a sampling. */
        public PowerOfD {
            Require.atLeast("d", d, 1);
            if (sampling == null) {
                throw MflbException.invalid("sampling", null, "replacement or distinct");
            }
        }

        @Override
        public String id() {
            return "sqd";
        }

        @Override
        public boolean samples() {
            return true;
        }

        @Override
        public boolean hasSmoothFluidLimit() {
            return true;
        }
    }

    /** Join the shortest queue of all servers, ties uniformly at random (docs/models.md §3). */
    record JoinShortestQueue() implements Policy {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.joinShortestQueue(this);
        }

        @Override
        public String id() {
            return "jsq";
        }
    }

    /** Join an idle server if there is one, else a uniformly random server (docs/models.md §3). */
    record JoinIdleQueue() implements Policy {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.joinIdleQueue(this);
        }

        @Override
        public String id() {
            return "jiq";
        }
    }

    /**
     * The threshold policy of infinite-server pools with green and yellow tokens ([GABL]; docs/models.md
     * §3): to a pool with fewer than {@code ℓ} tasks if any, else with exactly {@code ℓ}, else at random.
     *
     * @param threshold {@code ℓ ≥ 0}
     */
    record Threshold(int threshold) implements Policy {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.threshold(this);
        }

        /** Validates {@code ℓ ≥ 0}. */
        public Threshold {
            Require.atLeast("threshold", threshold, 0);
        }

        @Override
        public String id() {
            return "threshold";
        }

        @Override
        public void requireSupportedBy(ServerSystem system) {
            requirePools(this, system);
        }
    }

    /**
     * The self-learning threshold of [GABL] (docs/models.md §3): the threshold policy whose {@code ℓ}
     * moves up when the pools below it run out and down when those at it stay plentiful, with
     * parameter {@code α}.
     *
     * @param alpha {@code α ∈ (0, 1)}
     * @param initialThreshold {@code ℓ(0) ≥ 0}
     */
    record AdaptiveThreshold(double alpha, int initialThreshold) implements Policy {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.adaptiveThreshold(this);
        }

        /** Validates {@code α ∈ (0, 1)} and {@code ℓ(0) ≥ 0}. */
        public AdaptiveThreshold {
            Require.open("alpha", alpha, 0, 1);
            Require.atLeast("initial-threshold", initialThreshold, 0);
        }

        @Override
        public String id() {
            return "adaptive-threshold";
        }

        @Override
        public void requireSupportedBy(ServerSystem system) {
            requirePools(this, system);
        }
    }

    /**
     * SQ(d) with memory (docs/models.md §1a): each arrival samples {@code d} servers, refreshes the
     * dispatcher's observation of them, and joins the server with the smallest last observed length.
     *
     * @param d servers sampled per arrival, {@code ≥ 1}
     * @param sampling how they are drawn (the fluid limit is the same for both)
     */
    record Memory(int d, Sampling sampling) implements Policy {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.memory(this);
        }

        /** Validates {@code d ≥ 1} and a sampling (not speed-weighted). */
        public Memory {
            Require.atLeast("d", d, 1);
            requireUniform(sampling, "memory");
        }

        @Override
        public String id() {
            return "memory";
        }

        @Override
        public boolean samples() {
            return true;
        }

        @Override
        public void requireSupportedBy(ServerSystem system) {
            requireQueues(this, system);
        }
    }

    /**
     * Shortest expected delay SED(d) (docs/models.md §10): the sampled server with the smallest
     * {@code (Q+1)/s}, values compared exactly, ties uniformly at random. With servers of one speed it is
     * SQ(d).
     *
     * @param d servers sampled per arrival, {@code ≥ 1}
     * @param sampling how they are drawn
     */
    record ShortestExpectedDelay(int d, Sampling sampling) implements Policy {
        @Override
        public boolean supportsServerClasses() {
            return true;
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.shortestExpectedDelay(this);
        }

        /** Validates {@code d ≥ 1} and a sampling. */
        public ShortestExpectedDelay {
            Require.atLeast("d", d, 1);
            if (sampling == null) {
                throw MflbException.invalid("sampling", null, "replacement, distinct or speed");
            }
        }

        @Override
        public String id() {
            return "sed";
        }

        @Override
        public boolean samples() {
            return true;
        }

        @Override
        public boolean hasSmoothFluidLimit() {
            return true;
        }

        @Override
        public void requireSupportedBy(ServerSystem system) {
            requireQueues(this, system);
        }
    }

    /**
     * Least loaded of d, LL(d) (docs/models.md §11): the sampled server with the least unfinished work
     * (job sizes known at dispatch), ties uniformly at random. Its mean-field limit is the workload
     * equation of {@code org.mflb.pde.workload}, for any job-size law.
     *
     * @param d servers sampled per arrival, {@code ≥ 1}
     * @param sampling how they are drawn (not speed-weighted)
     */
    record LeastLoaded(int d, Sampling sampling) implements Policy {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.leastLoaded(this);
        }

        /** Validates {@code d ≥ 1} and a sampling. */
        public LeastLoaded {
            Require.atLeast("d", d, 1);
            requireUniform(sampling, "ll");
        }

        @Override
        public String id() {
            return "ll";
        }

        @Override
        public boolean samples() {
            return true;
        }

        @Override
        public void requireSupportedBy(ServerSystem system) {
            requireQueues(this, system);
        }
    }

    private static void requireUniform(Sampling sampling, String policy) {
        if (sampling == null || sampling == Sampling.SPEED) {
            throw MflbException.invalid("sampling", sampling == null ? null : sampling.id(),
                    "replacement or distinct for policy " + policy);
        }
    }

    private static void requireQueues(Policy policy, ServerSystem system) {
        if (system.kind() != ServerSystem.Kind.SUPERMARKET) {
            throw MflbException.invalid("policy", policy.id(), "used with system supermarket only");
        }
    }

    private static void requirePools(Policy policy, ServerSystem system) {
        if (system.kind() != ServerSystem.Kind.POOLS) {
            throw MflbException.invalid("policy", policy.id(), "used with system pools only");
        }
    }

    /** @return random routing */
    static Policy random() {
        return new Random();
    }

    /** @return SQ(d) with {@code d} servers drawn with replacement */
    static Policy powerOfD(int d) {
        return new PowerOfD(d, Sampling.REPLACEMENT);
    }

    /** @return join the shortest queue */
    static Policy jsq() {
        return new JoinShortestQueue();
    }

    /** @return join the idle queue */
    static Policy jiq() {
        return new JoinIdleQueue();
    }
}
