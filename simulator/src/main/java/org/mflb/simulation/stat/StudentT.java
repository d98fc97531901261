package org.mflb.simulation.stat;

import org.hipparchus.distribution.continuous.TDistribution;
import org.mflb.simulation.Estimate;

/**
 * Student t confidence intervals for the mean of {@code m} i.i.d. (or batch-mean) observations:
 * <pre>
 *   x̄ ± t_{0.975, m−1} · s / √m,   s² = Σ (x_k − x̄)² / (m − 1).
 * </pre>
 * Observations are summed in the order given, so the result does not depend on thread scheduling.
 */
public final class StudentT {

    private StudentT() {
    }

    /** @return the 0.975 quantile of Student's t with {@code df ≥ 1} degrees of freedom */
    public static double quantile975(int df) {
        return new TDistribution(df).inverseCumulativeProbability(0.975);
    }

    /**
     * @param x observations (not modified); NaN entries are left out (a unit without any
     *        observation of this quantity)
     * @return the mean and its 95% interval (NaN ends with fewer than two observations)
     */
    public static Estimate estimate(double[] x) {
        int m = 0;
        double sum = 0;
        for (double v : x) {
            if (!Double.isNaN(v)) {
                sum += v;
                m++;
            }
        }
        if (m == 0) {
            return new Estimate(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double mean = sum / m;
        if (m == 1) {
            return new Estimate(mean, Double.NaN, Double.NaN, 1);
        }
        double ss = 0;
        for (double v : x) {
            if (!Double.isNaN(v)) {
                ss += (v - mean) * (v - mean);
            }
        }
        double half = quantile975(m - 1) * Math.sqrt(ss / (m - 1) / m);
        return new Estimate(mean, mean - half, mean + half, m);
    }
}
