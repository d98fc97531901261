package org.mflb.fluid.nonsmooth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.PiecewiseLinearRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.Truncation;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;

/** Parameter checks and the model-level API of the non-smooth fluid models. */
class NonSmoothModelTest {

    private static void assertInvalid(String parameter, Runnable action) {
        MflbException e = assertThrows(MflbException.class, action::run);
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals(parameter, e.parameter());
        assertTrue(e.getMessage().contains(parameter) && !e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void thresholdMustBeNonNegative() {
        assertInvalid("threshold", () -> NonSmoothPolicy.threshold(-1));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0, -0.2, 1.5, Double.NaN})
    void alphaMustLieInTheOpenUnitInterval(double alpha) {
        assertInvalid("alpha", () -> NonSmoothPolicy.adaptiveThreshold(alpha, 0));
    }

    @Test
    void initialThresholdMustBeNonNegative() {
        assertInvalid("initial-threshold", () -> NonSmoothPolicy.adaptiveThreshold(0.5, -2));
    }

    @Test
    void fixedPointNeedsAConstantLoad() {
        FluidModel m = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jsq(),
                new PiecewiseLinearRate(new double[] {0, 1}, new double[] {1, 2}));
        assertInvalid("lambda", m::fixedPoint);
    }

    @Test
    void aFixedTruncationTooSmallForTheInitialStateIsRefused() {
        FluidModel m = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(2), 2.5)
                .withTruncation(Truncation.fixed(4));
        assertInvalid("truncation", () -> m.transientFrom(InitialState.all(6), TimeGrid.of(0, 1)));
    }

    /** The automatic truncation keeps the cut-off mass of an unbounded-support transient below its tolerance. */
    @Test
    void automaticTruncationGrowsWithTheMass() {
        FluidTransient x = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(0), 12.0)
                .transientFrom(InitialState.empty(), TimeGrid.of(0, 30));
        assertTrue(x.cutOffMass() <= 1e-12, "cut-off " + x.cutOffMass());
        assertEquals(12.0, x.meanQueueLength(1), 1e-9);
    }
}
