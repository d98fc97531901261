package org.mflb.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The conditional estimator's law against closed forms of Erlang laws and their mixtures. */
class ErlangMixtureTest {

    @Test
    void singleLevelsAreExponentialAndErlang() {
        // every arrival found an empty queue: Exp(μ), quantile −ln(1 − p)/μ
        ErlangMixture exp = new ErlangMixture(new long[] {7}, 2.0);
        for (double p : new double[] {0.5, 0.9, 0.99, 0.999}) {
            assertEquals(-Math.log(1 - p) / 2, exp.quantile(p), 1e-11);
        }
        // every arrival found one job: Erlang(2, 1), P(T > t) = e^{-t}(1 + t)
        ErlangMixture erlang2 = new ErlangMixture(new long[] {0, 5}, 1.0);
        for (double t : new double[] {0.1, 1, 3, 10}) {
            assertEquals(Math.exp(-t) * (1 + t), erlang2.ccdf(t), 1e-14);
        }
        // far in the tail of a heavy queue (e^{-x} alone underflows): Erlang(801, 1) at its mean 801
        long[] heavy = new long[801];
        heavy[800] = 1;
        assertEquals(0.5, new ErlangMixture(heavy, 1.0).ccdf(801), 0.01);
    }

    @Test
    void geometricMixtureIsTheMM1ResponseTime() {
        // levels found by arrivals in M/M/1 (PASTA): P(k) = (1 − ρ)ρ^k, and T ~ Exp(1 − ρ)
        double rho = 0.8;
        long[] joined = new long[200];
        for (int k = 0; k < joined.length; k++) {
            joined[k] = Math.round(1e15 * (1 - rho) * Math.pow(rho, k));
        }
        ErlangMixture m = new ErlangMixture(joined, 1.0);
        for (double p : new double[] {0.5, 0.9, 0.99}) {
            assertEquals(-Math.log(1 - p) / (1 - rho), m.quantile(p), 1e-9);
        }
    }
}
