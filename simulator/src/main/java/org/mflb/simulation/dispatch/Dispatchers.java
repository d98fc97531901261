package org.mflb.simulation.dispatch;

import org.mflb.simulation.Policy;

/** The one place that maps a {@link org.mflb.simulation.Policy} to its dispatcher. */
public final class Dispatchers {

    private Dispatchers() {
    }

    /**
     * @return whether the policy reads the occupancy's order at every level (JSQ's shortest
     *         queues; the threshold policies' pools with exactly ℓ or h tasks when ℓ moves), so
     *         that the engine must keep it fully sorted; the others need only the idle/busy split.
     *         A new dispatcher that calls {@code serverAt} beyond the idle block must be listed here.
     */
    public static boolean needsLevelOrder(Policy policy) {
        return policy == Policy.JSQ || policy == Policy.THRESHOLD || policy == Policy.ADAPTIVE_THRESHOLD;
    }

    /** @return a new dispatcher for the policy of {@code ctx.scenario()} */
    public static Dispatcher create(DispatchContext ctx) {
        return switch (ctx.scenario().policy()) {
            case RANDOM -> new RandomDispatcher(ctx);
            case SQD -> ctx.scenario().d() == 1 ? new RandomDispatcher(ctx) : new PowerOfDDispatcher(ctx);
            case JSQ -> new JsqDispatcher(ctx);
            case JIQ -> new JiqDispatcher(ctx);
            case MEMORY -> new MemoryDispatcher(ctx);
            case THRESHOLD -> new ThresholdDispatcher(ctx);
            case ADAPTIVE_THRESHOLD -> new AdaptiveThresholdDispatcher(ctx);
        };
    }
}
