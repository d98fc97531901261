package org.mflb.simulation.dispatch;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

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
            case THRESHOLD, ADAPTIVE_THRESHOLD -> throw new MflbException(ErrorKind.INVALID_PARAMETER, "policy",
                    "policy = " + ctx.scenario().policy().cliName()
                            + " is not available in the simulator yet: use random|sqd|jsq|jiq|memory");
        };
    }
}
