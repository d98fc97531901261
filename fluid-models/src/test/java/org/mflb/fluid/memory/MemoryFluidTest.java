package org.mflb.fluid.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.model.PiecewiseLinearRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.core.system.ServerSystem;

/**
 * SQ(d) with memory (docs/models.md §1a): the tagged-server fixed point against the closed forms of
 * the model and of Anselmi–Dufour's abstract, and the piecewise-smooth transient against the fixed
 * point, the closed-form transient from empty, conservation of jobs and the two switching surfaces.
 */
class MemoryFluidTest {

    private static MemoryModel model(int d, double lambda) {
        return MemoryModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(d), lambda);
    }

    /** {@code ⌈−ln(1−λ)/ln(1+λd)⌉}, written out independently of the policy. */
    private static int bound(int d, double lambda) {
        return (int) Math.ceil(-Math.log(1 - lambda) / Math.log(1 + lambda * d));
    }

    @ParameterizedTest
    @CsvSource({"2,0.2", "2,0.5", "2,0.7", "2,0.8", "2,0.9", "2,0.95", "2,0.99", "2,0.995", "3,0.3", "3,0.6",
        "3,0.66", "3,0.7", "3,0.9", "3,0.97", "3,0.995", "5,0.85", "1,0.5"})
    void fixedPointSatisfiesTheClosedForms(int d, double lambda) {
        MemoryFixedPoint fp = model(d, lambda).fixedPoint();
        double[] x = fp.levels();
        assertEquals(lambda, x[0], 1e-14, "x_1 = λ");
        assertTrue(fp.residual() < 1e-14, "residual " + fp.residual());
        assertEquals(Math.min(1, d * (1 - lambda)), fp.believedIdleShare(), 1e-14, "believed-idle share");
        assertEquals(1.0 / d, fp.meanObservationExcess(), 1e-14, "E[m − Q]");
        assertEquals(Math.max(1, bound(d, lambda)), fp.maxQueueLength(), "max queue length");
        assertEquals(fp.maxQueueLength() - 1, fp.memoryLevel());
        // Little's law: a job's mean response time 1 + Σ_{j≥1} s_j equals E[Q]/λ
        double[] s = fp.joinShares();
        double found = 0;
        for (int j = 1; j < s.length; j++) {
            found += s[j];
        }
        assertEquals(fp.meanQueueLength() / lambda, 1 + found, 1e-13, "Little's law");
        assertEquals(1 - s[1], fp.idleShare(), 1e-14, "idle share = s_0 − s_1");
        boolean optimal = lambda <= 1 - 1.0 / d;
        assertEquals(optimal, fp.memoryLevel() == 0);
        if (optimal) {
            assertTrue(x.length == 1 || x[1] == 0, "x_2 = 0");
            assertEquals(1.0, fp.idleShare(), 1e-15, "every job reaches an idle server");
            double[][] y = fp.state();
            assertEquals(1 - lambda - 1.0 / d, y[0][0], 1e-15);
            assertEquals(1.0 / d, y[1][0], 1e-15);
            assertEquals(lambda, y[1][1], 1e-15);
        } else {
            int level = fp.memoryLevel();
            double alpha = fp.alpha();
            double beta = lambda * d;
            assertEquals(alpha * beta / ((1 + alpha) * (1 + beta)), x[level], 1e-14, "x_{L+1}");
            assertTrue(fp.idleShare() < 1 && fp.idleShare() > fp.believedIdleShare(),
                    "idle share " + fp.idleShare() + " in (believed-idle share, 1)");
        }
    }

    @Test
    void fixedPointsOfTheModelDocumentation() {
        MemoryFixedPoint fp = model(2, 0.9).fixedPoint();
        double[] x = fp.levels();
        assertEquals(3, x.length);
        assertEquals(0.9, x[0], 1e-15);
        assertEquals(0.700351, x[1], 5e-7);
        assertEquals(0.121057, x[2], 5e-7);
        assertEquals(1.721408, fp.meanQueueLength(), 5e-7);
        assertEquals(0.360402, model(2, 0.8).fixedPoint().levels()[1], 5e-7);
    }

    @Test
    void queueLengthsAreBoundedAsTheAbstractStates() {
        assertEquals(5, model(2, 0.995).fixedPoint().maxQueueLength());
        assertEquals(4, model(3, 0.995).fixedPoint().maxQueueLength());
        assertEquals(5, MemoryPolicy.of(2).queueBound(0.995));
        assertEquals(4, MemoryPolicy.of(3).queueBound(0.995));
    }

    /** The level L jumps at the roots of (1 − λ)(1 + λd)^L = 1 (found here by bisection). */
    @Test
    void levelJumpsAtTheThresholds() {
        double[] documented = {0.5, 0.866025, 0.959820, 0.987225, 0.995827};
        for (int d = 2; d <= 3; d++) {
            for (int level = 1; level <= 5; level++) {
                double lo = 0;
                double hi = 1;
                for (int it = 0; it < 200; it++) {
                    double mid = 0.5 * (lo + hi);
                    if ((1 - mid) * Math.pow(1 + mid * d, level) > 1) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                double root = mid(lo, hi);
                if (d == 2) {
                    assertEquals(documented[level - 1], root, 5e-7, "λ_" + level);
                }
                assertEquals(level - 1, model(d, root - 1e-9).fixedPoint().memoryLevel(), "below λ_" + level);
                assertEquals(level, model(d, root + 1e-9).fixedPoint().memoryLevel(), "above λ_" + level);
            }
        }
    }

    private static double mid(double a, double b) {
        return 0.5 * (a + b);
    }

    /** The piecewise-smooth ODE's long-time limit is the chain's fixed point, from any start. */
    @ParameterizedTest
    @CsvSource({"2,0.9,empty,300", "2,0.9,memory:0/3=1,300", "3,0.8,memory:0/4=0.5;4/4=0.5,200",
        "2,0.4,all:3,150", "3,0.95,empty,500", "2,0.7,memory:0/2=0.3;1/3=0.3;3/3=0.4,200"})
    void longTimeLimitIsTheChainsFixedPoint(int d, double lambda, String init, double horizon) {
        MemoryModel m = model(d, lambda);
        String spec = init.replace(';', ',');
        TimeGrid grid = TimeGrid.of(0, horizon);
        MemoryTransient run = MemoryState.isMemoryForm(spec) ? m.transientFrom(MemoryState.parse(spec), grid)
                : m.transientFrom(InitialState.parse(spec), grid);
        MemoryFixedPoint fp = m.fixedPoint();
        double[] limit = run.levels(1);
        double[] x = fp.levels();
        for (int i = 0; i < limit.length; i++) {
            assertEquals(i < x.length ? x[i] : 0.0, limit[i], 1e-10, "x_" + (i + 1));
        }
        double[][] y = run.state(1);
        double[][] yStar = fp.state();
        for (int j = 0; j < y.length; j++) {
            for (int i = 0; i <= j; i++) {
                double expected = j < yStar.length ? yStar[j][i] : 0.0;
                assertEquals(expected, y[j][i], 1e-10, "y_{" + i + "," + j + "}");
            }
        }
        assertEquals(fp.memoryLevel(), run.activeLevel(1));
        assertEquals(fp.idleShare(), run.idleShare(1), 1e-9);
    }

    /** From empty with λ ≤ 1 − 1/d every job reaches an idle server: x_1(t) = λ(1 − e^{−t}), x_2 ≡ 0. */
    @ParameterizedTest
    @CsvSource({"2,0.5", "2,0.3", "3,0.6"})
    void fromEmptyBelowTheOptimalLoadEveryJobFindsAnIdleServer(int d, double lambda) {
        MemoryTransient run = model(d, lambda).transientFrom(InitialState.empty(), TimeGrid.uniform(20, 0.5));
        assertTrue(run.switches().isEmpty(), run.switches().toString());
        for (int k = 0; k < run.grid().size(); k++) {
            double t = run.grid().time(k);
            double[] x = run.levels(k);
            assertEquals(lambda * (1 - Math.exp(-t)), x[0], 1e-10, "x_1(" + t + ")");
            assertEquals(0.0, x[1], 1e-15, "x_2(" + t + ")");
            assertEquals(1.0, run.idleShare(k), 1e-12);
            assertEquals(1.0, run.believedIdleShare(k), 0.0);
        }
        assertEquals(lambda * (1 - Math.exp(-7.25)), run.levelsAt(7.25)[0], 1e-10, "dense output");
    }

    /**
     * Both switches are located on their surfaces: from every server loaded with 3 jobs at λ = 0.6 the
     * pool share F_ℓ reaches 0 as the queues drain; from stale memory (idle servers believed loaded)
     * the active level fills and empties. The surfaces are recomputed here from the state.
     */
    @Test
    void switchesLieOnTheirSurfaces() {
        for (String init : new String[] {"all:3", "memory:0/3=1", "memory:0/2=0.5,2/2=0.5"}) {
            MemoryModel m = model(2, init.equals("all:3") ? 0.6 : 0.85);
            MemoryTransient run = init.startsWith("memory:") ? m.transientFrom(MemoryState.parse(init), TimeGrid.of(0, 40))
                    : m.transientFrom(InitialState.parse(init), TimeGrid.of(0, 40));
            List<MemorySwitch> switches = run.switches();
            assertTrue(!switches.isEmpty(), init);
            for (MemorySwitch s : switches) {
                double[][] y = stateJustBefore(run, s.t());
                if (s.cause() == MemorySwitch.Cause.POOL_EXHAUSTED) {
                    assertEquals(0.0, poolShare(y, 2, s.from()), 1e-10, init + " F at " + s);
                    assertTrue(s.to() < s.from());
                } else {
                    double mass = 0;
                    for (int i = 0; i <= s.from(); i++) {
                        mass += y[s.from()][i];
                    }
                    assertEquals(0.0, mass, 1e-10, init + " M at " + s);
                    assertTrue(s.to() > s.from());
                }
            }
            if (init.equals("all:3")) {
                assertTrue(switches.stream().anyMatch(s -> s.cause() == MemorySwitch.Cause.POOL_EXHAUSTED), switches.toString());
            }
        }
    }

    private static double[][] stateJustBefore(MemoryTransient run, double t) {
        double[] x = run.levelsAt(t); // exercises the dense output at the switch
        assertTrue(x.length > 0);
        MemoryTransient piece = run.model().transientFrom(MemoryState.of(run.state(0)), TimeGrid.of(0, t));
        return piece.state(1);
    }

    /** {@code F_k = 1 − d Σ_{m=1}^{k} (1 − x_m)} from rows {@code y[j][i]}. */
    private static double poolShare(double[][] y, int d, int k) {
        double[] z = new double[y.length];
        for (int j = 0; j < y.length; j++) {
            for (int i = 0; i <= j; i++) {
                z[i] += y[j][i];
            }
        }
        double f = 1;
        double gap = 0;
        for (int m = 1; m <= k; m++) {
            gap += z[m - 1];
            f -= d * gap;
        }
        return f;
    }

    /**
     * Conservation along a stale-memory transient: the shares sum to 1, and jobs obey
     * dE[Q]/dt = λ − x_1 (trapezoidal rule on a fine grid).
     */
    @Test
    void staleMemoryTransientConservesServersAndJobs() {
        double lambda = 0.9;
        MemoryTransient run = model(3, lambda).transientFrom(MemoryState.parse("memory:0/4=0.6,2/4=0.2,4/4=0.2"),
                TimeGrid.uniform(30, 0.005));
        double integral = 0;
        for (int k = 0; k < run.grid().size(); k++) {
            double total = 0;
            for (double[] row : run.state(k)) {
                for (double v : row) {
                    total += v;
                }
            }
            assertEquals(1.0, total, 1e-12, "Σ y at " + run.grid().time(k));
            if (k > 0) {
                double h = run.grid().time(k) - run.grid().time(k - 1);
                integral += 0.5 * h * ((lambda - run.levels(k)[0]) + (lambda - run.levels(k - 1)[0]));
                assertEquals(run.meanQueueLength(0) + integral, run.meanQueueLength(k), 1e-5, "jobs at " + run.grid().time(k));
            }
            double[] s = run.joinShares(k);
            assertEquals(1.0, s[0], 0.0);
            for (int j = 1; j < s.length; j++) {
                assertTrue(s[j] <= s[j - 1] + 1e-15 && s[j] >= -1e-15, "s_" + j);
            }
        }
        // every idle server is believed loaded at t = 0: the first jobs go to servers believed idle after sampling
        assertEquals(1.0, run.idleShare(0), 1e-12);
    }

    /** Under a piecewise-linear λ(t) that crosses 1 − 1/d both ways, jobs obey dE[Q]/dt = λ(t) − x_1. */
    @Test
    void timeVaryingLoadConservesJobs() {
        PiecewiseLinearRate rate = new PiecewiseLinearRate(new double[] {0, 10, 20, 30}, new double[] {0.3, 0.95, 0.95, 0.3});
        MemoryTransient run = MemoryModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(2), rate)
                .transientFrom(InitialState.empty(), TimeGrid.uniform(40, 0.005));
        double integral = 0;
        for (int k = 1; k < run.grid().size(); k++) {
            double a = run.grid().time(k - 1);
            double b = run.grid().time(k);
            integral += 0.5 * (b - a) * (rate.at(a) - run.levels(k - 1)[0] + rate.at(b) - run.levels(k)[0]);
            assertEquals(integral, run.meanQueueLength(k), 1e-5, "jobs at " + b);
        }
        assertTrue(run.switches().stream().anyMatch(s -> s.to() > s.from()), "the active level rises");
        assertTrue(run.switches().stream().anyMatch(s -> s.cause() == MemorySwitch.Cause.POOL_EXHAUSTED),
                "and falls as the load drops: " + run.switches());
        assertEquals(0, run.activeLevel(run.grid().size() - 1));
    }

    /** The one fluid API gives the same numbers, with the memory results reachable without casts. */
    @Test
    void oneFluidApiServesTheMemoryPolicy() {
        FluidModel api = FluidModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(2), 0.9);
        FluidFixedPoint fp = api.fixedPoint();
        MemoryFixedPoint direct = model(2, 0.9).fixedPoint();
        assertEquals(java.util.Arrays.toString(direct.levels()), java.util.Arrays.toString(fp.levels()));
        assertEquals(2, fp.memory().orElseThrow().memoryLevel());
        assertEquals(direct.residual(), fp.residual(), 0.0);
        assertTrue(fp.equilibrium().isEmpty() && fp.smoothDrift().isEmpty());
        TimeGrid grid = TimeGrid.uniform(10, 1);
        FluidTransient tr = api.transientFrom(MemoryState.parse("memory:0/3=1"), grid);
        MemoryTransient directRun = model(2, 0.9).transientFrom(MemoryState.parse("memory:0/3=1"), grid);
        assertEquals(java.util.Arrays.toString(directRun.levels(10)), java.util.Arrays.toString(tr.state(10)));
        assertEquals(directRun.levelsAt(4.5)[0], tr.stateAt(4.5)[0], 0.0);
        assertEquals(0.0, tr.cutOffMass());
        assertEquals(directRun.switches(), tr.memory().orElseThrow().switches());
        assertEquals(api.transientFrom(InitialState.empty(), grid).tail(5.0)[1],
                model(2, 0.9).transientFrom(InitialState.empty(), grid).tail(5.0)[1], 0.0);
        assertEquals("system", assertThrows(MflbException.class,
                () -> FluidModel.of(ServerSystem.infiniteServerPools(), MemoryPolicy.of(2), 0.9)).parameter());
        assertEquals("init", assertThrows(MflbException.class, () -> FluidModel.of(ServerSystem.singleServerQueues(),
                org.mflb.fluid.PowerOfD.withReplacement(2), 0.9).transientFrom(MemoryState.parse("memory:0/1=1"), grid))
                .parameter());
    }

    @Test
    void invalidInputsAreRefusedWithTheirParameter() {
        MflbException unstable = assertThrows(MflbException.class, () -> model(2, 1.0).fixedPoint());
        assertTrue(unstable.parameter().equals("lambda"), unstable.getMessage());
        MflbException pools = assertThrows(MflbException.class,
                () -> MemoryModel.of(ServerSystem.infiniteServerPools(), MemoryPolicy.of(2), 0.5));
        assertEquals("system", pools.parameter());
        assertEquals("d", assertThrows(MflbException.class, () -> MemoryPolicy.of(0)).parameter());
        for (String bad : new String[] {"memory:1/0=1", "memory:0/1=0.5", "memory:0/1", "memory:a/b=1", "tail:1"}) {
            MflbException e = assertThrows(MflbException.class, () -> MemoryState.parse(bad), bad);
            assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
            assertEquals("init", e.parameter());
        }
        assertEquals("memory:0/3=1.0", MemoryState.parse(" memory:0/3=1 ").toString());
        // overload: the queues grow like (λ − 1)t, so a long run would need thousands of levels: refused at once
        MflbException growth = assertThrows(MflbException.class,
                () -> model(2, 3.0).transientFrom(InitialState.empty(), TimeGrid.of(0, 1000)));
        assertEquals(ErrorKind.TRUNCATION, growth.kind());
        assertEquals("t-end", growth.parameter());
    }
}
