package org.mflb.fluid.nonsmooth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidTransient;

/** JSQ and JIQ fluid limits (docs/models.md §1–3) in pools and in single-server queues. */
class JsqJiqFluidTest {

    /** After t = 40 (pools) or 60 (queues) the transients have converged to e^{−40}; integration error ≤ 1e-11. */
    private static final double LIMIT_TOL = 1e-10;

    private static FluidModel model(ServerSystem system, NonSmoothPolicy policy, double lambda) {
        return FluidModel.of(system, policy, lambda);
    }

    /**
     * JSQ in pools from empty: the minimum level m = k−1 slides on x_{k−1} = 1 while arrivals beyond
     * the refills fill level k, x_k' = λ − (k−1) − x_k, so x_k = (λ−k+1)(1 − e^{−(t − t_{k−1})}) and
     * level k is full at t_k = ln(λ/(λ−k)).
     */
    @ParameterizedTest
    @ValueSource(doubles = {2.5, 3.7, 4.2})
    void jsqPoolsFillOneLevelAtATimeFromEmpty(double lambda) {
        FluidTransient x = model(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jsq(), lambda)
                .transientFrom(InitialState.empty(), TimeGrid.of(0, 12));
        int k = (int) Math.floor(lambda);
        List<PiecewiseSmoothSolver.Switch> switches = x.regimes().orElseThrow().switches();
        assertEquals(k, switches.size(), switches.toString());
        double previous = 0;
        for (int level = 1; level <= k; level++) {
            double expected = Math.log(lambda / (lambda - level));
            // the gap's integration error (≤ 1e-11) over its slope (≥ λ − k)
            assertEquals(expected, switches.get(level - 1).t(), 1e-10, "level " + level);
            assertEquals(Regime.at(level), switches.get(level - 1).to());
            double mid = 0.5 * (previous + expected);
            double value = (lambda - level + 1) * (1 - Math.exp(-(mid - previous)));
            // Dormand–Prince at local tolerance 1e-12: global errors up to 2e-11 observed
            assertEquals(value, x.tail(mid)[level], 1e-10, "x_" + level + " at " + mid);
            previous = expected;
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.7, 2.5, 3.0, 5.5, 1.0})
    void jsqPoolsConvergeToTheBalancedState(double lambda) {
        FluidModel m = model(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jsq(), lambda);
        double[] qStar = ThresholdEquilibria.balanced(lambda, 12);
        for (String init : new String[] {"empty", "all:8", "tail:1,0.9,0.9,0.2,0.1"}) {
            FluidTransient x = m.transientFrom(InitialState.parse(init), TimeGrid.of(0, 40));
            double[] q = x.tail(1);
            for (int i = 1; i < q.length; i++) {
                assertEquals(i <= qStar.length ? qStar[i - 1] : 0.0, q[i], LIMIT_TOL, init + " level " + i);
            }
        }
        FluidFixedPoint fp = m.fixedPoint();
        assertEquals(SwitchedEquilibrium.Kind.BALANCED, fp.equilibrium().orElseThrow().kind());
        assertTrue(fp.residual() < 1e-12);
        assertEquals(lambda, fp.meanQueueLength(), 1e-14);
    }

    /** du/dt = λ − u in pools for JSQ and JIQ too, through every switch. */
    @ParameterizedTest
    @CsvSource({"jsq, 2.5, all:6", "jsq, 3.0, empty", "jsq, 1.7, 'tail:1,1,1,0.4'", "jiq, 1.5, empty", "jiq, 0.6, all:3",
        "jiq, 0.8, 'tail:1,1,0.9'"})
    void poolMassRelaxesThroughEverySwitch(String policy, double lambda, String init) {
        NonSmoothPolicy p = policy.equals("jsq") ? NonSmoothPolicy.jsq() : NonSmoothPolicy.jiq();
        FluidTransient x = model(ServerSystem.infiniteServerPools(), p, lambda)
                .transientFrom(InitialState.parse(init), TimeGrid.uniform(10, 0.01));
        double u0 = x.meanQueueLength(0);
        for (int k = 0; k < x.grid().size(); k++) {
            double t = x.grid().time(k);
            // 1e-10 of the pieces' integration, and as much from projecting their rounding onto tail vectors
            assertEquals(lambda + (u0 - lambda) * Math.exp(-t), x.meanQueueLength(k), 5e-10, "t = " + t);
        }
        assertTrue(!x.regimes().orElseThrow().switches().isEmpty(), "every case crosses a surface");
    }

    /**
     * Single-server queues, λ &lt; 1: JSQ and JIQ send every arrival to an idle server while there is
     * one, so from empty x_1 = λ(1 − e^{−t}) and nothing queues; from any state the limit is
     * x_1 = λ, x_i = 0 for i ≥ 2. While every server is busy (x_1 = 1) the total obeys
     * du/dt = λ − x_1 = λ − 1: from K jobs per queue u = K − (1 − λ)t.
     */
    @ParameterizedTest
    @CsvSource({"jsq, 0.7", "jiq, 0.7", "jsq, 0.3", "jiq, 0.95"})
    void queuesAtLoadBelowOneEndWithNobodyWaiting(String policy, double lambda) {
        NonSmoothPolicy p = policy.equals("jsq") ? NonSmoothPolicy.jsq() : NonSmoothPolicy.jiq();
        FluidModel m = model(ServerSystem.singleServerQueues(), p, lambda);
        FluidTransient empty = m.transientFrom(InitialState.empty(), TimeGrid.uniform(5, 0.5));
        assertTrue(empty.regimes().orElseThrow().switches().isEmpty());
        for (int k = 0; k < empty.grid().size(); k++) {
            double t = empty.grid().time(k);
            // local tolerance 1e-12: global error up to 2e-11
            assertEquals(lambda * (1 - Math.exp(-t)), empty.tail(k)[1], 1e-10, "x_1(" + t + ")");
            assertEquals(0.0, empty.tail(k)[2], 0.0);
        }
        int jobs = 3;
        FluidTransient full = m.transientFrom(InitialState.all(jobs), TimeGrid.uniform(120, 0.25));
        int busy = 0;
        for (int k = 0; k < full.grid().size(); k++) {
            if (full.tail(k)[1] == 1.0) {
                busy++;
                double t = full.grid().time(k);
                assertEquals(jobs - (1 - lambda) * t, full.meanQueueLength(k), 1e-10, "t = " + t);
            }
        }
        assertTrue(busy > 4, "the drain while every server is busy is observed");
        double[] end = full.tail(full.grid().size() - 1);
        assertEquals(lambda, end[1], LIMIT_TOL);
        for (int i = 2; i < end.length; i++) {
            assertEquals(0.0, end[i], LIMIT_TOL, "level " + i);
        }
        FluidFixedPoint fp = m.fixedPoint();
        assertEquals(lambda, fp.levels()[0], 0.0);
        assertEquals(0.0, fp.levels()[1], 0.0);
        assertEquals(0.0, fp.residual(), 1e-15);
    }

    /**
     * JIQ in pools is the threshold policy with ℓ = 0: fluid-optimal for λ ≤ 1 ((λ, 0, ...) and
     * (1, 0, ...)), and for λ &gt; 1 every pool is busy and the rest is routed at random: the
     * birth–death equilibrium on j ≥ 1 with birth rate λ − π_1, reached from empty after q_1 fills
     * at ln(λ/(λ−1)).
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.4, 1.0, 1.5, 2.5})
    void jiqPools(double lambda) {
        FluidModel m = model(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jiq(), lambda);
        FluidFixedPoint fp = m.fixedPoint();
        FluidTransient x = m.transientFrom(InitialState.empty(), TimeGrid.of(0, 60));
        double[] q = fp.levels();
        double[] end = x.tail(1);
        for (int i = 1; i < end.length; i++) {
            assertEquals(i <= q.length ? q[i - 1] : 0.0, end[i], 1e-9, "level " + i);
        }
        if (lambda <= 1) {
            assertEquals(SwitchedEquilibrium.Kind.BALANCED, fp.equilibrium().orElseThrow().kind());
            assertEquals(Math.min(lambda, 1.0), q[0], 0.0);
        } else {
            assertEquals(SwitchedEquilibrium.Kind.UNBOUNDED_SUPPORT, fp.equilibrium().orElseThrow().kind());
            assertEquals(Math.log(lambda / (lambda - 1)), x.regimes().orElseThrow().switches().get(0).t(), 1e-10);
            assertEquals(Regime.above(0), x.regimes().orElseThrow().switches().get(0).to());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold", "adaptive"})
    void thresholdPoliciesNeedPools(String which) {
        NonSmoothPolicy p = which.equals("threshold") ? NonSmoothPolicy.threshold(2) : NonSmoothPolicy.adaptiveThreshold(0.5, 0);
        MflbException e = assertThrows(MflbException.class, () -> model(ServerSystem.singleServerQueues(), p, 0.5));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals("system", e.parameter());
        e = assertThrows(MflbException.class, () -> model(ServerSystem.lossPools(3), NonSmoothPolicy.jsq(), 0.5));
        assertEquals("system", e.parameter());
        e = assertThrows(MflbException.class,
                () -> model(ServerSystem.singleServerQueues(), NonSmoothPolicy.jsq(), 1.2).fixedPoint());
        assertEquals("lambda", e.parameter());
    }
}
