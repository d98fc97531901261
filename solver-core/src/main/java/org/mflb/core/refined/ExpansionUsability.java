package org.mflb.core.refined;

import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Whether the corrected means {@code π + V/N (+ A/N²)} of a steady-state expansion can be used at a
 * given {@code N} (docs/models.md §4, "When the expansion is usable"). Two tests, each naming the
 * first coordinate that fails it:
 * <ul>
 * <li>the result is in the domain of the state: a tail vector ({@code x_0 = 1 ≥ x_1 ≥ x_2 ≥ ... ≥ 0})
 * for the built-in models, fractions in {@code [0, 1]} for a model file's coordinates;</li>
 * <li>the terms decrease, {@code |A/N²| < |V/N|} for every coordinate ({@link SeriesTerms}), which
 * needs the expansion of order 2.</li>
 * </ul>
 * A value outside its domain is never returned silently: callers print the reason as a warning
 * (the values themselves are not projected, since a projected vector would hide that the
 * expansion has stopped describing the system at this {@code N}).
 */
public final class ExpansionUsability {

    /**
     * Coordinates whose mean-field and corrected values are both below this are not judged by
     * {@link #terms}: far in a tail the terms of a size expansion grow from level to level (for SQ(d),
     * {@code |A_i/V_i|} rises with {@code i}), while the values there are below what a simulation
     * resolves (the level at which {@code compare} stops checking).
     */
    public static final double RESOLVED = 1e-4;

    /** Entries this far outside [0, 1] or increasing are not rounding. */
    public static final double SLACK = 1e-9;

    private ExpansionUsability() {
    }

    /**
     * @param n the size
     * @param levels the corrected {@code x_1, x_2, ...} (level 0 is 1)
     * @return why {@code N} is too small: an entry outside {@code [0, 1]} or larger than the one
     *         before, the correction terms dominating; empty when the vector is a tail vector
     */
    public static Optional<String> tailVector(double n, double[] levels) {
        double previous = 1.0;
        for (int i = 0; i < levels.length; i++) {
            double x = levels[i];
            if (!(x >= -SLACK && x <= 1 + SLACK && x <= previous + SLACK)) {
                return Optional.of(String.format(Locale.ROOT, "N = %s is too small for the expansion: the corrected"
                        + " x_%d = %.6g %s, so the 1/N terms dominate (use larger N)", SeriesTerms.size(n), i + 1, x,
                        Double.isNaN(x) ? "is not a number" : x < 0 ? "is negative" : x > 1 ? "exceeds 1"
                                : "exceeds x_" + i));
            }
            previous = x;
        }
        return Optional.empty();
    }

    /**
     * @param n the size
     * @param state the corrected coordinates, each a fraction of the objects
     * @param name the name of coordinate {@code i}
     * @return why {@code N} is too small: a coordinate outside {@code [0, 1]}; empty when none is
     */
    public static Optional<String> fractions(double n, double[] state, IntFunction<String> name) {
        for (int i = 0; i < state.length; i++) {
            double x = state[i];
            if (!(x >= -SLACK && x <= 1 + SLACK)) {
                return Optional.of(String.format(Locale.ROOT, "N = %s is too small for the expansion: the corrected"
                        + " %s = %.6g is not a fraction in [0, 1], so the 1/N terms dominate (use larger N)", SeriesTerms.size(n),
                        name.apply(i), x));
            }
        }
        return Optional.empty();
    }

    /**
     * @param e an expansion of order 2
     * @param n the size
     * @param name the name of coordinate {@code i}
     * @return why the expansion is not usable at {@code N}: the coordinates (at {@link #RESOLVED} or
     *         above) whose terms do not decrease, the first named, with their count; empty when every
     *         such coordinate's terms do
     */
    public static Optional<String> terms(SteadyStateExpansion e, double n, IntFunction<String> name) {
        int first = -1;
        int count = 0;
        for (int i = 0; i < e.dimension(); i++) {
            SeriesTerms t = SeriesTerms.of(e, n, i);
            if (Math.max(Math.abs(t.limit()), Math.abs(t.upTo(2))) >= RESOLVED && !t.decreasing()) {
                first = first < 0 ? i : first;
                count++;
            }
        }
        if (first < 0) {
            return Optional.empty();
        }
        return Optional.of(name.apply(first) + ": " + SeriesTerms.of(e, n, first).notUsable().orElseThrow()
                + (count > 1 ? " (and " + (count - 1) + " more coordinate" + (count > 2 ? "s" : "") + ")" : ""));
    }
}
