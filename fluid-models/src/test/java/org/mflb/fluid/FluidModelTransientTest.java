package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;

class FluidModelTransientTest {

    /** The accuracy bar for transients at default tolerances. */
    private static final double TRANSIENT_TOLERANCE = 1e-8;

    @Test
    void randomPoolsFromEmptyArePoissonAtEveryTime() {
        double lambda = 4.0;
        FluidTransient tr = FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, lambda)
                .transientFrom(InitialState.empty(), TimeGrid.uniform(10, 0.25));
        for (int k = 0; k < tr.grid().size(); k++) {
            double t = tr.grid().time(k);
            // M/M/∞ from empty: Poisson with mean λ(1 − e^{−t}).
            assertTailEquals(Poisson.tail(lambda * (1 - Math.exp(-t)), tr.truncation()), tr.tail(k), t);
        }
        double offGrid = 3.3;
        assertTailEquals(Poisson.tail(lambda * (1 - Math.exp(-offGrid)), tr.truncation()), tr.tail(offGrid), offGrid);
    }

    @Test
    void randomPoolsFromFullAreBinomialPlusPoisson() {
        double lambda = 2.5;
        int k0 = 6;
        FluidTransient tr = FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, lambda)
                .transientFrom(InitialState.all(k0), TimeGrid.uniform(5, 0.5));
        for (int k = 0; k < tr.grid().size(); k++) {
            double t = tr.grid().time(k);
            // Initial tasks survive independently with probability e^{−t}; new ones form Poisson(λ(1 − e^{−t})).
            double survive = Math.exp(-t);
            int levels = tr.truncation();
            double[] binomial = new double[k0 + 1];
            for (int j = 0; j <= k0; j++) {
                binomial[j] = choose(k0, j) * Math.pow(survive, j) * Math.pow(1 - survive, k0 - j);
            }
            double[] poissonTail = Poisson.tail(lambda * (1 - survive), levels + k0 + 1);
            double[] exact = new double[levels + 1];
            for (int i = 0; i <= levels; i++) {
                for (int j = 0; j <= k0; j++) {
                    exact[i] += binomial[j] * (i - j <= 0 ? 1.0 : poissonTail[i - j]);
                }
            }
            assertTailEquals(exact, tr.tail(k), t);
        }
    }

    @Test
    void poolMassRelaxesExponentiallyUnderSqd() {
        double lambda = 10.5;
        FluidTransient tr = FluidModel.of(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(2), lambda)
                .transientFrom(InitialState.all(3), TimeGrid.uniform(8, 0.5));
        for (int k = 0; k < tr.grid().size(); k++) {
            double t = tr.grid().time(k);
            // du/dt = λ − u for every non-blocking policy.
            assertEquals(lambda + (3 - lambda) * Math.exp(-t), tr.meanQueueLength(k), 1e-9, "u(" + t + ")");
        }
    }

    @Test
    void timeVaryingRateGivesPoissonWithTheDrivenMean() {
        ArrivalRate rate = t -> 1 + 0.5 * Math.sin(t);
        FluidTransient tr = FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, rate)
                .transientFrom(InitialState.empty(), TimeGrid.uniform(12, 0.5));
        for (int k = 0; k < tr.grid().size(); k++) {
            double t = tr.grid().time(k);
            // m' = 1 + 0.5 sin t − m, m(0) = 0.
            double m = 1 + 0.25 * (Math.sin(t) - Math.cos(t)) - 0.75 * Math.exp(-t);
            assertTailEquals(Poisson.tail(m, tr.truncation()), tr.tail(k), t);
        }
    }

    @Test
    void supermarketTransientReachesTheFixedPoint() {
        FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
        FluidTransient tr = sq2.transientFrom(InitialState.empty(), TimeGrid.uniform(400, 100));
        double[] end = tr.tail(tr.grid().size() - 1);
        double[] fp = sq2.fixedPoint().tail();
        for (int i = 0; i < Math.min(end.length, fp.length); i++) {
            assertEquals(fp[i], end[i], 1e-9, "x_" + i);
        }
        assertTrue(tr.cutOffMass() <= 1e-12);
    }

    @Test
    void startingAtTheFixedPointStaysThere() {
        FluidModel model = FluidModel.of(ServerSystem.lossPools(8), PowerOfD.withReplacement(3), 7.0);
        FluidTransient tr = model.transientFrom(InitialState.fixedPoint(), TimeGrid.uniform(20, 5));
        double[] fp = model.fixedPoint().tail();
        double[] end = tr.tail(tr.grid().size() - 1);
        for (int i = 0; i < fp.length; i++) {
            assertEquals(fp[i], end[i], 1e-10);
        }
        assertEquals(model.fixedPoint().blocking().getAsDouble(), tr.blocking(tr.grid().size() - 1), 1e-10);
    }

    @Test
    void overloadedQueuesGrowLinearlyAndTheTruncationFollows() {
        // λ = 1.5 > 1: no fixed point, but a transient exists; with random routing each queue is a
        // transient M/M/1 whose mean grows like (λ − 1)t for large t.
        FluidTransient tr = FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, 1.5)
                .transientFrom(InitialState.empty(), TimeGrid.uniform(100, 50));
        double growth = tr.meanQueueLength(2) - tr.meanQueueLength(1);
        assertEquals(0.5 * 50, growth, 0.5);
        assertTrue(tr.cutOffMass() <= 1e-12);
    }

    @Test
    void malformedInitialStatesAreRejected() {
        assertEquals("init", assertThrows(MflbException.class, () -> InitialState.parse("tail:0.5,0.2")).parameter());
        assertEquals("init", assertThrows(MflbException.class, () -> InitialState.parse("tail:1,0.2,0.5")).parameter());
        assertEquals("init", assertThrows(MflbException.class, () -> InitialState.parse("tail:1,abc")).parameter());
        assertEquals("init", assertThrows(MflbException.class, () -> InitialState.parse("full")).parameter());
        assertEquals("tail:1.0,0.8,0.3", InitialState.parse("tail:1,0.8,0.3").toString());
        assertEquals("all:3", InitialState.parse("all:3").toString());
    }

    private static void assertTailEquals(double[] exact, double[] tail, double t) {
        for (int i = 0; i < tail.length; i++) {
            assertEquals(exact[i], tail[i], TRANSIENT_TOLERANCE, "x_" + i + "(" + t + ")");
        }
    }

    private static double choose(int n, int k) {
        double c = 1;
        for (int j = 1; j <= k; j++) {
            c = c * (n - k + j) / j;
        }
        return c;
    }
}
