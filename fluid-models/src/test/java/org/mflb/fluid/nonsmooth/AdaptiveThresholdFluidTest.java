package org.mflb.fluid.nonsmooth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.PiecewiseLinearRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidTransient;

/** The self-learning threshold ([GABL], Section 4; docs/models.md §3) in the fluid limit. */
class AdaptiveThresholdFluidTest {

    /** Gap or deficit integrated at local tolerance 1e-12 (global ≤ 2e-11) over a slope ≥ λ − ⌊λ⌋ ≥ 0.2. */
    private static final double JUMP_TIME_TOL = 1e-10;

    private static FluidModel pools(ArrivalRate lambda, double alpha, int initial) {
        return FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.adaptiveThreshold(alpha, initial), lambda);
    }

    /** The paper's choice for a known λ: α = 0.1 + 0.9λ/(⌊λ⌋+1), which satisfies α(⌊λ⌋+1) &gt; λ. */
    private static double paperAlpha(double lambda) {
        return 0.1 + 0.9 * lambda / (Math.floor(lambda) + 1);
    }

    /**
     * From empty with ℓ(0) = 0 the threshold climbs one level each time level ℓ+1 fills; with
     * the levels below full and nothing above, level k fills at t_k = ln(λ/(λ−k)) (x_k' = λ − (k−1) − x_k),
     * and the threshold settles at ⌊λ⌋ with q → q*.
     */
    @ParameterizedTest
    @ValueSource(doubles = {2.5, 3.7, 1.5, 4.2, 5.5})
    void fromEmptyTheThresholdReachesKAtLogTimes(double lambda) {
        int k = (int) Math.floor(lambda);
        FluidTransient x = pools(ArrivalRate.constant(lambda), paperAlpha(lambda), 0)
                .transientFrom(InitialState.empty(), TimeGrid.of(0, 2, 40));
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        assertEquals(k, jumps.size(), jumps.toString());
        for (int level = 1; level <= k; level++) {
            RegimeHistory.ThresholdJump jump = jumps.get(level - 1);
            assertEquals(level - 1, jump.from());
            assertEquals(level, jump.to());
            assertEquals(Math.log(lambda / (lambda - level)), jump.t(), JUMP_TIME_TOL, "to " + level);
        }
        assertEquals(k, x.regimes().orElseThrow().threshold(2));
        double[] qStar = ThresholdEquilibria.balanced(lambda, 12);
        double[] q = x.tail(2);
        for (int i = 1; i < q.length; i++) {
            assertEquals(i <= qStar.length ? qStar[i - 1] : 0.0, q[i], 1e-10, "level " + i);
        }
        FluidFixedPoint fp = pools(ArrivalRate.constant(lambda), paperAlpha(lambda), 0).fixedPoint();
        assertEquals(k, fp.equilibrium().orElseThrow().threshold().orElseThrow());
        assertEquals(Math.log(lambda / (lambda - k)), fp.equilibrium().orElseThrow().settlingTime().orElseThrow(), JUMP_TIME_TOL);
    }

    /**
     * Integer λ: levels k ≤ λ−1 fill at ln(λ/(λ−k)); level λ is then approached like
     * 1 − x_λ = e^{−(t − t_{λ−1})} (in (b) of ℓ = λ−1, with nothing above) and is never reached in
     * exact arithmetic. It counts as full once within ON_SURFACE = 1e-14 of 1, at
     * t_{λ−1} + ln(1e14); the gap is integrated to relative accuracy, so that time is right to about
     * 1e-9 (relative error of the gap after 32 time units), not decided by the absolute tolerance.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void integerLoadApproachesItsLastLevelAsymptotically(int lambda) {
        FluidTransient x = pools(ArrivalRate.constant(lambda), paperAlpha(lambda), 0)
                .transientFrom(InitialState.empty(), TimeGrid.uniform(60, 0.5));
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        assertEquals(lambda, jumps.size(), jumps.toString());
        for (int level = 1; level < lambda; level++) {
            assertEquals(Math.log((double) lambda / (lambda - level)), jumps.get(level - 1).t(), JUMP_TIME_TOL);
        }
        double last = lambda == 1 ? 0.0 : Math.log(lambda);
        assertEquals(last + Math.log(1 / NonSmoothPolicy.ON_SURFACE), jumps.get(lambda - 1).t(), 1e-7, jumps.toString());
        for (int k = 0; k < x.grid().size(); k++) {
            double t = x.grid().time(k);
            if (t > last + 1 && t < last + 20) {
                // between: still ℓ = λ − 1, the gap decaying exactly like e^{−(t − t_{λ−1})}
                assertEquals(lambda - 1, x.regimes().orElseThrow().threshold(k));
                assertEquals(Math.exp(-(t - last)), 1 - x.tail(k)[lambda], 1e-11 + 1e-9 * Math.exp(-(t - last)));
            }
        }
    }

    /**
     * Started far above ⌊λ⌋ (every pool holding 6 tasks, ℓ(0) = 6) with α(⌊λ⌋+1) &gt; λ: the
     * threshold comes down one level each time x_ℓ falls to α and settles at ⌊λ⌋ ([GABL],
     * Section 4), and q → q*.
     */
    @ParameterizedTest
    @CsvSource({"2.5, 0.9", "3.7, 0.95", "1.5, 0.8"})
    void settlesAtFloorLambdaFromAbove(double lambda, double alpha) {
        int k = (int) Math.floor(lambda);
        assertTrue(alpha * (k + 1) > lambda);
        FluidTransient x = pools(ArrivalRate.constant(lambda), alpha, 6).transientFrom(InitialState.all(6),
                TimeGrid.of(0, 60));
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        assertEquals(6 - k, jumps.size(), jumps.toString());
        for (RegimeHistory.ThresholdJump jump : jumps) {
            assertEquals(jump.from() - 1, jump.to());
            // x_ℓ is exactly α where ℓ drops (event located to the last place; state from dense output)
            assertEquals(alpha, x.tail(jump.t())[jump.from()], 1e-9, "at " + jump);
        }
        assertEquals(k, x.regimes().orElseThrow().threshold(1));
        double[] qStar = ThresholdEquilibria.balanced(lambda, 12);
        double[] q = x.tail(1);
        for (int i = 1; i < q.length; i++) {
            assertEquals(i <= qStar.length ? qStar[i - 1] : 0.0, q[i], 1e-9, "level " + i);
        }
    }

    /**
     * With a small α the threshold may settle above ⌊λ⌋, at an Erlang-B equilibrium of the static
     * policy; [GABL] bounds it by ⌊λ⌋ ≤ ℓ_eq ≤ ⌈λ/α⌉ − 1, and at rest x_ℓ &gt; α and x_{ℓ+1} &lt; 1.
     */
    @ParameterizedTest
    @CsvSource({"2.5, 0.5, 6, all:6", "2.5, 0.3, 8, all:8", "2.5, 0.5, 0, empty", "3.2, 0.4, 7, all:7"})
    void equilibriumThresholdLiesWithinThePaperBounds(double lambda, double alpha, int initial, String init) {
        FluidTransient x = pools(ArrivalRate.constant(lambda), alpha, initial).transientFrom(InitialState.parse(init),
                TimeGrid.of(0, 80));
        int ell = x.regimes().orElseThrow().threshold(1);
        assertTrue(ell >= Math.floor(lambda) && ell <= Math.ceil(lambda / alpha) - 1, "l_eq = " + ell);
        double[] q = x.tail(1);
        assertTrue(q[ell] > alpha && q[ell + 1] < 1, "at rest");
        double[] equilibrium = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(ell), lambda)
                .fixedPoint().levels();
        for (int i = 1; i <= equilibrium.length && i < q.length; i++) {
            assertEquals(equilibrium[i - 1], q[i], 1e-8, "level " + i);
        }
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        double lastJump = jumps.isEmpty() ? 0 : jumps.get(jumps.size() - 1).t();
        assertTrue(lastJump < 40, "settled by t = 40, last jump at " + lastJump);
    }

    /**
     * λ(t) rises from 1.5 to 3.5 over [10, 12], starting at q*(1.5) with ℓ = 1. In (b) of ℓ = 1 with
     * nothing above level 2, x_2' = λ(t) − 1 − x_2, so with s = t − 10: x_2 = s − 0.5 + e^{−s}, which
     * reaches 1 at s* = 1.5 − e^{−s*}: the first jump. The threshold ends at ⌊3.5⌋ = 3 and q at q*(3.5).
     */
    @Test
    void risingLoad() {
        double alpha = 3.5 / 4.5; // the paper's α = λ_max/(λ_max + 1) for an unknown λ(t) ≤ λ_max
        ArrivalRate rising = new PiecewiseLinearRate(new double[] {10, 12}, new double[] {1.5, 3.5});
        FluidTransient x = pools(rising, alpha, 1).transientFrom(InitialState.tail(1, 1, 0.5), TimeGrid.uniform(40, 0.1));
        double s = 1.0;
        for (int i = 0; i < 100; i++) {
            s = 1.5 - Math.exp(-s); // a contraction (derivative e^{−s} ≈ 0.3)
        }
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        assertEquals(10 + s, jumps.get(0).t(), JUMP_TIME_TOL);
        assertEquals(List.of(1, 2), jumps.stream().map(RegimeHistory.ThresholdJump::from).toList());
        assertEquals(3, x.regimes().orElseThrow().threshold(x.grid().size() - 1));
        checkAlongTheWay(x, rising, alpha);
        double[] q = x.tail(x.grid().size() - 1);
        assertEquals(0.5, q[4], 1e-10);
        assertEquals(1.0, q[3], 1e-10);
    }

    /** λ(t) falls from 3.5 to 1.5: the threshold comes down to ⌊1.5⌋ = 1 (α·2 &gt; 1.5), each drop where x_ℓ = α. */
    @Test
    void fallingLoad() {
        double alpha = 3.5 / 4.5;
        ArrivalRate falling = new PiecewiseLinearRate(new double[] {10, 12}, new double[] {3.5, 1.5});
        FluidTransient x = pools(falling, alpha, 3).transientFrom(InitialState.tail(1, 1, 1, 1, 0.5),
                TimeGrid.uniform(60, 0.1));
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        assertEquals(List.of(3, 2), jumps.stream().map(RegimeHistory.ThresholdJump::from).toList());
        assertTrue(jumps.get(0).t() > 10, "nothing happens before the load falls");
        assertEquals(1, x.regimes().orElseThrow().threshold(x.grid().size() - 1));
        checkAlongTheWay(x, falling, alpha);
        double[] q = x.tail(x.grid().size() - 1);
        assertEquals(1.0, q[1], 1e-10);
        assertEquals(0.5, q[2], 1e-10);
    }

    /** λ(t) = 2.5 + 1.2 sin(t/2) through knots every unit of time: the threshold follows the load up and down. */
    @Test
    void oscillatingLoad() {
        double[] t = new double[41];
        double[] rate = new double[41];
        for (int i = 0; i <= 40; i++) {
            t[i] = i;
            rate[i] = 2.5 + 1.2 * Math.sin(0.5 * i);
        }
        ArrivalRate oscillating = new PiecewiseLinearRate(t, rate);
        double alpha = 3.7 / 4.7;
        FluidTransient x = pools(oscillating, alpha, 0).transientFrom(InitialState.empty(), TimeGrid.uniform(40, 0.1));
        List<RegimeHistory.ThresholdJump> jumps = x.regimes().orElseThrow().thresholdJumps();
        long ups = jumps.stream().filter(j -> j.to() > j.from()).count();
        long downs = jumps.size() - ups;
        assertTrue(ups >= 6 && downs >= 4, jumps.toString());
        for (int k = 0; k < x.grid().size(); k++) {
            int ell = x.regimes().orElseThrow().threshold(k);
            if (x.grid().time(k) > jumps.get(0).t()) {
                assertTrue(ell >= 1 && ell <= 3, "between ⌊λ_min⌋ = 1 and ⌊λ_max⌋ = 3 after the start: " + ell);
            }
        }
        checkAlongTheWay(x, oscillating, alpha);
    }

    /**
     * Along a transient under λ(t): u' = λ(t) − u holds (exact solution on each linear piece of λ:
     * u = a − b + b s + (u_0 − a + b) e^{−s} for λ = a + b s); at every up-jump x_{ℓ+1} is 1 and at
     * every down-jump x_ℓ is α; at every grid time neither jump condition holds.
     */
    private static void checkAlongTheWay(FluidTransient x, ArrivalRate lambda, double alpha) {
        double u = x.meanQueueLength(0);
        double previous = x.grid().start();
        for (int k = 1; k < x.grid().size(); k++) {
            double t = x.grid().time(k);
            // knots of these profiles are at integers and at 10, 12: split the interval there
            double from = previous;
            while (from < t) {
                double to = Math.min(t, Math.floor(from + 1e-12) + 1);
                double a = lambda.at(from);
                double b = (lambda.at(to) - a) / (to - from);
                double s = to - from;
                u = a - b + b * s + (u - a + b) * Math.exp(-s);
                from = to;
            }
            previous = t;
            assertEquals(u, x.meanQueueLength(k), 1e-9, "mass at t = " + t);
            double[] q = x.tail(k);
            int ell = x.regimes().orElseThrow().threshold(k);
            assertTrue(q[ell + 1] < 1.0, "x_(l+1) < 1 at " + t);
            assertTrue(ell == 0 || q[ell] > alpha - 1e-12, "x_l > alpha at " + t);
        }
        for (RegimeHistory.ThresholdJump jump : x.regimes().orElseThrow().thresholdJumps()) {
            double[] q = x.tail(jump.t());
            if (jump.to() > jump.from()) {
                assertEquals(1.0, q[jump.to()], 1e-9, "up at " + jump);
            } else {
                assertEquals(alpha, q[jump.from()], 1e-9, "down at " + jump);
            }
        }
        assertFalse(x.regimes().orElseThrow().thresholdJumps().isEmpty());
    }
}
