package org.mflb.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The conditional estimator's quantiles against closed forms of Erlang laws and their mixtures. */
class ConditionalQuantilesTest {

    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    @Test
    void singleLevelsAreExponentialAndErlang() {
        // every arrival found an empty queue: Exp(μ), quantile −ln(1 − p)/μ
        double[] exp = Replication.conditionalQuantiles(new long[] {7}, 2.0, PERCENTILES);
        for (int j = 0; j < PERCENTILES.length; j++) {
            double p = PERCENTILES[j] / 100;
            assertEquals(-Math.log(1 - p) / 2, exp[j], 1e-11);
        }
        // every arrival found one job: Erlang(2, 1), whose median solves e^{-t}(1 + t) = 1/2
        double median = Replication.conditionalQuantiles(new long[] {0, 5}, 1.0, new double[] {50})[0];
        assertEquals(0.5, Math.exp(-median) * (1 + median), 1e-12);
        // far in the tail of a heavy queue (e^{-x} alone underflows): Erlang(801, 1) has its median near 800.67
        long[] heavy = new long[801];
        heavy[800] = 1;
        assertEquals(800.67, Replication.conditionalQuantiles(heavy, 1.0, new double[] {50})[0], 0.01);
    }

    @Test
    void geometricMixtureIsTheMM1ResponseTime() {
        // levels found by arrivals in M/M/1 (PASTA): P(k) = (1 − ρ)ρ^k, and T ~ Exp(1 − ρ)
        double rho = 0.8;
        long[] joined = new long[200];
        for (int k = 0; k < joined.length; k++) {
            joined[k] = Math.round(1e15 * (1 - rho) * Math.pow(rho, k));
        }
        double[] q = Replication.conditionalQuantiles(joined, 1.0, new double[] {50, 90, 99});
        double[] p = {0.5, 0.9, 0.99};
        for (int j = 0; j < p.length; j++) {
            assertEquals(-Math.log(1 - p[j]) / (1 - rho), q[j], 1e-9);
        }
    }

    @Test
    void noArrivalsGiveNoQuantile() {
        for (double v : Replication.conditionalQuantiles(new long[3], 1.0, PERCENTILES)) {
            assertTrue(Double.isNaN(v));
        }
    }
}
