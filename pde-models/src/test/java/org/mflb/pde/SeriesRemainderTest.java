package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The power-law remainder against sums computed directly. */
class SeriesRemainderTest {

    /** Σ_{k>L} k^{−γ}: the terms up to 2·10^5 summed, the rest by Euler–Maclaurin (error ≪ 1e-12). */
    static double powerRemainder(double gamma, int level) {
        int n = 200_000;
        double s = 0;
        for (int k = n; k > level; k--) {
            s += Math.pow(k, -gamma);
        }
        // Σ_{k>n} k^{−γ} = n^{1−γ}/(γ−1) − n^{−γ}/2 + γ n^{−γ−1}/12 − ...
        return s + Math.pow(n, 1 - gamma) / (gamma - 1) - 0.5 * Math.pow(n, -gamma) + gamma / 12 * Math.pow(n, -gamma - 1);
    }

    static double[] terms(int level, java.util.function.IntToDoubleFunction t) {
        double[] a = new double[level + 1];
        for (int k = 1; k <= level; k++) {
            a[k] = t.applyAsDouble(k);
        }
        return a;
    }

    /**
     * For a pure power the midpoint rule's relative error is about γ(γ+1)/(24 L²) (Euler–Maclaurin):
     * 1.6e-4 for γ = 2.5 at L = 64, so 5e-4 relative.
     */
    @Test
    void exactToSecondOrderForPowers() {
        for (double gamma : new double[] {1.5, 2.5}) {
            int level = 64;
            double estimate = SeriesRemainder.estimate(terms(level, k -> Math.pow(k, -gamma)), level);
            double exact = powerRemainder(gamma, level);
            System.out.printf("gamma %.1f L %d: estimate %.10f exact %.10f%n", gamma, level, estimate, exact);
            assertEquals(exact, estimate, 5e-4 * exact);
            assertEquals(gamma, SeriesRemainder.exponent(terms(level, k -> Math.pow(k, -gamma)), level), 1e-12);
        }
    }

    @Test
    void overestimatesLighterTailsAndRefusesDivergentOnes() {
        int level = 40;
        double q = 0.8;
        double geometric = SeriesRemainder.estimate(terms(level, k -> Math.pow(q, k)), level);
        double exact = Math.pow(q, level + 1) / (1 - q);
        assertTrue(geometric >= exact, geometric + " vs " + exact);
        assertEquals(Double.POSITIVE_INFINITY, SeriesRemainder.estimate(terms(level, k -> 1.0 / k), level));
        assertEquals(Double.POSITIVE_INFINITY, SeriesRemainder.estimate(terms(level, k -> Math.pow(k, -0.5)), level));
        assertEquals(0.0, SeriesRemainder.estimate(terms(level, k -> k < level ? 1.0 : 0.0), level));
    }
}
