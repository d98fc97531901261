package org.mflb.pde.workload;

import java.util.function.DoubleUnaryOperator;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.sojourn.SojournLaw;

/**
 * A waiting- or response-time law known on the nodes of a grid that ends at {@code reach} (the laws
 * of a job arriving at a time of a transient): its survival between nodes is a given interpolant, 0
 * beyond the reach, and a quantile beyond the reach is an error. Immutable.
 */
final class NodalLaw implements SojournLaw {

    private final DoubleUnaryOperator survival;
    private final double mean;
    private final double reach;

    NodalLaw(DoubleUnaryOperator survival, double mean, double reach) {
        this.survival = survival;
        this.mean = mean;
        this.reach = reach;
    }

    @Override
    public double survival(double t) {
        if (t < 0) {
            return 1.0;
        }
        if (t > reach) {
            return 0.0;
        }
        return Math.min(1.0, Math.max(0.0, survival.applyAsDouble(t)));
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double quantile(double p) {
        double q = SojournLaw.quantile(this, p);
        if (q >= reach * (1 - 1e-12)) {
            throw new MflbException(ErrorKind.TRUNCATION, "percentiles", "the " + 100 * p
                    + "th percentile lies beyond the workload grid's end " + reach + " (P(T > end) = "
                    + survival.applyAsDouble(reach) + "); widen the grid (reach)");
        }
        return q;
    }
}
