package org.mflb.simulation.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.mflb.simulation.Estimate;

/** The regression control-variate estimator against least squares and its normal-theory coverage. */
class ControlVariateTest {

    @Test
    void matchesTheLeastSquaresInterceptAndItsStandardError() {
        double[] theta = {1.2, 0.9, 1.5, 1.1, 0.7, 1.3};
        double[] y = {0.52, 0.47, 0.58, 0.50, 0.44, 0.55};
        Estimate e = ControlVariate.estimate(theta, y, 0.5);
        // reference: numpy.linalg.lstsq of theta on [1, y − 0.5], intercept and t_{0.975,4} times its
        // standard error sqrt(s² (X'X)^{-1}_00), s² = SSE/4
        assertEquals(1.0613636363636367, e.mean(), 1e-13);
        // Hipparchus inverts the t distribution to a relative accuracy of about 1e-10
        assertEquals(0.039392541374730985, e.halfWidth(), 1e-11);
        assertEquals(6, e.samples());
    }

    @Test
    void anExactlyLinearRelationLeavesNoErrorAndNaNsLeaveTheirUnitOut() {
        double[] y = {0.1, 0.4, Double.NaN, 0.3, 0.7, 0.2};
        double[] theta = new double[y.length];
        for (int k = 0; k < y.length; k++) {
            theta[k] = 2 - 3 * (y[k] - 0.25);
        }
        theta[1] = Double.NaN;
        Estimate e = ControlVariate.estimate(theta, y, 0.25);
        assertEquals(2, e.mean(), 1e-13);
        assertEquals(0, e.halfWidth(), 1e-12);
        assertEquals(4, e.samples(), "units 1 and 2 left out");
        Estimate few = ControlVariate.estimate(new double[] {1, 2}, new double[] {0, 1}, 0.5);
        assertTrue(Double.isNaN(few.mean()) && Double.isNaN(few.ci95Low()), "fewer than 3 units: no estimate");
        Estimate flat = ControlVariate.estimate(new double[] {1, 2, 3}, new double[] {5, 5, 5}, 4);
        assertEquals(2, flat.mean(), 1e-15, "a control without spread: c = 0, the plain mean");
        assertThrows(IllegalArgumentException.class, () -> ControlVariate.estimate(new double[2], new double[3], 0));
    }

    /**
     * Bivariate normal units, ρ = 0.95, m = 6 (few units: the t with m − 2 degrees of freedom and the
     * leverage term matter). 4000 independent estimates: the 95% interval misses the true mean a
     * Binomial(4000, 0.05) number of times if its coverage is exact; [150, 255] holds it with
     * probability 1 − 1.2e-4. The mean squared error must be the loss factor (m − 2)/(m − 3) times
     * (1 − ρ²)σ²/m, within 10% (its sampling error is about 3%: a false alarm below 1e-3).
     */
    @Test
    void theIntervalHasItsNominalCoverageAndTheVarianceItsLossFactor() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {2024, 15});
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        int m = 6;
        int runs = 4000;
        double rho = 0.95;
        double mu = 3;
        double truth = 7;
        int misses = 0;
        double squaredError = 0;
        double[] theta = new double[m];
        double[] y = new double[m];
        for (int r = 0; r < runs; r++) {
            for (int k = 0; k < m; k++) {
                double z = normal.sample();
                y[k] = mu + z;
                theta[k] = truth + 2 * (rho * z + Math.sqrt(1 - rho * rho) * normal.sample());
            }
            Estimate e = ControlVariate.estimate(theta, y, mu);
            if (!e.covers(truth)) {
                misses++;
            }
            squaredError += (e.mean() - truth) * (e.mean() - truth);
        }
        assertTrue(misses >= 150 && misses <= 255, misses + " misses of 4000 at 95%");
        double expected = (m - 2.0) / (m - 3.0) * (1 - rho * rho) * 4 / m;
        assertEquals(1, squaredError / runs / expected, 0.1, "mean squared error / loss-factor formula");
    }
}
