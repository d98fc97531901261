package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.ode.TimeGrid;

/**
 * The solvers scale with the number of levels (issue 18): the banded Jacobian is the dense one's
 * band, random routing near saturation is its closed form at tens of thousands of levels, dense
 * work that cannot fit is refused with its size, and a transient's state between grid times (now
 * integrated from the grid time before instead of a dense output kept for the whole run) agrees
 * with a finer grid.
 */
class ScalingSolversTest {

    @Test
    void bandedJacobianIsTheBandOfTheDenseOne() {
        TailModel model = new TailModel(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(3),
                ArrivalRate.constant(2.5), 12);
        double[] x = {0.95, 0.8, 0.6, 0.4, 0.25, 0.1, 0.05, 0.02, 0.01, 0.004, 0.001, 0.0002};
        double[][] band = new double[12][3];
        model.bandedJacobian(0, x, band);
        double[][] viaDefault = new double[12][3];
        PopulationModel generic = new PopulationModel() { // the interface's default, from the dense Jacobian
            @Override public int getDimension() { return model.getDimension(); }
            @Override public java.util.List<org.mflb.core.model.Transition> transitions() { return model.transitions(); }
            @Override public void rates(double t, double[] y, double[] beta) { model.rates(t, y, beta); }
            @Override public void jacobian(double t, double[] y, DMatrixRMaj j) { model.jacobian(t, y, j); }
            @Override public int[] jacobianBandwidth() { return model.jacobianBandwidth(); }
            @Override public ArrivalRate arrivalRate() { return model.arrivalRate(); }
        };
        generic.bandedJacobian(0, x, viaDefault);
        for (int i = 0; i < 12; i++) {
            assertArrayEquals(viaDefault[i], band[i], 1e-15, "row " + i);
        }
    }

    @Test
    void randomRoutingNearSaturationIsItsClosedForm() {
        double lambda = 0.999;
        FluidFixedPoint fp = FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, lambda).fixedPoint();
        assertTrue(fp.truncation() > 27_000, "levels " + fp.truncation());
        assertTrue(fp.cutOffMass() <= 1e-12 * 1.01, "cut-off " + fp.cutOffMass());
        assertEquals(lambda / (1 - lambda), fp.meanQueueLength(), 1e-9 * 999);
        double[] x = fp.tail();
        for (int i : new int[] {1, 10, 1000, 10_000}) {
            assertEquals(Math.pow(lambda, i), x[i], 1e-12, "x_" + i);
        }
        FluidFixedPoint pools = FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, 1e5).fixedPoint();
        assertEquals(1e5, pools.meanQueueLength(), 1e-6);
    }

    @Test
    void denseWorkThatCannotFitIsRefusedWithItsSize() {
        MflbException e = assertThrows(MflbException.class, () -> FixedPointSolver.requireDenseFits("fixed point", 200_000, 3));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals("truncation", e.parameter());
        assertTrue(e.getMessage().contains("200000 x 200000") && e.getMessage().contains("GB"), e.getMessage());
    }

    @Test
    void stateBetweenGridTimesAgreesWithAFinerGrid() {
        FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9)
                .withTruncation(Truncation.fixed(30));
        FluidTransient coarse = sq2.transientFrom(InitialState.all(3), TimeGrid.uniform(40, 10));
        FluidTransient fine = sq2.transientFrom(InitialState.all(3), TimeGrid.uniform(40, 0.25));
        for (double t : new double[] {0.25, 3.5, 17.75, 39.75}) {
            assertArrayEquals(fine.tail(t), coarse.tail(t), 1e-9, "t = " + t);
        }
    }
}
