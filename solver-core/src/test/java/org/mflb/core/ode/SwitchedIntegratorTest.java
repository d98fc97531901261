package org.mflb.core.ode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;

class SwitchedIntegratorTest {

    private static final double[] TIGHT = {1e-12, 1e-12};
    /** y'' = −y as a system: (cos t, −sin t) from (1, 0). */
    private static final DormandPrince853.Field OSCILLATOR = (t, y, f) -> {
        f[0] = y[1];
        f[1] = -y[0];
    };
    /** y' = 1 (y = t): one step covers any span, so g along it is whatever polynomial of t it is. */
    private static final DormandPrince853.Field CLOCK = (t, y, f) -> f[0] = 1;

    private static SwitchedIntegrator.Switching of(SwitchedIntegrator.Switching... unused) {
        return new SwitchedIntegrator.Switching() {
            @Override
            public int count() {
                return 0;
            }

            @Override
            public double value(int k, double t, double[] y) {
                throw new AssertionError();
            }
        };
    }

    private static SwitchedIntegrator.Switching single(java.util.function.ToDoubleBiFunction<Double, double[]> g) {
        return new SwitchedIntegrator.Switching() {
            @Override
            public int count() {
                return 1;
            }

            @Override
            public double value(int k, double t, double[] y) {
                return g.applyAsDouble(t, y);
            }
        };
    }

    @Test
    void tableauIsHipparchussDormandPrince853() {
        DormandPrince853Integrator reference = new DormandPrince853Integrator(1e-3, 1, 1e-6, 1e-6);
        assertArrayEquals(reference.getC(), DormandPrince853.C);
        double[][] a = reference.getA();
        assertEquals(a.length, DormandPrince853.A.length);
        for (int r = 0; r < a.length; r++) {
            assertArrayEquals(a[r], DormandPrince853.A[r]);
        }
        assertArrayEquals(java.util.Arrays.copyOf(reference.getB(), 12), DormandPrince853.B);
        for (int s = 0; s < 12; s++) {
            // the order-3 estimator differs from the solution's weights only at stages 1, 9 and 12 (Hairer's bhh)
            double d = DormandPrince853.B[s] - DormandPrince853.E3[s];
            assertTrue(s == 0 || s == 8 || s == 11 ? d != 0 : d == 0, "stage " + s);
        }
    }

    /** One step of the pendulum, its end and its polynomial, against Hipparchus's step of the same length. */
    @Test
    void oneStepAndItsPolynomialAreHipparchuss() {
        double h = 0.7;
        OrdinaryDifferentialEquation pendulum = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return 2;
            }

            @Override
            public double[] computeDerivatives(double t, double[] x) {
                return new double[] {x[1], -Math.sin(x[0]) + 0.1 * t};
            }
        };
        DormandPrince853Integrator reference = new DormandPrince853Integrator(h, h, 1e3, 1e3);
        double[][] expected = new double[3][];
        double[] thetas = {0.3, 0.8};
        reference.addStepHandler(interpolator -> {
            for (int i = 0; i < thetas.length; i++) {
                expected[i] = interpolator.getInterpolatedState(thetas[i] * h).getPrimaryState();
            }
            expected[2] = interpolator.getCurrentState().getPrimaryState();
        });
        reference.integrate(pendulum, new ODEState(0, new double[] {1.2, 0.3}), h);
        DormandPrince853 method = new DormandPrince853(2);
        method.start((t, y, f) -> {
            f[0] = y[1];
            f[1] = -Math.sin(y[0]) + 0.1 * t;
        }, 0, new double[] {1.2, 0.3});
        method.attempt(h, new double[] {1, 1}, new double[] {1, 1});
        method.accept(h);
        method.prepareDense();
        double[] at = new double[2];
        for (int i = 0; i < thetas.length; i++) {
            method.interpolate(thetas[i], at);
            assertArrayEquals(expected[i], at, 1e-15);
        }
        assertArrayEquals(expected[2], method.attempted(), 1e-15);
    }

    @Test
    void matchesTheExactSolutionAndHipparchusAtTheEnd() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {1, 0};
        assertEquals(-1, integrator.integrate(OSCILLATOR, of(), 0, y, 20, TIGHT, TIGHT, false, null));
        assertEquals(20.0, integrator.time());
        assertEquals(Math.cos(20), y[0], 1e-10);
        assertEquals(-Math.sin(20), y[1], 1e-10);
        OrdinaryDifferentialEquation ode = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return 2;
            }

            @Override
            public double[] computeDerivatives(double t, double[] x) {
                return new double[] {x[1], -x[0]};
            }
        };
        ODEStateAndDerivative end = new DormandPrince853Integrator(1e-14, 1e9, TIGHT, TIGHT)
                .integrate(ode, new ODEState(0, new double[] {1, 0}), 20);
        assertEquals(end.getPrimaryState()[0], y[0], 1e-10);
    }

    /**
     * Inside every step: the polynomial (what crossings are found on) and the state by a step of the
     * method from the step's start (what grid times get) against the exact solution.
     */
    @Test
    void insideEveryStepThePolynomialAndTheSubStepAreAccurate() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {1, 0};
        double[] at = new double[2];
        double[] worst = {0, 0};
        int[] steps = {0};
        integrator.integrate(OSCILLATOR, of(), 0, y, 30, TIGHT, TIGHT, false, step -> {
            steps[0]++;
            for (int i = 0; i <= 10; i++) {
                double t = step.start() + i * (step.end() - step.start()) / 10;
                double tau = step.toLocal(t);
                step.localState(tau, at);
                worst[0] = Math.max(worst[0], Math.abs(at[0] - Math.cos(t)) + Math.abs(at[1] + Math.sin(t)));
                assertEquals(at[0], step.localComponent(0, tau));
                step.state(t, at);
                worst[1] = Math.max(worst[1], Math.abs(at[0] - Math.cos(t)) + Math.abs(at[1] + Math.sin(t)));
            }
        });
        assertTrue(steps[0] > 5, "steps " + steps[0]);
        assertTrue(worst[0] < 1e-10, "polynomial error " + worst[0]);
        assertTrue(worst[1] < 1e-11, "sub-step error " + worst[1]);
    }

    /**
     * A chain of levels like the pools' tails, {@code x_j' = λ(x_{j−1} − x_j) − j(x_j − x_{j+1})} for
     * {@code j ≤ 30}, relaxing from empty: the steps the slow levels allow are long against the
     * relaxation of the high ones ({@code h|λ|} of several), whose values are tiny. At the grid the
     * state comes from a step of the method and is as accurate as the steps' ends; the step's
     * polynomial is off inside the step by orders of magnitude more (the mass errors of a JIQ
     * transient, issue 28).
     */
    @Test
    void inStiffStepsTheGridStateIsAsAccurateAsTheStepsEnd() {
        int n = 30;
        DormandPrince853.Field chain = (t, s, f) -> {
            for (int j = 0; j < n; j++) {
                double below = j == 0 ? 1.0 : s[j - 1];
                double above = j + 1 < n ? s[j + 1] : 0.0;
                f[j] = 1.5 * (below - s[j]) - (j + 1) * (s[j] - above);
            }
        };
        double[] tolerance = new double[n];
        java.util.Arrays.fill(tolerance, 1e-12);
        double grid = 0.01;
        int points = 1000;
        double[][] expected = new double[points + 1][n];
        // the reference: steps of at most 2e-3 (h|λ| ≤ 0.07), where the polynomial is as good as the steps
        new SwitchedIntegrator(2e-3).integrate(chain, of(), 0, new double[n], points * grid, tolerance, tolerance, false,
                step -> {
                    for (int k = 1; k <= points; k++) {
                        double t = k * grid;
                        if (t > step.start() && t <= step.end()) {
                            step.localState(step.toLocal(t), expected[k]);
                        }
                    }
                });
        double[] at = new double[n];
        double[] polynomial = new double[n];
        double[] worst = {0, 0};
        new SwitchedIntegrator(Double.POSITIVE_INFINITY).integrate(chain, of(), 0, new double[n], points * grid, tolerance,
                tolerance, false, step -> {
                    for (int k = 1; k <= points; k++) {
                        double t = k * grid;
                        if (t > step.start() && t < step.end()) {
                            step.state(t, at);
                            step.localState(step.toLocal(t), polynomial);
                            double mass = 0;
                            double massPolynomial = 0;
                            for (int j = 0; j < n; j++) {
                                mass += at[j] - expected[k][j];
                                massPolynomial += polynomial[j] - expected[k][j];
                            }
                            worst[0] = Math.max(worst[0], Math.abs(mass));
                            worst[1] = Math.max(worst[1], Math.abs(massPolynomial));
                        }
                    }
                });
        assertTrue(worst[0] < 2e-11, "mass inside the steps off by " + worst[0] + " (polynomial: " + worst[1] + ")");
        assertTrue(worst[1] > 10 * worst[0], "polynomial " + worst[1] + " against " + worst[0]);
    }

    @Test
    void locatesAnUpwardCrossingToTheLastBitOnTheRightSide() {
        // cos t falls to 1/2 at t = π/3: g = 1/2 − y_0 crosses 0 upward there
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {1, 0};
        int fired = integrator.integrate(OSCILLATOR, single((t, s) -> 0.5 - s[0]), 0, y, 10, TIGHT, TIGHT, false, null);
        assertEquals(0, fired);
        assertEquals(Math.PI / 3, integrator.time(), 1e-11);
        assertTrue(0.5 - y[0] >= 0 && 0.5 - y[0] < 1e-14, "g at the located end " + (0.5 - y[0]));
    }

    @Test
    void aShortExcursionInsideOneStepIsNotMissed() {
        // y = t over one step of length 10 (the field is constant): g = 1e-6 − (t − 5)² is positive only on
        // (5 − 1e-3, 5 + 1e-3), 1e-4 of the step; a check at fixed intervals of 0.05 would miss it
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {0};
        List<Double> starts = new ArrayList<>();
        int fired = integrator.integrate(CLOCK, single((t, s) -> 1e-6 - (s[0] - 5) * (s[0] - 5)), 0, y, 10,
                new double[] {1e-12}, new double[] {1e-12}, false, step -> starts.add(step.start()));
        assertTrue(starts.get(starts.size() - 1) < 4, "the step that holds the excursion starts at " + starts);
        assertEquals(0, fired);
        assertEquals(5 - 1e-3, integrator.time(), 1e-12);
    }

    @Test
    void aGrazingTouchIsNoCrossing() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {0};
        int fired = integrator.integrate(CLOCK, single((t, s) -> -(s[0] - 5) * (s[0] - 5)), 0, y, 10,
                new double[] {1e-12}, new double[] {1e-12}, false, null);
        assertEquals(-1, fired);
        assertEquals(10.0, integrator.time());
    }

    @Test
    void aFunctionStartingOnItsSurfaceEndsThePieceOnlyAfterBeingNegative() {
        // g = (t − 2)(t − 6)/10 − ... : starts at 0 exactly? use g = t (t − 4): 0 at t = 0, negative, up at t = 4
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {0};
        int fired = integrator.integrate(CLOCK, single((t, s) -> s[0] * (s[0] - 4)), 0, y, 10,
                new double[] {1e-12}, new double[] {1e-12}, false, null);
        assertEquals(0, fired);
        assertEquals(4.0, integrator.time(), 1e-13);
        // starting above 0 and staying there: no crossing
        y[0] = 0;
        assertEquals(-1, integrator.integrate(CLOCK, single((t, s) -> 1 + s[0]), 0, y, 10,
                new double[] {1e-12}, new double[] {1e-12}, false, null));
    }

    @Test
    void theEarliestOfSeveralCrossingsWins() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {0};
        SwitchedIntegrator.Switching two = new SwitchedIntegrator.Switching() {
            @Override
            public int count() {
                return 2;
            }

            @Override
            public double value(int k, double t, double[] s) {
                return k == 0 ? s[0] - 7 : s[0] - 3;
            }
        };
        assertEquals(1, integrator.integrate(CLOCK, two, 0, y, 10, new double[] {1e-12}, new double[] {1e-12}, false,
                null));
        assertEquals(3.0, integrator.time(), 1e-13);
    }

    @Test
    void aCrossingAtTheStopIsReported() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {0};
        assertEquals(0, integrator.integrate(CLOCK, single((t, s) -> t - 10), 0, y, 10, new double[] {1e-12},
                new double[] {1e-12}, false, null));
        assertEquals(10.0, integrator.time());
    }

    @Test
    void landsExactlyOnEveryStopAndIntegratesStretchesOfAFewUlps() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double t = 1e5;
        double[] y = {1, 0};
        for (int i = 1; i <= 5; i++) {
            double target = t + i * Math.ulp(t);
            assertEquals(-1, integrator.integrate(OSCILLATOR, of(), t, y, target, TIGHT, TIGHT, true, null));
            assertEquals(target, integrator.time());
            t = target;
        }
        // a zero-length stretch: nothing happens
        assertEquals(-1, integrator.integrate(OSCILLATOR, of(), t, y, t, TIGHT, TIGHT, true, null));
        assertEquals(t, integrator.time());
    }

    @Test
    void resumingPastAKnotKeepsTheStepSize() {
        SwitchedIntegrator straight = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {1, 0};
        straight.integrate(OSCILLATOR, of(), 0, y, 50, TIGHT, TIGHT, false, null);
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        y = new double[] {1, 0};
        for (int knot = 1; knot <= 50; knot++) {
            integrator.integrate(OSCILLATOR, of(), knot - 1, y, knot, TIGHT, TIGHT, knot > 1, null);
        }
        assertEquals(Math.cos(50), y[0], 1e-10);
        // at most one more step per knot than without knots: no fresh start (and step-size search) at each
        assertTrue(integrator.steps() <= straight.steps() + 50, "steps " + integrator.steps() + " against "
                + straight.steps());
    }

    @Test
    void aDriftThatIsNotFiniteIsReportedNotLoopedOn() {
        SwitchedIntegrator integrator = new SwitchedIntegrator(Double.POSITIVE_INFINITY);
        double[] y = {1};
        DormandPrince853.Field blowUp = (t, s, f) -> f[0] = t > 0.5 ? Double.NaN : 1;
        assertThrows(MflbException.class, () -> integrator.integrate(blowUp, of(), 0, y, 1, new double[] {1e-12},
                new double[] {1e-12}, false, null));
    }
}
