package org.mflb.core.ode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PiecewiseLinearRate;

class PieceIntegrationTest {

    @Test
    void stopsAtTheKnotsOfLambdaThenAtTheEnd() {
        double[] knots = PieceIntegration.knots(new PiecewiseLinearRate(new double[] {0, 1, 2.5}, new double[] {1, 2, 1}));
        assertArrayEquals(new double[] {0, 1, 2.5}, knots);
        assertEquals(1.0, PieceIntegration.nextStop(knots, 0, 4));
        assertEquals(2.5, PieceIntegration.nextStop(knots, 1, 4));
        assertEquals(2.5, PieceIntegration.nextStop(knots, 1.5, 4));
        assertEquals(4.0, PieceIntegration.nextStop(knots, 2.5, 4));
        assertEquals(2.0, PieceIntegration.nextStop(knots, 1.5, 2));
        assertEquals(0, PieceIntegration.knots(ArrivalRate.constant(1)).length);
    }

    @Test
    void theDistanceToTheSurfaceIsIntegratedToRelativeAccuracy() {
        IntegratorSettings settings = IntegratorSettings.DEFAULT;
        double[] absolute = PieceIntegration.absoluteTolerances(settings, 3, 1);
        assertArrayEquals(new double[] {1e-12, 1e-22, 1e-12}, absolute, 1e-30);
        assertArrayEquals(new double[] {1e-12, 1e-12, 1e-12}, PieceIntegration.relativeTolerances(settings, 3));
    }

    @Test
    void aStretchWithinRoundingOfItsEndIsNegligible() {
        assertTrue(PieceIntegration.negligible(1e5, 1e5 + 10 * Math.ulp(1e5)));
        assertFalse(PieceIntegration.negligible(1e5, 1e5 + 1e-6));
        assertTrue(PieceIntegration.negligible(2, 2));
    }
}
