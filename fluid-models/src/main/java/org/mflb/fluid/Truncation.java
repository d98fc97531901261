package org.mflb.fluid;

import org.mflb.core.Require;

/**
 * How many levels {@code K} of the tail vector a solver keeps. {@link #automatic(double)} grows
 * {@code K} until the estimated mass beyond it ({@link TailVectors#cutOffMass}) is below the
 * tolerance; {@link #fixed(int)} keeps exactly {@code K} and reports the cut-off mass.
 *
 * @param levels the fixed {@code K}, or 0 for automatic
 * @param tolerance the largest cut-off mass an automatic truncation accepts
 */
public record Truncation(int levels, double tolerance) {

    /** Automatic with tolerance 1e-12. */
    public static final Truncation DEFAULT = automatic(1e-12);

    /** Validates. */
    public Truncation {
        Require.atLeast("truncation", levels, 0);
        Require.open("tail-tolerance", tolerance, 0, 1);
    }

    /** @return a truncation that keeps the cut-off mass below {@code tolerance} */
    public static Truncation automatic(double tolerance) {
        return new Truncation(0, tolerance);
    }

    /** @return a truncation that keeps exactly {@code levels} levels ({@code ≥ 1}) */
    public static Truncation fixed(int levels) {
        return new Truncation(Require.atLeast("truncation", levels, 1), 1e-12);
    }

    /** @return whether {@code K} is chosen automatically */
    public boolean isAutomatic() {
        return levels == 0;
    }
}
