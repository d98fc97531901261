package org.mflb.core.sojourn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hipparchus.special.Gamma;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;

class ErlangMixtureTest {

    private static double[] geometric(double lambda, int k) {
        double[] s = new double[k + 1];
        for (int j = 0; j <= k; j++) {
            s[j] = Math.pow(lambda, j);
        }
        return s;
    }

    @Test
    void geometricSharesGiveTheMm1ExponentialEvenFarInTheTail() {
        double lambda = 0.99;
        ErlangMixture law = ErlangMixture.of(geometric(lambda, 12000));
        for (double t : new double[] {1, 100, 2000, 5000}) {
            double exact = Math.exp(-(1 - lambda) * t);
            assertEquals(exact, law.survival(t), 1e-11 * exact, "t = " + t);
        }
        assertEquals(Math.log(1e4) / 0.01, law.quantile(0.9999), 1e-9 * Math.log(1e4) / 0.01);
        assertEquals(0.01 * Math.exp(-0.01 * 300), law.density(300), 1e-12);
        assertEquals(0.0, law.survival(1e7), 0.0, "far beyond: underflow to 0, never NaN");
    }

    @Test
    void aFiniteMixtureIsTheSumOfErlangSurvivals() {
        double[] s = {1, 0.6, 0.25, 0.05};
        ErlangMixture law = ErlangMixture.of(s);
        for (double t : new double[] {0.01, 0.5, 3, 12}) {
            double expected = 0;
            for (int k = 0; k < s.length; k++) {
                expected += (s[k] - (k + 1 < s.length ? s[k + 1] : 0)) * Gamma.regularizedGammaQ(k + 1, t);
            }
            assertEquals(expected, law.survival(t), 1e-15);
        }
        assertEquals(1.9, law.mean(), 1e-15);
        double q = law.quantile(0.9);
        assertEquals(0.1, law.survival(q), 1e-14);
    }

    @Test
    void sharesMustBeANonincreasingSequenceOfProbabilities() {
        assertThrows(MflbException.class, () -> ErlangMixture.of(new double[] {1, 0.5, 0.7}));
        assertThrows(MflbException.class, () -> ErlangMixture.of(new double[] {1.5}));
        MflbException e = assertThrows(MflbException.class, () -> ErlangMixture.exponential().quantile(1.0));
        assertTrue(e.getMessage().contains("p = 1.0"), e.getMessage());
    }

    @Test
    void quantilesOfALawWithAnAtomAreTheLeftContinuousInverse() {
        // T = 1 with probability 1/2, else Exp(1) + 1: P(T > t) = 1 for t < 1, e^{-(t-1)}/2 after
        SojournLaw atom = new SojournLaw() {
            @Override
            public double survival(double t) {
                return t < 1 ? 1.0 : 0.5 * Math.exp(-(t - 1));
            }

            @Override
            public double mean() {
                return 1.5;
            }
        };
        assertEquals(1.0, atom.quantile(0.3), 1e-13);
        assertEquals(1 + Math.log(5), atom.quantile(0.9), 1e-12);
    }
}
