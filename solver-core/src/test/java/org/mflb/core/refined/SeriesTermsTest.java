package org.mflb.core.refined;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * When a size expansion is usable at N ({@link SeriesTerms}, {@link ExpansionUsability}): the terms
 * must decrease, and a corrected value outside its domain is named.
 */
class SeriesTermsTest {

    @Test
    void termsAreScaledByNAndTheNeglectedTermFollowsTheGeometricEstimate() {
        SeriesTerms t = SeriesTerms.of(20, 0.5, 2.0, 4.0);
        assertEquals(0.1, t.first(), 1e-15);
        assertEquals(0.01, t.second(), 1e-15);
        assertEquals(0.5, t.upTo(0), 0.0);
        assertEquals(0.6, t.upTo(1), 1e-15);
        assertEquals(0.61, t.upTo(2), 1e-15);
        assertTrue(t.decreasing());
        assertEquals(0.01, t.neglected(1), 1e-15);
        assertEquals(0.001, t.neglected(2), 1e-15); // t2²/|t1| = 1e-4/0.1
        assertEquals(Optional.empty(), t.notUsable());
    }

    @Test
    void aSeriesWhoseSecondTermIsNotSmallerIsNotUsable() {
        // the JBT(2) case of issue 27: x[2] at N = 10 with V = 2.52, A = 147.7: t1 = 0.252, t2 = 1.477
        SeriesTerms t = SeriesTerms.of(10, 0.7556, 2.5222, 147.65);
        assertFalse(t.decreasing());
        String reason = t.notUsable().orElseThrow();
        assertTrue(reason.startsWith("at N = 10 the 1/N^2 term 1.48 is not smaller than the 1/N term 0.252"), reason);
        // equal magnitudes do not decrease either
        assertFalse(SeriesTerms.of(10, 0, 1, 10).decreasing());
        // a leading term of zero with a non-zero second term: no estimate of the error
        assertFalse(SeriesTerms.of(10, 0.3, 0, 1).decreasing());
    }

    @Test
    void exactZerosAndTheirRoundingStopTheSeries() {
        // x_1 = λ in lossless queues: V and A are zero, found as rounding (-4e-16, -3e-14)
        SeriesTerms busy = SeriesTerms.of(10, 0.95, -4.4e-16, -2.8e-14);
        assertEquals(0.0, busy.first(), 0.0);
        assertEquals(0.0, busy.second(), 0.0);
        assertTrue(busy.decreasing());
        assertEquals(0.0, busy.neglected(1), 0.0);
        assertEquals(0.0, busy.neglected(2), 0.0);
        // a term that stops at t1
        SeriesTerms stops = SeriesTerms.of(10, 0.2, 1, 0);
        assertTrue(stops.decreasing());
        assertEquals(0.0, stops.neglected(2), 0.0);
    }

    @Test
    void tailVectorsAndFractionsNameTheFirstEntryOutOfTheirDomain() {
        assertEquals(Optional.empty(), ExpansionUsability.tailVector(10, new double[] {0.9, 0.5, 0.1}));
        assertEquals("N = 10 is too small for the expansion: the corrected x_2 = 1.00003 exceeds 1, so the 1/N terms"
                + " dominate (use larger N)", ExpansionUsability.tailVector(10, new double[] {0.9, 1.00003}).orElseThrow());
        assertTrue(ExpansionUsability.tailVector(10, new double[] {0.9, 0.95}).orElseThrow()
                .contains("x_2 = 0.950000 exceeds x_1"));
        assertTrue(ExpansionUsability.tailVector(10, new double[] {0.9, -0.01}).orElseThrow().contains("is negative"));
        assertTrue(ExpansionUsability.tailVector(10, new double[] {Double.NaN}).orElseThrow()
                .contains("is not a number"));
        assertEquals(Optional.empty(), ExpansionUsability.fractions(10, new double[] {0.2, 1.0, 0.0}, i -> "y" + i));
        assertTrue(ExpansionUsability.fractions(10, new double[] {0.2, 2.48}, i -> "x[" + (i + 1) + "]").orElseThrow()
                .contains("the corrected x[2] = 2.48000 is not a fraction in [0, 1]"));
    }
}
