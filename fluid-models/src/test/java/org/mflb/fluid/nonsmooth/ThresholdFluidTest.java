package org.mflb.fluid.nonsmooth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.events.Action;
import org.hipparchus.ode.events.AdaptableInterval;
import org.hipparchus.ode.events.ODEEventDetector;
import org.hipparchus.ode.events.ODEEventHandler;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.hipparchus.analysis.UnivariateFunction;
import org.hipparchus.analysis.solvers.BracketedUnivariateSolver;
import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidTransient;

/** The static threshold policy in pools against the facts of [GABL], Section 3. */
class ThresholdFluidTest {

    /**
     * Integrator tolerance 1e-12 per step, a few hundred steps, and at most 1e-14 of mass moved at
     * each switch (levels within ON_SURFACE of 1 are pinned): the observed worst error is 3.5e-11.
     */
    /**
     * The pieces conserve du/dt = λ − u to about 1e-10; the output's projection onto tail vectors
     * (clamping the pieces' rounding, e.g. −1e-10 at an empty level) moves the mass by as much again.
     */
    private static final double MASS_TOL = 5e-10;

    /** States after t = 40: e^{−40} ≈ 4e-18, so what is left is the integration error (≤ 1e-11 observed). */
    private static final double LIMIT_TOL = 1e-10;

    private static FluidModel pools(int ell, double lambda) {
        return FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(ell), lambda);
    }

    /**
     * u = Σ q_i obeys du/dt = λ − u whatever the piece ([GABL], Lemma 1): u(t) = λ + (u(0) − λ)e^{−t}.
     * The initial states cross every surface: (a) → (b) from empty; (c) → (b) from all pools holding
     * 6; (c) → (b) → (a) from all:7 with ℓ = 4; (b) → (c) for JIQ from empty; (c) → (b) for JIQ at
     * λ &lt; 1; integer λ where the surface is approached like e^{−t}.
     */
    @ParameterizedTest
    @CsvSource({"2, 2.5, empty", "2, 2.5, all:6", "3, 2.5, all:1", "1, 2.5, empty", "2, 2.5, 'tail:1,1,0.7,0.5,0.2'",
        "0, 1.5, empty", "0, 0.6, all:2", "4, 2.5, all:7", "2, 3.0, empty", "2, 3.0, all:5", "3, 3.0, all:8",
        "5, 5.0, 'tail:1,0.9,0.9,0.2,0.1'"})
    void totalMassRelaxesThroughEverySwitch(int ell, double lambda, String init) {
        FluidTransient x = pools(ell, lambda).transientFrom(InitialState.parse(init), TimeGrid.uniform(12, 0.01));
        double u0 = x.meanQueueLength(0);
        double worst = 0;
        for (int k = 0; k < x.grid().size(); k++) {
            double t = x.grid().time(k);
            worst = Math.max(worst, Math.abs(x.meanQueueLength(k) - (lambda + (u0 - lambda) * Math.exp(-t))));
        }
        assertTrue(worst < MASS_TOL, "mass error " + worst + " with " + x.regimes().orElseThrow().switches().size() + " switches");
        // at the switch instants and half-way between grid times (continuous output, lower gaps re-integrated)
        for (PiecewiseSmoothSolver.Switch s : x.regimes().orElseThrow().switches()) {
            assertEquals(lambda + (u0 - lambda) * Math.exp(-s.t()), x.meanQueueLength(s.t()), MASS_TOL, "at " + s);
        }
        for (double t = 0.005; t < 12; t += 0.37) {
            assertEquals(lambda + (u0 - lambda) * Math.exp(-t), x.meanQueueLength(t), MASS_TOL, "t = " + t);
        }
    }

    /**
     * The sequences of pieces, with closed-form switch times where they exist. ℓ = 1 from empty: all
     * arrivals go to idle pools, q_1 = λ(1 − e^{−t}) reaches 1 at ln(λ/(λ−1)); in (b) 1 − q_2 obeys
     * g' = −g + 2 − λ (q_3 = 0), from 1, and reaches 0 after ln((λ−1)/(λ−2)); with λ = 2.5 > h = 2 the
     * solution then stays in (c). Every switch out of a sliding piece happens where its excess r
     * vanishes: λ = ℓ(1 − q_h) leaving (b), λ = h(1 − q_{h+1}) leaving (c).
     */
    @Test
    void piecesFollowEachOtherAtTheSurfaces() {
        FluidTransient one = pools(1, 2.5).transientFrom(InitialState.empty(), TimeGrid.of(0, 10));
        List<PiecewiseSmoothSolver.Switch> s = one.regimes().orElseThrow().switches();
        assertEquals(2, s.size(), s.toString());
        assertEquals(Regime.at(1), s.get(0).to());
        assertEquals(Regime.above(1), s.get(1).to());
        // integration error of the gap (≤ 1e-11) over its slope (≥ 0.5)
        assertEquals(Math.log(2.5 / 1.5), s.get(0).t(), 1e-10);
        assertEquals(Math.log(2.5 / 0.5), s.get(1).t(), 1e-10);

        FluidTransient four = pools(4, 2.5).transientFrom(InitialState.all(7), TimeGrid.of(0, 10));
        s = four.regimes().orElseThrow().switches();
        assertEquals(List.of(Regime.above(4), Regime.at(4), Regime.below(4)),
                List.of(four.regimes().orElseThrow().regime(0), s.get(0).to(), s.get(1).to()));
        double[] q = four.tail(s.get(0).t());
        assertEquals(2.5, 5 * (1 - q[6]), 1e-9, "(c) ends where p_h reaches 1");
        q = four.tail(s.get(1).t());
        assertEquals(2.5, 4 * (1 - q[5]), 1e-9, "(b) ends where p_l reaches 1");
        assertEquals(Regime.below(4), four.regimes().orElseThrow().regime(1));
    }

    @ParameterizedTest
    @CsvSource({"2.5, 2", "3.7, 3", "0.6, 0", "1.2, 1", "5.5, 5", "3.0, 3", "3.0, 2", "2.0, 2", "2.0, 1", "1.0, 1",
        "1.0, 0"})
    void floorLambdaIsFluidOptimal(double lambda, int ell) {
        double[] qStar = ThresholdEquilibria.balanced(lambda, 12);
        for (String init : new String[] {"empty", "all:8", "tail:1,0.9,0.9,0.2,0.1"}) {
            FluidTransient x = pools(ell, lambda).transientFrom(InitialState.parse(init), TimeGrid.of(0, 40));
            double[] q = x.tail(1);
            for (int i = 1; i < q.length; i++) {
                assertEquals(i <= qStar.length ? qStar[i - 1] : 0.0, q[i], LIMIT_TOL, init + " level " + i);
            }
        }
        FluidFixedPoint fp = pools(ell, lambda).fixedPoint();
        assertEquals(SwitchedEquilibrium.Kind.BALANCED, fp.equilibrium().orElseThrow().kind());
        assertTrue(fp.residual() < 1e-12, "residual " + fp.residual());
        assertTrue(fp.equilibrium().orElseThrow().diagnosis().isEmpty());
    }

    /** From empty with λ > ℓ regime (a) fills levels 1..ℓ together: x_ℓ reaches 1 at ln(λ/(λ−ℓ)). */
    @ParameterizedTest
    @CsvSource({"2, 2.5", "3, 3.7", "1, 1.5", "4, 6.0", "2, 3.0", "5, 5.5"})
    void firstSwitchFromEmpty(int ell, double lambda) {
        FluidTransient x = pools(ell, lambda).transientFrom(InitialState.empty(), TimeGrid.of(0, 10));
        PiecewiseSmoothSolver.Switch first = x.regimes().orElseThrow().switches().get(0);
        assertEquals(Regime.at(ell), first.to());
        // the deficit G obeys G' = ℓ − λ − G: its integration error (≤ 1e-11) over |G'| ≥ λ − ℓ
        assertEquals(Math.log(lambda / (lambda - ell)), first.t(), 1e-10);
    }

    /**
     * Regime (a) is integrated through its deficit, with the split below ℓ by Radau IIA. An
     * independent integration of [GABL] eq. (2)(a) itself, in the time τ with dt/dτ = 1 − q_ℓ
     * (where its drift is polynomial), by Dormand–Prince at tolerance 1e-13, must agree — also a
     * hair before the switch, where 1 − q_ℓ is 1e-4 and the lower gaps relax at rate λ/1e-4.
     */
    @ParameterizedTest
    @CsvSource({"3, 3.7, empty", "4, 4.5, empty", "3, 3.7, 'tail:1,0.9,0.9,0.2,0.1'", "4, 2.5, all:1", "3, 2.9, empty"})
    void regimeASplitAgreesWithDirectIntegration(int ell, double lambda, String init) {
        int levels = 30;
        FluidTransient x = pools(ell, lambda).withTruncation(org.mflb.fluid.Truncation.fixed(levels))
                .transientFrom(InitialState.parse(init), TimeGrid.of(0, 8));
        double end = x.regimes().orElseThrow().switches().isEmpty() ? 3.0 : x.regimes().orElseThrow().switches().get(0).t();
        for (double t : new double[] {0.1 * end, 0.5 * end, 0.9 * end, end - 1e-3, end - 1e-4}) {
            if (!x.regimes().orElseThrow().switches().isEmpty() || t < end - 1e-2) {
                double[] reference = directRegimeA(ell, lambda, InitialState.parse(init).levels(levels), t);
                double[] q = x.stateAt(t);
                double gap = 1 - q[ell - 1];
                for (int i = 0; i < levels; i++) {
                    // both integrations accurate to ~1e-12; the switch-side points have 1 − q_ℓ ≥ 1e-4·(λ − ℓ)
                    assertEquals(reference[i], q[i], 2e-11, "t = " + t + " (1 - q_l = " + gap + ") level " + (i + 1));
                }
            }
        }
    }

    /** [GABL] eq. (2)(a) in the time τ, dt/dτ = s = 1 − q_ℓ: dq_i/dτ = λ(q_{i−1} − q_i)[i ≤ ℓ] − s i (q_i − q_{i+1}). */
    private static double[] directRegimeA(int ell, double lambda, double[] q0, double tEnd) {
        int k = q0.length;
        OrdinaryDifferentialEquation ode = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return k + 1;
            }

            @Override
            public double[] computeDerivatives(double tau, double[] y) {
                double[] f = new double[k + 1];
                double s = 1 - y[ell - 1];
                for (int i = 1; i <= k; i++) {
                    double below = i == 1 ? 1.0 : y[i - 2];
                    double above = i < k ? y[i] : 0.0;
                    f[i - 1] = (i <= ell ? lambda * (below - y[i - 1]) : 0.0) - s * i * (y[i - 1] - above);
                }
                f[k] = s;
                return f;
            }
        };
        DormandPrince853Integrator integrator = new DormandPrince853Integrator(1e-12, 1.0, 1e-14, 1e-13);
        integrator.addEventDetector(new ODEEventDetector() {
            @Override
            public AdaptableInterval getMaxCheckInterval() {
                return AdaptableInterval.of(1.0);
            }

            @Override
            public int getMaxIterationCount() {
                return 200;
            }

            @Override
            public BracketedUnivariateSolver<UnivariateFunction> getSolver() {
                return new BracketingNthOrderBrentSolver(1e-15, 1e-15, 0, 5);
            }

            @Override
            public ODEEventHandler getHandler() {
                return (state, detector, increasing) -> Action.STOP;
            }

            @Override
            public double g(ODEStateAndDerivative state) {
                return state.getPrimaryState()[k] - tEnd;
            }
        });
        double[] y0 = new double[k + 1];
        System.arraycopy(q0, 0, y0, 0, k);
        double[] y = integrator.integrate(ode, new ODEState(0, y0), 1e9).getPrimaryState();
        return java.util.Arrays.copyOf(y, k);
    }

    @ParameterizedTest
    @CsvSource({"3, 2.5", "4, 2.5", "2, 0.7", "5, 3.0", "3, 1.9"})
    void aboveFloorLambdaTheEquilibriumIsErlangB(int ell, double lambda) {
        FluidFixedPoint fp = pools(ell, lambda).fixedPoint();
        assertEquals(SwitchedEquilibrium.Kind.ERLANG_B, fp.equilibrium().orElseThrow().kind());
        double[] q = fp.levels();
        double theta = q[ell - 1];
        // independent check of the closed form: π_j ∝ ρ^j/j! directly, ρ = λ/(1−θ)
        double rho = lambda / (1 - theta);
        double[] pi = new double[ell + 1];
        double term = 1;
        double total = 0;
        for (int j = 0; j <= ell; j++) {
            pi[j] = term;
            total += term;
            term *= rho / (j + 1);
        }
        for (int j = 0; j <= ell; j++) {
            assertEquals(pi[j] / total, (j == 0 ? 1 : q[j - 1]) - q[j], 1e-13, "pi_" + j);
        }
        assertEquals(lambda, fp.meanQueueLength(), 1e-12);
        assertTrue(fp.residual() < 1e-12, "residual " + fp.residual());
        // and the fluid converges to it from empty and from every pool holding 2ℓ (the slowest mode
        // of (a) at this equilibrium decays by e^{−60 c}, far below the integration error)
        for (String init : new String[] {"empty", "all:" + 2 * ell}) {
            FluidTransient x = pools(ell, lambda).transientFrom(InitialState.parse(init), TimeGrid.of(0, 60));
            double[] end = x.tail(1);
            for (int i = 1; i <= ell + 1; i++) {
                assertEquals(i <= q.length ? q[i - 1] : 0, end[i], 1e-9, init + " level " + i);
            }
        }
        assertTrue(fp.equilibrium().orElseThrow().diagnosis().orElseThrow().contains("not fluid-optimal"));
    }

    @ParameterizedTest
    @CsvSource({"0, 2.5", "1, 3.7", "0, 1.5", "1, 3.0"})
    void lowThresholdSpreadsMassToUnboundedLevels(int ell, double lambda) {
        FluidFixedPoint fp = pools(ell, lambda).fixedPoint();
        assertEquals(SwitchedEquilibrium.Kind.UNBOUNDED_SUPPORT, fp.equilibrium().orElseThrow().kind());
        assertTrue(fp.equilibrium().orElseThrow().diagnosis().orElseThrow().contains("mass escapes to unbounded levels"));
        double[] q = fp.levels();
        assertEquals(lambda, fp.meanQueueLength(), 1e-12);
        assertTrue(fp.residual() < 1e-12, "residual " + fp.residual());
        for (int i = 1; i <= ell + 1; i++) {
            assertEquals(1.0, q[i - 1], 0.0);
        }
        assertTrue(q[(int) Math.ceil(lambda) + 1] > 0, "mass above ⌈λ⌉+1");
        // independent check: π_j for j ≥ h is the birth–death law with birth rate b = λ − h π_h
        int h = ell + 1;
        double piH = q[h - 1] - q[h];
        double b = lambda - h * piH;
        for (int j = h; j < h + 6; j++) {
            double pj = q[j - 1] - q[j];
            double pNext = q[j] - q[j + 1];
            assertEquals(pj * b / (j + 1), pNext, 1e-14, "detailed balance at " + j);
        }
        FluidTransient x = pools(ell, lambda).transientFrom(InitialState.empty(), TimeGrid.of(0, 60));
        double[] end = x.tail(1);
        for (int i = 1; i < q.length && i < end.length; i++) {
            assertEquals(q[i - 1], end[i], 1e-9, "level " + i);
        }
        assertFalse(x.regimes().orElseThrow().switches().isEmpty());
    }
}
