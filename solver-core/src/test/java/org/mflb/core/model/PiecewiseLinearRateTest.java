package org.mflb.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

class PiecewiseLinearRateTest {

    /** Knots 0 → 0.5, 10 → 0.9, 20 → 0.9, 30 → 0 (flat stretch, then down to zero). */
    private static final PiecewiseLinearRate RATE =
            new PiecewiseLinearRate(new double[] {0, 10, 20, 30}, new double[] {0.5, 0.9, 0.9, 0.0});

    /** Exact in binary for these knots up to one rounding per operation. */
    private static final double EXACT = 1e-15;

    @Test
    void interpolatesLinearlyAndExtrapolatesConstantly() {
        assertEquals(0.5, RATE.at(-100));
        assertEquals(0.5, RATE.at(0));
        assertEquals(0.7, RATE.at(5), EXACT);
        assertEquals(0.9, RATE.at(10));
        assertEquals(0.9, RATE.at(15));
        assertEquals(0.45, RATE.at(25), EXACT);
        assertEquals(0.0, RATE.at(30));
        assertEquals(0.0, RATE.at(1e9));
        assertFalse(RATE.isConstant());
        assertTrue(new PiecewiseLinearRate(new double[] {0, 1}, new double[] {2, 2}).isConstant());
        PiecewiseLinearRate single = new PiecewiseLinearRate(new double[] {3}, new double[] {0.7});
        assertEquals(0.7, single.at(-5));
        assertEquals(0.7 * 4, single.integral(1, 5), EXACT);
        assertEquals(0.7, single.supremum(0, 10));
    }

    @Test
    void supremumIsAttainedAtEndsOrKnots() {
        assertEquals(0.9, RATE.supremum(0, 30));
        assertEquals(0.7, RATE.supremum(0, 5), EXACT);
        assertEquals(0.9, RATE.supremum(5, 12));
        assertEquals(0.45, RATE.supremum(25, 100), EXACT);
        assertEquals(0.9, RATE.supremum(12, 5));
        // never below any sampled value
        for (double a = -5; a < 35; a += 1.3) {
            for (double b = a; b < 40; b += 2.1) {
                double sup = RATE.supremum(a, b);
                for (int i = 0; i <= 100; i++) {
                    assertTrue(RATE.at(a + (b - a) * i / 100) <= sup + EXACT);
                }
            }
        }
    }

    @Test
    void integralIsExact() {
        // areas: [0,10] trapezoid 7, [10,20] 9, [20,30] 4.5
        assertEquals(7.0, RATE.integral(0, 10), EXACT);
        assertEquals(20.5, RATE.integral(0, 30), 1e-14);
        assertEquals(20.5 + 5 * 0.5, RATE.integral(-5, 100), 1e-14);
        assertEquals(-RATE.integral(3, 17), RATE.integral(17, 3));
        assertEquals(0.0, RATE.integral(4, 4));
        // against the interface's default (composite Simpson, exact on each linear piece up to the
        // kinks: error O(h²·jump in slope) = (40/4096)²·0.04 ≈ 4e-6 per kink)
        ArrivalRate generic = RATE::at;
        assertEquals(generic.integral(-3, 37), RATE.integral(-3, 37), 1e-5);
        // within a piece: (b−a)·(λ(a)+λ(b))/2
        assertEquals(2 * (RATE.at(1) + RATE.at(3)) / 2, RATE.integral(1, 3), EXACT);
        assertEquals(ArrivalRate.constant(0.8).integral(2, 7), 4.0, EXACT);
    }

    @Test
    void inverseIntegralInvertsTheCumulativeRate() {
        for (double t0 : new double[] {-7, 0, 3.3, 10, 19.9, 25}) {
            double total = RATE.integral(t0, 30);
            for (double frac : new double[] {0, 1e-9, 0.01, 0.3, 0.5, 0.99, 1.0}) {
                double mass = frac * total;
                double t = RATE.inverseIntegral(t0, mass);
                assertEquals(mass, RATE.integral(t0, t), 1e-12 * Math.max(1, total), "t0 = " + t0 + ", mass = " + mass);
                assertTrue(t >= t0);
            }
            // beyond the total rate of the future (λ = 0 after 30): never
            assertEquals(Double.POSITIVE_INFINITY, RATE.inverseIntegral(t0, total + 1e-6));
        }
        // zero mass at start returns start; positive constant tail is inverted linearly
        PiecewiseLinearRate rising = new PiecewiseLinearRate(new double[] {0, 1}, new double[] {0, 2});
        assertEquals(0.5, rising.inverseIntegral(0, 0.25), EXACT); // ∫_0^t 2s ds = t²
        assertEquals(1.0 + 3.0 / 2, rising.inverseIntegral(0, 1 + 3), EXACT);
        // flat zero stretch: the smallest time reaching the mass is the start of the stretch
        PiecewiseLinearRate gap = new PiecewiseLinearRate(new double[] {0, 1, 2, 3}, new double[] {1, 0, 0, 1});
        assertEquals(1.0, gap.inverseIntegral(0, 0.5), EXACT);
        assertEquals(2.0 + Math.sqrt(0.5), gap.inverseIntegral(0, 0.5 + 0.25), 1e-14);
    }

    @Test
    void invalidKnotsAreRejected() {
        assertInvalid("t[1]", () -> new PiecewiseLinearRate(new double[] {0, 0}, new double[] {1, 1}));
        assertInvalid("t[2]", () -> new PiecewiseLinearRate(new double[] {0, 2, 1}, new double[] {1, 1, 1}));
        assertInvalid("lambda[0]", () -> new PiecewiseLinearRate(new double[] {0}, new double[] {-1}));
        assertInvalid("lambda[1]", () -> new PiecewiseLinearRate(new double[] {0, 1}, new double[] {1, Double.NaN}));
        assertInvalid("t[0]", () -> new PiecewiseLinearRate(new double[] {Double.POSITIVE_INFINITY}, new double[] {1}));
        assertInvalid("knots", () -> new PiecewiseLinearRate(new double[] {0, 1}, new double[] {1}));
        assertInvalid("knots", () -> new PiecewiseLinearRate(new double[0], new double[0]));
        assertInvalid("mass", () -> RATE.inverseIntegral(0, -1));
    }

    private static void assertInvalid(String parameter, Runnable r) {
        MflbException e = assertThrows(MflbException.class, r::run);
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals(parameter, e.parameter(), e.getMessage());
    }
}
