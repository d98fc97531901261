package org.mflb.simulation.dispatch;

/** The one place that maps a {@link org.mflb.simulation.Policy} to its dispatcher. */
public final class Dispatchers {

    private Dispatchers() {
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
