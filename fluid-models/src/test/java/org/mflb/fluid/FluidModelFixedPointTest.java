package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

class FluidModelFixedPointTest {

    /** The bar for closed-form fixed points. */
    private static final double CLOSED_FORM_TOLERANCE = 1e-10;

    @ParameterizedTest(name = "SQ({0}) supermarket at lambda = {1}")
    @CsvSource({"1,0.1", "1,0.5", "1,0.9", "1,0.99", "2,0.1", "2,0.5", "2,0.9", "2,0.99",
        "3,0.5", "3,0.9", "3,0.99", "5,0.3", "5,0.9", "5,0.99"})
    void supermarketFixedPointIsTheDoublyExponentialTail(int d, double lambda) {
        FluidModel model = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(d), lambda);
        FluidFixedPoint fp = model.fixedPoint();
        double[] tail = fp.tail();
        for (int i = 0; i < tail.length; i++) {
            double exponent = d == 1 ? i : (Math.pow(d, i) - 1) / (d - 1);
            assertEquals(Math.pow(lambda, exponent), tail[i], CLOSED_FORM_TOLERANCE, "x_" + i);
        }
        assertTrue(fp.cutOffMass() <= 1e-12, "cut-off mass " + fp.cutOffMass());
        assertTrue(fp.residual() <= 1e-13, "residual " + fp.residual());
        assertTrue(fp.isStable());
    }

    @Test
    void randomRoutingAtHighLoadNeedsAndGetsALongTruncation() {
        FluidFixedPoint fp = FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, 0.99)
                .fixedPoint();
        // Geometric tail 0.99^i: the cut-off mass 0.99^(K+1)/0.01 <= 1e-12 needs K >= 3200 or so.
        assertTrue(fp.truncation() > 3000, "K = " + fp.truncation());
        assertEquals(99.0, fp.meanQueueLength(), 1e-9);
    }

    @ParameterizedTest(name = "random pools at lambda = {0}")
    @CsvSource({"0.5", "3", "20.5", "100"})
    void randomPoolsArePoisson(double lambda) {
        FluidFixedPoint fp = FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, lambda)
                .fixedPoint();
        double[] exact = Poisson.tail(lambda, fp.truncation());
        double[] tail = fp.tail();
        for (int i = 0; i < tail.length; i++) {
            assertEquals(exact[i], tail[i], CLOSED_FORM_TOLERANCE, "q_" + i);
        }
        assertEquals(lambda, fp.meanQueueLength(), 1e-10);
        assertTrue(fp.blocking().isEmpty());
    }

    @ParameterizedTest(name = "random loss pools C = {0}, lambda = {1}")
    @CsvSource({"1,0.5", "5,3", "10,9.5", "20,25", "50,40"})
    void randomLossPoolsBlockAsErlangB(int capacity, double lambda) {
        FluidFixedPoint fp = FluidModel.of(ServerSystem.lossPools(capacity), RandomRouting.INSTANCE, lambda)
                .fixedPoint();
        assertEquals(capacity, fp.truncation());
        assertEquals(Poisson.erlangB(capacity, lambda), fp.blocking().getAsDouble(), CLOSED_FORM_TOLERANCE);
        // Carried load = mean occupancy (Little): λ(1 − B).
        assertEquals(lambda * (1 - fp.blocking().getAsDouble()), fp.meanQueueLength(), 1e-10);
        assertEquals(0.0, fp.cutOffMass());
    }

    @Test
    void sq2PoolsConserveMassAndBeatRandom() {
        FluidFixedPoint sq2 = FluidModel.of(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(2), 10.5)
                .fixedPoint();
        assertEquals(10.5, sq2.meanQueueLength(), 1e-10); // du/dt = λ − u for every non-blocking policy
        double[] tail = sq2.tail();
        double[] poisson = Poisson.tail(10.5, tail.length - 1);
        assertTrue(tail[14] < poisson[14] / 10, "SQ(2) concentrates the occupancy");
    }

    @Test
    void loadAtOrAboveOneHasNoFixedPointForQueues() {
        for (double lambda : new double[] {1.0, 1.5}) {
            FluidModel model = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), lambda);
            MflbException e = assertThrows(MflbException.class, model::fixedPoint);
            assertEquals("lambda", e.parameter());
            assertTrue(e.getMessage().contains("(0, 1)"), e.getMessage());
        }
    }

    @Test
    void badParametersNameThemselves() {
        assertEquals("d", assertThrows(MflbException.class, () -> PowerOfD.withReplacement(0)).parameter());
        assertEquals("lambda", assertThrows(MflbException.class,
                () -> FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, -1)).parameter());
        assertEquals("lambda", assertThrows(MflbException.class,
                () -> FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, Double.NaN)).parameter());
        assertEquals("capacity", assertThrows(MflbException.class, () -> ServerSystem.lossPools(0)).parameter());
        assertEquals(ErrorKind.INVALID_PARAMETER,
                assertThrows(MflbException.class, () -> PowerOfD.distinct(5, 3)).kind());
    }

    @Test
    void fixedTruncationReportsItsCutOffMass() {
        FluidFixedPoint fp = FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, 0.5)
                .withTruncation(Truncation.fixed(10)).fixedPoint();
        assertEquals(10, fp.truncation());
        // Truncated M/M/1/10: P(≥ i) = (λ^i − λ^11)/(1 − λ^11); estimate λ^10·λ/(1−λ) of the truncated tail.
        double l11 = Math.pow(0.5, 11);
        assertEquals((0.5 - l11) / (1 - l11), fp.tail()[1], 1e-12);
        assertEquals(fp.tail()[10] * 0.5 / 0.5, fp.cutOffMass(), 1e-3);
        assertTrue(fp.cutOffMass() > 1e-4);
    }
}
