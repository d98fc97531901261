package org.mflb.pde;

/**
 * Estimates the remainder {@code Σ_{k > L} t_k} of a convergent series of positive, eventually
 * decreasing terms from two of its terms, {@code t_{L/2}} and {@code t_L}, by continuing them as a
 * power law {@code t_k ≈ C k^{−γ}} (the slowest decay the equilibrium tail of a queue with a
 * regularly varying service law can have, docs/models.md §5) and summing the continuation with the
 * midpoint rule of Euler–Maclaurin:
 * <pre>
 *   γ = ln(t_{L/2}/t_L)/ln(L/⌊L/2⌋),     Σ_{k>L} C k^{−γ} ≈ ∫_{L+1/2}^∞ C u^{−γ} du = t_L L^γ (L + 1/2)^{1−γ}/(γ − 1).
 * </pre>
 * For a power law the estimate is exact to leading order; for lighter tails (log-normal,
 * stretched exponential, geometric) the local exponent grows with {@code L} and the estimate is an
 * overestimate. {@code γ ≤ 1} (a series that does not converge as fast as any summable power)
 * gives {@code +∞}.
 */
final class SeriesRemainder {

    private SeriesRemainder() {
    }

    /**
     * @param t terms, {@code t[k]} for {@code k ≤ level} (index 0 unused)
     * @param level {@code L ≥ 2}
     * @return the estimate of {@code Σ_{k > L} t_k}, {@code +∞} when the local exponent is {@code ≤ 1}
     */
    static double estimate(double[] t, int level) {
        double tl = t[level];
        if (!(tl > 0)) {
            return 0.0;
        }
        int half = level / 2;
        double th = t[half];
        if (!(th > tl)) {
            return Double.POSITIVE_INFINITY;
        }
        double gamma = exponent(t, level);
        if (!(gamma > 1)) {
            return Double.POSITIVE_INFINITY;
        }
        double l = level;
        // t_L L^γ (L + 1/2)^{1−γ}/(γ − 1), written to avoid overflow of L^γ for large γ
        return tl * (l + 0.5) * Math.exp(-gamma * Math.log1p(0.5 / l)) / (gamma - 1.0);
    }

    /** @return the local power-law exponent {@code γ = ln(t_{L/2}/t_L)/ln(L/⌊L/2⌋)} */
    static double exponent(double[] t, int level) {
        int half = level / 2;
        return Math.log(t[half] / t[level]) / Math.log((double) level / half);
    }
}
