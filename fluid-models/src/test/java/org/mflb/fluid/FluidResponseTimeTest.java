package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hipparchus.special.Gamma;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;
import org.mflb.fluid.nonsmooth.Regime;

/** The fluid response-time law (docs/models.md §7) against closed forms. */
class FluidResponseTimeTest {

    private static FluidResponseTime stationary(FluidModel model) {
        return model.responseTime(model.fixedPoint());
    }

    @ParameterizedTest(name = "random routing = M/M/1 at lambda = {0}")
    @CsvSource({"0.3", "0.8", "0.9", "0.99"})
    void randomRoutingIsMm1(double lambda) {
        FluidResponseTime t = stationary(
                FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, lambda));
        double rate = 1 - lambda;
        for (double time : new double[] {0.1, 1, 5, 20, 10 / rate}) {
            double exact = Math.exp(-rate * time);
            assertEquals(exact, t.survival(time), 1e-10 * exact + 1e-13, "P(T > " + time + ")");
        }
        assertEquals(Math.log(100) / rate, t.quantile(0.99), 1e-9 * Math.log(100) / rate, "p99");
        assertEquals(Math.log(2) / rate, t.quantile(0.5), 1e-9 * Math.log(2) / rate, "median");
        assertEquals(1 / rate, t.mean(), 1e-9 / rate, "mean");
    }

    @Test
    void farTailIsAsAccurateAsTheFixedPoint() {
        // λ = 0.99: K > 3000 levels; at t = 2000 the Poisson weights peak near j = 1980, where
        // x_j ≈ 2e-9 is known to the fixed point's absolute accuracy (about 1e-14 per level)
        FluidResponseTime t = stationary(
                FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, 0.99));
        assertEquals(Math.exp(-20), t.survival(2000), 1e-13);
        double far = t.survival(1e5);
        assertTrue(far >= 0 && far < 1e-300, "P(T > 1e5) = " + far);
        assertEquals(Math.log(1e3) / 0.01, t.quantile(0.999), 1e-9 * 691);
    }

    @ParameterizedTest(name = "SQ({0}) at lambda = {1}: closed-form Erlang mixture")
    @CsvSource({"2,0.5", "2,0.9", "2,0.99", "3,0.95", "5,0.9"})
    void powerOfDMatchesTheClosedFormMixture(int d, double lambda) {
        FluidResponseTime t = stationary(
                FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(d), lambda));
        // s_j = x_j^d = λ^{(d^{j+1} − d)/(d − 1)}; P(T > t) = Σ_k (s_k − s_{k+1}) Q(k+1, t)
        java.util.function.DoubleUnaryOperator closed = time -> {
            double sum = 0;
            for (int k = 0; k < 60; k++) {
                double sk = Math.pow(lambda, (Math.pow(d, k + 1) - d) / (d - 1));
                double sk1 = Math.pow(lambda, (Math.pow(d, k + 2) - d) / (d - 1));
                sum += (sk - sk1) * Gamma.regularizedGammaQ(k + 1, time);
            }
            return sum;
        };
        for (double time : new double[] {0.5, 2, 5, 10, 30}) {
            assertEquals(closed.applyAsDouble(time), t.survival(time), 1e-12, "P(T > " + time + ")");
        }
        for (double p : new double[] {0.5, 0.9, 0.99, 0.999}) {
            double lo = 0;
            double hi = 200;
            for (int i = 0; i < 200; i++) {
                double m = 0.5 * (lo + hi);
                if (closed.applyAsDouble(m) > 1 - p) {
                    lo = m;
                } else {
                    hi = m;
                }
            }
            assertEquals(0.5 * (lo + hi), t.quantile(p), 1e-9, "quantile " + p);
        }
        double mean = 0;
        for (int k = 0; k < 60; k++) {
            mean += Math.pow(lambda, (Math.pow(d, k) - 1) * d / (d - 1));
        }
        assertEquals(mean, t.mean(), 1e-10, "E[T] = Σ x_j^d");
        // Little: E[T] = E[Q]/λ
        FluidFixedPoint fp = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(d), lambda)
                .fixedPoint();
        assertEquals(fp.meanQueueLength() / lambda, t.mean(), 1e-10, "Little's law");
    }

    @Test
    void jsqAndJiqBelowCapacityGiveTheServiceTimeAlone() {
        for (NonSmoothPolicy policy : new NonSmoothPolicy[] {NonSmoothPolicy.jsq(), NonSmoothPolicy.jiq()}) {
            FluidResponseTime t = stationary(FluidModel.of(ServerSystem.singleServerQueues(), policy, 0.9));
            assertEquals(Math.exp(-3), t.survival(3), 1e-15, policy.name());
            assertEquals(Math.log(100), t.quantile(0.99), 1e-12, policy.name());
            assertEquals(1.0, t.mean(), 0.0, policy.name());
        }
    }

    @Test
    void slidingPiecesSplitArrivalsAsTheRegimeSays() {
        double lambda = 1.2;
        double[] mu = {1, 1, 1};
        double[] x = {1, 0.3, 0.1};
        // (b) on x_1 = 1: r = λ − (1 − x_2) = 0.5 of the arrivals join servers with one job
        double[] b = Regime.at(1).arrivalShares(lambda, mu, x);
        assertEquals(1.0, b[0], 0);
        assertEquals(0.5 / lambda, b[1], 1e-15);
        assertEquals(0.0, b[2], 0);
        // (c) on x_1 = 1: the excess is routed at random, s_j = (r/λ) x_j
        double[] c = Regime.above(0).arrivalShares(lambda, mu, x);
        assertEquals(0.5 / lambda * 0.3, c[2], 1e-15);
        assertEquals(0.5 / lambda * 0.1, c[3], 1e-15);
        // (a) below threshold 2: arrivals uniform over servers with fewer than 2 jobs
        double[] a = Regime.below(2).arrivalShares(lambda, mu, new double[] {0.8, 0.4, 0});
        assertEquals(1.0, a[0], 1e-15);
        assertEquals((0.8 - 0.4) / (1 - 0.4), a[1], 1e-15);
        assertEquals(0.0, a[2], 0);
        // a time-varying overload of JSQ in single-server queues: some arrivals queue behind one job
        FluidModel jsq = FluidModel.of(ServerSystem.singleServerQueues(), NonSmoothPolicy.jsq(), lambda);
        FluidTransient tr = jsq.transientFrom(InitialState.empty(), TimeGrid.uniform(10, 1));
        FluidResponseTime late = jsq.responseTime(tr, 10);
        double[] s = late.arrivalShares();
        int fractional = 0;
        double expected = 0;
        for (int k = 0; k < s.length; k++) {
            assertTrue(k == 0 || s[k] <= s[k - 1], "nonincreasing shares");
            fractional += s[k] > 0 && s[k] < 1 ? 1 : 0;
            expected += (s[k] - (k + 1 < s.length ? s[k + 1] : 0)) * Gamma.regularizedGammaQ(k + 1, 2.0);
        }
        assertEquals(1, fractional, "one level receives the excess");
        assertEquals(expected, late.survival(2), 1e-14);
    }

    @Test
    void sqdWithMemoryPlugsInThroughItsJoinShares() {
        double lambda = 0.9;
        FluidModel memory = FluidModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(2), lambda);
        FluidFixedPoint fp = memory.fixedPoint();
        FluidResponseTime t = memory.responseTime(fp);
        // Little's law: E[T] = Σ_j s_j = E[Q]/λ, two independent sums of the tagged-server chain
        assertEquals(fp.meanQueueLength() / lambda, t.mean(), 1e-8, "Little's law");
        // memory sends arrivals to shorter queues than SQ(2) without it
        FluidResponseTime sq2 = stationary(FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2),
                lambda));
        assertTrue(t.quantile(0.99) < sq2.quantile(0.99), t.quantile(0.99) + " vs " + sq2.quantile(0.99));
        FluidTransient tr = memory.transientFrom(InitialState.empty(), TimeGrid.uniform(2, 1));
        assertEquals(Math.exp(-1), memory.responseTime(tr, 0).survival(1), 1e-15, "empty system: Exp(1)");
    }

    @Test
    void poolsRespondInTheServiceTimeAndLossPoolsBlock() {
        double lambda = 4;
        int c = 5;
        FluidResponseTime t = stationary(FluidModel.of(ServerSystem.lossPools(c), RandomRouting.INSTANCE, lambda));
        double term = 1;
        double sum = 1;
        for (int k = 1; k <= c; k++) {
            term *= lambda / k;
            sum += term;
        }
        assertEquals(term / sum, t.blocking(), 1e-10, "Erlang B");
        assertEquals(Math.exp(-1), t.survival(1), 1e-15);
        FluidResponseTime th = stationary(FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(2),
                2.5));
        assertEquals(Math.log(100), th.quantile(0.99), 1e-12);
        assertEquals(0.0, th.blocking(), 0);
    }

    @Test
    void alongATransientTheLawIsThatOfAJobArrivingThen() {
        FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
        FluidTransient tr = sq2.transientFrom(InitialState.empty(), TimeGrid.uniform(200, 50));
        assertEquals(Math.exp(-1.5), sq2.responseTime(tr, 0).survival(1.5), 1e-15, "empty system: Exp(1)");
        FluidResponseTime eq = stationary(sq2);
        FluidResponseTime late = sq2.responseTime(tr, 200.0);
        assertEquals(eq.quantile(0.99), late.quantile(0.99), 1e-6, "p99 relaxes to the fixed point's");
        assertTrue(sq2.responseTime(tr, 5.0).quantile(0.99) < eq.quantile(0.99), "filling system: shorter tail");
    }

    @Test
    void percentilesOutsideTheOpenIntervalAreRejected() {
        MflbException e = assertThrows(MflbException.class, () -> Percentiles.parse("50,100"));
        assertTrue(e.getMessage().contains("percentiles"), e.getMessage());
        assertThrows(MflbException.class, () -> Percentiles.parse("0"));
        assertThrows(MflbException.class, () -> Percentiles.parse("abc"));
        assertEquals(4, Percentiles.DEFAULT.size());
    }
}
