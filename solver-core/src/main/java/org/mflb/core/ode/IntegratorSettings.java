package org.mflb.core.ode;

import org.mflb.core.Require;

/**
 * Tolerances of the adaptive integrator (Dormand–Prince 8(5,3), Hipparchus
 * {@code DormandPrince853Integrator}). The local error of each component is kept below
 * {@code absoluteTolerance + relativeTolerance·|x_i|}. Immutable; {@code withX} returns a copy.
 *
 * @param absoluteTolerance absolute error per component, {@code > 0}
 * @param relativeTolerance relative error per component, {@code >= 0}
 * @param maxStep largest step the integrator may take, {@code > 0}
 */
public record IntegratorSettings(double absoluteTolerance, double relativeTolerance, double maxStep) {

    /** Defaults that keep fluid transients accurate to about 1e-9 over t ≤ 1000. */
    public static final IntegratorSettings DEFAULT = new IntegratorSettings(1e-12, 1e-12, Double.POSITIVE_INFINITY);

    /** Validates the tolerances. */
    public IntegratorSettings {
        Require.positive("absoluteTolerance", absoluteTolerance);
        Require.nonNegative("relativeTolerance", relativeTolerance);
        if (!(maxStep > 0)) {
            throw org.mflb.core.MflbException.invalid("maxStep", maxStep, "> 0");
        }
    }

    /** @return a copy with both tolerances set to {@code tolerance} */
    public IntegratorSettings withTolerance(double tolerance) {
        return new IntegratorSettings(tolerance, tolerance, maxStep);
    }

    /** @return a copy with the given largest step */
    public IntegratorSettings withMaxStep(double step) {
        return new IntegratorSettings(absoluteTolerance, relativeTolerance, step);
    }
}
