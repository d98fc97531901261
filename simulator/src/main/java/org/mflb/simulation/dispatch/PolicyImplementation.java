package org.mflb.simulation.dispatch;

import java.util.Optional;
import java.util.function.Function;

import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.simulation.dispatch.OccupancyArrivals.Rule;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * How the simulator runs one dispatching policy of the model, decided in one place: {@link #of(Policy)},
 * an exhaustive {@link Policy#match} over the model's policies, so that a new policy does not compile
 * until the simulator says how to run it.
 *
 * @param dispatcher builds the policy's dispatcher for one replication of the agent engine (the real
 *        algorithm, with its own data structures: samples, tokens, memory)
 * @param needsLevelOrder whether the dispatcher reads the occupancy's order at every level (JSQ's
 *        shortest queues; the threshold policies' pools with exactly ℓ or h tasks when ℓ moves), so
 *        that the agent engine must keep it fully sorted; the others need only the idle/busy split. A
 *        new dispatcher that calls {@code serverAt} beyond the idle block must say so here.
 * @param occupancyArrivals the policy's law on the occupancy engine, empty where the counts alone are
 *        not a Markov chain (SQ(d) with memory, whose per-server observations are state)
 * @param workload the least-loaded policy LL(d), which only the workload engine runs (it reads
 *        workloads, not queue lengths: the agent and occupancy engines have no such state); empty for
 *        the queue-length policies, which the workload engine does not run
 */
public record PolicyImplementation(Function<DispatchContext, Dispatcher> dispatcher, boolean needsLevelOrder,
        Optional<OccupancyArrivals> occupancyArrivals, Optional<Policy.LeastLoaded> workload) {

    /**
     * @param policy a policy of the model, with servers of one speed
     * @return how the simulator runs it
     */
    public static PolicyImplementation of(Policy policy) {
        return of(policy, ServerClasses.homogeneous());
    }

    /**
     * @param policy a policy of the model
     * @param classes the servers' classes (docs/models.md §10): SED(d) of servers of one speed is SQ(d),
     *        and speed-weighted sampling of servers of one speed is sampling with replacement
     * @return how the simulator runs it
     */
    public static PolicyImplementation of(Policy policy, ServerClasses classes) {
        boolean speeds = !classes.equalSpeeds();
        return policy.match(new Policy.Cases<PolicyImplementation>() {
            @Override
            public PolicyImplementation random(Policy.Random p) {
                return exactOnCounts(RandomDispatcher::new, false, OccupancyArrivals.of(Rule.RANDOM));
            }

            @Override
            public PolicyImplementation powerOfD(Policy.PowerOfD p) {
                boolean weighted = speeds && p.sampling() == Sampling.SPEED;
                if (p.d() == 1 && !weighted) {
                    return random(new Policy.Random()); // one sampled server is a uniformly random one
                }
                Sampling sampling = p.sampling() == Sampling.SPEED && !weighted ? Sampling.REPLACEMENT : p.sampling();
                return exactOnCounts(ctx -> new PowerOfDDispatcher(ctx, p), false,
                        new OccupancyArrivals(Rule.SQD, p.d(), sampling, 0, Double.NaN));
            }

            @Override
            public PolicyImplementation joinShortestQueue(Policy.JoinShortestQueue p) {
                return exactOnCounts(JsqDispatcher::new, true, OccupancyArrivals.of(Rule.JSQ));
            }

            @Override
            public PolicyImplementation joinIdleQueue(Policy.JoinIdleQueue p) {
                return exactOnCounts(JiqDispatcher::new, false, OccupancyArrivals.of(Rule.JIQ));
            }

            @Override
            public PolicyImplementation threshold(Policy.Threshold p) {
                return exactOnCounts(ctx -> new ThresholdDispatcher(ctx, p), true,
                        new OccupancyArrivals(Rule.THRESHOLD, 1, Sampling.REPLACEMENT, p.threshold(), Double.NaN));
            }

            @Override
            public PolicyImplementation adaptiveThreshold(Policy.AdaptiveThreshold p) {
                return exactOnCounts(ctx -> new AdaptiveThresholdDispatcher(ctx, p), true,
                        new OccupancyArrivals(Rule.ADAPTIVE_THRESHOLD, 1, Sampling.REPLACEMENT, p.initialThreshold(), p.alpha()));
            }

            @Override
            public PolicyImplementation memory(Policy.Memory p) {
                return new PolicyImplementation(ctx -> new MemoryDispatcher(ctx, p), false, Optional.empty(),
                        Optional.empty());
            }

            @Override
            public PolicyImplementation shortestExpectedDelay(Policy.ShortestExpectedDelay p) {
                if (!speeds || p.d() == 1) {
                    // servers of one speed: the smallest (Q+1)/s is the shortest queue; one sample: no choice
                    return powerOfD(new Policy.PowerOfD(p.d(), p.sampling()));
                }
                return exactOnCounts(ctx -> new SedDispatcher(ctx, p), false,
                        new OccupancyArrivals(Rule.SED, p.d(), p.sampling(), 0, Double.NaN));
            }

            @Override
            public PolicyImplementation leastLoaded(Policy.LeastLoaded p) {
                // the workload engine samples and compares by itself (engine.WorkloadReplication): no dispatcher
                return new PolicyImplementation(ctx -> {
                    throw new IllegalStateException("LL(d) runs on the workload engine only");
                }, false, Optional.empty(), Optional.of(p));
            }
        });
    }

    /**
     * @param sampling a policy's sampling
     * @param layout the server classes, {@code null} for servers of one speed
     * @return whether the samples are drawn proportionally to speed: speed-weighted sampling of servers of
     *         different speeds (with one speed it is sampling with replacement)
     */
    public static boolean speedWeighted(Sampling sampling, ServerClassLayout layout) {
        return sampling == Sampling.SPEED && layout != null && !layout.equalSpeeds();
    }

    /** @return a policy the occupancy engine runs exactly, with {@code arrivals} */
    private static PolicyImplementation exactOnCounts(Function<DispatchContext, Dispatcher> dispatcher,
            boolean needsLevelOrder, OccupancyArrivals arrivals) {
        return new PolicyImplementation(dispatcher, needsLevelOrder, Optional.of(arrivals), Optional.empty());
    }

    /**
     * @param ctx one replication's context
     * @return a new dispatcher of the policy for it
     */
    public Dispatcher createDispatcher(DispatchContext ctx) {
        return dispatcher.apply(ctx);
    }

    /** @return whether the policy runs on the workload engine (LL(d)) and on no other */
    public boolean needsWorkloads() {
        return workload.isPresent();
    }

    /** @return whether the occupancy engine is exact for the policy (whatever the service law) */
    public boolean countsSuffice() {
        return occupancyArrivals.isPresent();
    }
}
