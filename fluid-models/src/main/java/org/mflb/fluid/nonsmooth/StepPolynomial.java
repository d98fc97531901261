package org.mflb.fluid.nonsmooth;

import java.util.function.DoubleUnaryOperator;

import org.hipparchus.ode.sampling.ODEStateInterpolator;

/**
 * One component of a Dormand–Prince 8(5,3) step's continuous output as a polynomial in its own
 * right. That output is a polynomial of degree 7 in time over the step (Hipparchus
 * {@code DormandPrince853StateInterpolator}), so its values at 8 Chebyshev points determine it;
 * evaluating it by the barycentric formula (Berrut and Trefethen, SIAM Review 46, 2004) costs a few
 * operations instead of interpolating the whole state. Used for the deficit {@code G(t)} that drives
 * {@link LowerGaps}.
 */
final class StepPolynomial implements DoubleUnaryOperator {

    private static final int POINTS = 8;
    private static final double[] UNIT_NODES = new double[POINTS];
    private static final double[] WEIGHTS = new double[POINTS];

    static {
        for (int j = 0; j < POINTS; j++) {
            double angle = (2 * j + 1) * Math.PI / (2 * POINTS);
            UNIT_NODES[j] = Math.cos(angle);
            WEIGHTS[j] = (j % 2 == 0 ? 1 : -1) * Math.sin(angle);
        }
    }

    private final int component;
    private final double[] nodes = new double[POINTS];
    private final double[] values = new double[POINTS];
    private double start = Double.NaN;
    private double end = Double.NaN;

    /** @param component the index of the component */
    StepPolynomial(int component) {
        this.component = component;
    }

    /** Samples the step of {@code interpolator} unless it is the step already held. */
    void fit(ODEStateInterpolator interpolator) {
        double a = interpolator.getPreviousState().getTime();
        double b = interpolator.getCurrentState().getTime();
        if (a == start && b == end) {
            return;
        }
        start = a;
        end = b;
        for (int j = 0; j < POINTS; j++) {
            nodes[j] = 0.5 * (a + b) + 0.5 * (b - a) * UNIT_NODES[j];
            values[j] = interpolator.getInterpolatedState(nodes[j]).getPrimaryState()[component];
        }
    }

    @Override
    public double applyAsDouble(double t) {
        double numerator = 0;
        double denominator = 0;
        for (int j = 0; j < POINTS; j++) {
            double d = t - nodes[j];
            if (d == 0.0) {
                return values[j];
            }
            double w = WEIGHTS[j] / d;
            numerator += w * values[j];
            denominator += w;
        }
        return numerator / denominator;
    }
}
