package org.mflb.core.refined;

import java.util.Locale;
import java.util.Optional;

/**
 * One quantity's size expansion {@code E[X^N] = π + t₁ + t₂ + O(1/N³)} at one {@code N}, with
 * {@code t₁ = V/N} and {@code t₂ = A/N²} (docs/models.md §4), and whether it says anything there.
 * <p>
 * The expansion is asymptotic: at a given {@code N} it is usable only while its terms decrease,
 * {@code |t₂| < |t₁|} (a series whose terms stop at {@code t₁}, {@code t₂ = 0}, counts as
 * decreasing). Then the first neglected term is estimated by {@code |t₂|} for order 1 and, as the
 * next term of a geometric series, by {@code t₂²/|t₁| < |t₂|} for order 2. Where the terms do not
 * decrease there is no estimate of the error at all: such an {@code N} is too small for the
 * expansion, and a comparison there is "not applicable", never a pass (docs/models.md §4, "When
 * the expansion is usable").
 *
 * @param n the size {@code N}
 * @param limit the mean-field value {@code π}
 * @param first {@code t₁ = V/N}
 * @param second {@code t₂ = A/N²}
 */
public record SeriesTerms(double n, double limit, double first, double second) {

    /**
     * Coefficients {@code V}, {@code A} below this in magnitude are the rounding of an exact zero
     * (e.g. {@code V₁ = 0} for the busy fraction {@code x₁ = λ} of lossless queues, found as
     * {@code -4e-16}): they count as zero.
     */
    public static final double ROUNDING = 1e-10;

    /**
     * @param n the size {@code N > 0}
     * @param limit {@code π}
     * @param v the 1/N coefficient {@code V}
     * @param a the 1/N² coefficient {@code A}
     * @return the terms {@code V/N} and {@code A/N²}, coefficients below {@link #ROUNDING} taken as zero
     */
    public static SeriesTerms of(double n, double limit, double v, double a) {
        return new SeriesTerms(n, limit, clean(v) / n, clean(a) / (n * n));
    }

    /**
     * @param e a steady-state expansion of order 2
     * @param n the size
     * @param i the coordinate (0-based)
     * @return the terms of coordinate {@code i}
     */
    public static SeriesTerms of(SteadyStateExpansion e, double n, int i) {
        return of(n, e.fixedPoint()[i], e.firstOrderTerm()[i], e.secondOrderTerm()[i]);
    }

    /**
     * @param e a steady-state expansion of order 2
     * @param n the size
     * @return the terms of the sum of the coordinates (for tail vectors: the mean jobs per server)
     */
    public static SeriesTerms ofTotal(SteadyStateExpansion e, double n) {
        return of(n, sum(e.fixedPoint()), sum(e.firstOrderTerm()), sum(e.secondOrderTerm()));
    }

    /** @return {@code π} (order 0), {@code π + t₁} (order 1) or {@code π + t₁ + t₂} (order 2) */
    public double upTo(int order) {
        return limit + (order >= 1 ? first : 0) + (order >= 2 ? second : 0);
    }

    /** @return whether the terms decrease: {@code |t₂| < |t₁|}, or {@code t₂ = 0} */
    public boolean decreasing() {
        return second == 0 || Math.abs(second) < Math.abs(first);
    }

    /**
     * @param order 1 or 2
     * @return the estimate of the first neglected term, {@code |t₂|} (order 1) or {@code t₂²/|t₁|}
     *         (order 2); meaningful only where {@link #decreasing()}, where it is below {@code |t₁|}
     */
    public double neglected(int order) {
        if (order >= 2) {
            return second == 0 ? 0 : second * second / Math.abs(first);
        }
        return Math.abs(second);
    }

    /** @return why the expansion is not usable at this {@code N} (its terms do not decrease), if it is not */
    public Optional<String> notUsable() {
        if (decreasing()) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "at N = %s the 1/N^2 term %.3g is not smaller than the 1/N"
                + " term %.3g: the expansion has stopped converging there (no error estimate)", size(n), second, first));
    }

    /** @return {@code n} as a label: {@code 10}, {@code 2.5} */
    static String size(double n) {
        return n == Math.rint(n) && Math.abs(n) < 1e15 ? Long.toString((long) n) : Double.toString(n);
    }

    private static double clean(double c) {
        return Math.abs(c) < ROUNDING ? 0 : c;
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }
}
