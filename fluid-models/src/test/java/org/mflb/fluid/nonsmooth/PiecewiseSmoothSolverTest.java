package org.mflb.fluid.nonsmooth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.PiecewiseLinearRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.core.system.ServerSystem;

/**
 * What the solver does besides integrating (issue 18): the state between grid times integrated from
 * the grid time before with the piece and threshold in force there; grid times and ends that fall on
 * a switch; and linear pieces at rest, whose grid is filled with their rest point.
 */
class PiecewiseSmoothSolverTest {

    /** Two integrations at local tolerance 1e-12 through a few hundred steps and jumps, as in the jump tests. */
    private static final double TOL = 1e-9;

    /** Issue 5's falling load: the learning threshold climbs to 4 and drops back (α = 9/11). */
    private static final PiecewiseLinearRate FALLING = new PiecewiseLinearRate(new double[] {0, 4, 5, 6, 7, 8, 9, 12, 18},
            new double[] {1.5, 4.5, 3.5, 4.5, 3.5, 4.5, 4.5, 2, 2});

    private static FluidModel adaptive() {
        return FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.adaptiveThreshold(9.0 / 11, 0), FALLING);
    }

    private static double level(double[] x, int j) {
        return j < x.length ? x[j] : 0.0;
    }

    private static double[] mu(int levels) {
        double[] mu = new double[levels];
        for (int j = 1; j <= levels; j++) {
            mu[j - 1] = j;
        }
        return mu;
    }

    /**
     * Off the grid, a coarse run (dt = 0.5) agrees with a fine one (dt = 0.05) at its grid times. At
     * some of them the threshold in force is not the one the rule settles at from the state itself
     * (from ℓ(0) = 0): it depends on the path, so it is carried from the grid time before.
     */
    @Test
    void betweenGridTimesTheRunRestartsFromTheGridTimeBeforeWithItsThreshold() {
        FluidTransient coarse = adaptive().transientFrom(InitialState.empty(), TimeGrid.uniform(18, 0.5));
        FluidTransient fine = adaptive().transientFrom(InitialState.empty(), TimeGrid.uniform(18, 0.05));
        RegimeHistory regimes = fine.regimes().orElseThrow();
        AdaptiveThreshold rule = NonSmoothPolicy.adaptiveThreshold(9.0 / 11, 0);
        int pathDependent = 0;
        for (int k = 0; k < fine.grid().size(); k++) {
            double t = fine.grid().time(k);
            double[] x = fine.state(k);
            double[] between = coarse.stateAt(t);
            for (int j = 0; j < x.length; j++) {
                assertEquals(x[j], between[j], TOL, "x_" + (j + 1) + " at t = " + t);
            }
            if (rule.initialRegime(FALLING.at(t), mu(x.length), x.clone()).threshold() != regimes.threshold(k)) {
                pathDependent++;
            }
        }
        assertTrue(pathDependent > 0, "no grid time where the threshold depends on the path");
    }

    /**
     * A run whose grid has a time, or ends, exactly at a located switch (the threshold's jumps under
     * the falling load, and the (c) → (b) → (a) switches of threshold 4 from all:7) integrates no
     * empty stretch, and agrees with the run that located it.
     */
    @ParameterizedTest
    @CsvSource({"adaptive, 18", "threshold, 6"})
    void aGridTimeOrAnEndOnASwitch(String which, double tEnd) {
        FluidModel model = which.equals("adaptive") ? adaptive()
                : FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(4), 2.5);
        InitialState start = InitialState.parse(which.equals("adaptive") ? "empty" : "all:7");
        FluidTransient run = model.transientFrom(start, TimeGrid.uniform(tEnd, 0.5));
        List<PiecewiseSmoothSolver.Switch> switches = run.regimes().orElseThrow().switches();
        assertTrue(switches.size() >= 2, switches.toString());
        for (PiecewiseSmoothSolver.Switch s : switches) {
            double after = Math.min(s.t() + 0.25, tEnd);
            FluidTransient ending = model.transientFrom(start, TimeGrid.of(0, s.t()));
            FluidTransient passing = model.transientFrom(start, TimeGrid.of(0, s.t(), after));
            double[] at = run.stateAt(s.t());
            double[] later = run.stateAt(after);
            // the shorter runs may keep fewer levels (sized for the λ of their own span)
            for (int j = 0; j < at.length; j++) {
                assertEquals(at[j], level(ending.state(1), j), TOL, "x_" + (j + 1) + " at " + s);
                assertEquals(at[j], level(passing.state(1), j), TOL, "x_" + (j + 1) + " at " + s);
                assertEquals(later[j], level(passing.state(2), j), TOL, "x_" + (j + 1) + " after " + s);
            }
        }
    }

    /**
     * Regime (b) of JSQ (λ = 2.5) and regime (a) of threshold 1 (λ = 0.7) are linear: at constant λ their
     * grid is filled with the rest point once the solution is provably within 1e-2 of the tolerance of
     * it. That rest point is the closed-form equilibrium, at t = 200 and t = 10^5 alike, and until then
     * the run agrees with one integrated all the way (the same λ given as a function of time, which
     * the solver cannot know to be constant), whose own error at rest is of order 1e-10.
     */
    @ParameterizedTest
    @CsvSource({"jsq, 2.5", "threshold1, 0.7"})
    void aLinearPieceAtRestFillsTheGridWithItsRestPoint(String policy, double lambda) {
        NonSmoothPolicy rule = policy.equals("jsq") ? NonSmoothPolicy.jsq() : NonSmoothPolicy.threshold(1);
        FluidModel model = FluidModel.of(ServerSystem.infiniteServerPools(), rule, lambda);
        FluidTransient filled = model.transientFrom(InitialState.empty(), TimeGrid.of(0, 10, 30, 60, 200, 1e5));
        FluidTransient integrated = FluidModel.of(ServerSystem.infiniteServerPools(), rule, (ArrivalRate) t -> lambda)
                .transientFrom(InitialState.empty(), TimeGrid.of(0, 10, 30, 60, 200));
        double[] rest = policy.equals("jsq") ? ThresholdEquilibria.balanced(lambda, filled.truncation())
                : ThresholdEquilibria.erlangB(1, lambda, filled.truncation());
        for (int k = 0; k < integrated.grid().size(); k++) {
            double[] x = filled.state(k);
            double[] y = integrated.state(k);
            for (int j = 0; j < x.length; j++) {
                assertEquals(y[j], x[j], 1e-10, "x_" + (j + 1) + " at t = " + filled.grid().time(k));
            }
        }
        for (double t : new double[] {200, 1e5, 5e4}) {
            double[] x = filled.stateAt(t);
            for (int j = 0; j < x.length; j++) {
                assertEquals(rest[j], x[j], 1e-14, "x_" + (j + 1) + " at t = " + t);
            }
        }
    }

    /**
     * Past the last knot of a piecewise-linear λ(t) (1.5 rising to 2.5 at t = 5, constant after it) the
     * rate is constant too: JSQ rests in regime (b) on x_2 = 1 at its closed-form fixed point, to the
     * last digits (Dormand–Prince integrated to t = 10^5 is off by about 6e-13 there).
     */
    @Test
    void pastTheLastKnotOfLambdaTheRateIsConstantToo() {
        PiecewiseLinearRate rising = new PiecewiseLinearRate(new double[] {0, 5}, new double[] {1.5, 2.5});
        FluidTransient x = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jsq(), rising)
                .transientFrom(InitialState.empty(), TimeGrid.of(0, 1e5));
        double[] rest = ThresholdEquilibria.balanced(2.5, x.truncation());
        for (int j = 0; j < rest.length; j++) {
            assertEquals(rest[j], x.state(1)[j], 1e-14, "x_" + (j + 1));
        }
    }
}
