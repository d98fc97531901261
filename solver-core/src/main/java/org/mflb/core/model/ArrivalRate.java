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

    /**
     * The cumulative rate {@code Λ(t0, t1) = ∫_{t0}^{t1} λ(t) dt} (negative when {@code t1 < t0}),
     * used for exact sampling of the arrival times by inversion. The default applies composite
     * Simpson's rule on 4096 panels and is overridden by every built-in rate with the exact value.
     */
    default double integral(double t0, double t1) {
        if (t0 == t1) {
            return 0.0;
        }
        int panels = 4096;
        double h = (t1 - t0) / panels;
        double sum = at(t0) + at(t1);
        for (int i = 1; i < panels; i++) {
            sum += (i % 2 == 1 ? 4.0 : 2.0) * at(t0 + i * h);
        }
        return sum * h / 3.0;
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

        @Override
        public double integral(double t0, double t1) {
            return lambda * (t1 - t0);
        }
    }
}
