package org.mflb.core.distribution;

import org.mflb.core.Require;

/**
 * Shared plumbing of the built-in laws: value semantics through {@link #spec()} (which prints every
 * parameter exactly, so two laws are equal exactly when their specifications are), and a
 * survival quantile by bisection for laws without a closed-form inverse.
 */
abstract class AbstractServiceDistribution implements ServiceDistribution {

    /**
     * @return the smallest double {@code a ≥ 0} with {@code Ḡ(a) ≤ tailMass}, by bisection down to
     *         adjacent doubles ({@code Ḡ} is non-increasing, so this is exactly the definition of
     *         {@link #survivalQuantile})
     */
    protected final double bisectSurvivalQuantile(double tailMass) {
        Require.open("tailMass", tailMass, 0.0, 1.0);
        if (survival(0.0) <= tailMass) {
            return 0.0;
        }
        double lo = 0.0;
        double hi = Math.max(mean(), Double.MIN_NORMAL);
        while (survival(hi) > tailMass) {
            lo = hi;
            hi *= 2.0;
        }
        // invariant: Ḡ(lo) > tailMass >= Ḡ(hi)
        while (true) {
            double mid = lo + 0.5 * (hi - lo);
            if (mid <= lo || mid >= hi) {
                return hi;
            }
            if (survival(mid) > tailMass) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    }

    /** @return the number in the shortest exact form for specifications ({@code 4}, not {@code 4.0}) */
    static String format(double x) {
        return ServiceDistributions.format(x);
    }

    /** @return {@code "name"} or {@code "name:mean=m"} for laws whose only other parameter is the mean */
    static String withMeanSuffix(String body, double mean) {
        if (mean == 1.0) {
            return body;
        }
        return body + (body.indexOf(':') >= 0 ? "," : ":") + "mean=" + format(mean);
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((ServiceDistribution) o).spec().equals(spec());
    }

    @Override
    public final int hashCode() {
        return spec().hashCode();
    }

    @Override
    public final String toString() {
        return spec();
    }
}
