package org.mflb.core.model;

import org.mflb.core.Require;

/**
 * A per-server arrival rate {@code λ(t)}: the system of {@code N} servers (or {@code n} pools)
 * receives a Poisson stream of rate {@code N·λ(t)}.
 */
@FunctionalInterface
public interface ArrivalRate {

    /** @return {@code λ(t)}, finite and {@code >= 0} */
    double at(double t);

    /** @return whether {@code λ} does not depend on time (fixed points need it) */
    default boolean isConstant() {
        return false;
    }

    /**
     * An upper bound of {@code λ} on {@code [t0, t1]}; the simulator thins against it.
     * The default samples densely and is overridden by every built-in rate.
     */
    default double supremum(double t0, double t1) {
        double max = 0;
        int samples = 4096;
        for (int i = 0; i <= samples; i++) {
            max = Math.max(max, at(t0 + (t1 - t0) * i / samples));
        }
        return max;
    }

    /** @return the constant rate {@code λ}, which must be finite and {@code >= 0} */
    static ArrivalRate constant(double lambda) {
        return new Constant(Require.nonNegative("lambda", lambda));
    }

    /** A time-independent rate. */
    record Constant(double lambda) implements ArrivalRate {
        @Override
        public double at(double t) {
            return lambda;
        }

        @Override
        public boolean isConstant() {
            return true;
        }

        @Override
        public double supremum(double t0, double t1) {
            return lambda;
        }
    }
}
