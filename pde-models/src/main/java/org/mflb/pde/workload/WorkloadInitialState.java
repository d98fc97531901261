package org.mflb.pde.workload;

import java.util.function.DoubleUnaryOperator;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The workload law a transient of LL(d) starts from (docs/models.md §11): every server empty, the
 * equilibrium at another arrival rate, or any ccdf {@code F̄_0(w) = P(V(0) > w)}. Immutable.
 */
public final class WorkloadInitialState {

    private static final WorkloadInitialState EMPTY = new WorkloadInitialState(Double.NaN, null, "empty");

    private final double lambda;
    private final DoubleUnaryOperator survival;
    private final String description;

    private WorkloadInitialState(double lambda, DoubleUnaryOperator survival, String description) {
        this.lambda = lambda;
        this.survival = survival;
        this.description = description;
    }

    /** @return every server empty: {@code F̄_0 ≡ 0} */
    public static WorkloadInitialState empty() {
        return EMPTY;
    }

    /**
     * @param lambda an arrival rate in (0, 1)
     * @return the equilibrium workload law of LL(d) at {@code lambda} (the transient's {@code d} and
     *         job sizes), as the march of (E2) gives it on the transient's own grid
     */
    public static WorkloadInitialState equilibrium(double lambda) {
        Require.open("initial lambda", lambda, 0, 1);
        return new WorkloadInitialState(lambda, null, "equilibrium at lambda " + lambda);
    }

    /**
     * @param survival the ccdf {@code F̄_0(w)}, non-increasing in [0, 1]; its value at {@code w = 0}
     *        is read as {@code P(V > 0)}, the busy fraction
     * @return that law
     */
    public static WorkloadInitialState of(DoubleUnaryOperator survival) {
        if (survival == null) {
            throw MflbException.invalid("initial workload", null, "a ccdf");
        }
        return new WorkloadInitialState(Double.NaN, survival, "a given workload ccdf");
    }

    /** @return the arrival rate of an equilibrium start, NaN otherwise */
    double equilibriumRate() {
        return lambda;
    }

    /** @return whether this is the equilibrium at another rate */
    boolean isEquilibrium() {
        return !Double.isNaN(lambda);
    }

    /** @return the ccdf sampled at the nodes {@code k h}, {@code k < n} (not for an equilibrium start) */
    double[] sample(double h, int n) {
        double[] f = new double[n];
        if (survival == null) {
            return f;
        }
        for (int k = 0; k < n; k++) {
            double v = survival.applyAsDouble(k * h);
            if (!(v >= 0 && v <= 1)) {
                throw MflbException.invalid("initial workload", v + " at w = " + k * h, "a ccdf with values in [0, 1]");
            }
            f[k] = v;
        }
        return f;
    }

    @Override
    public String toString() {
        return description;
    }
}
