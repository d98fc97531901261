package org.mflb.core.ode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.hipparchus.ode.events.Action;
import org.hipparchus.ode.events.AdaptableInterval;
import org.hipparchus.ode.events.ODEEventDetector;
import org.hipparchus.ode.events.ODEEventHandler;
import org.hipparchus.analysis.solvers.BracketedUnivariateSolver;
import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.model.DriftField;

class TransientSolverTest {

    /** dx/dt = −x + sin t: x(t) = (x0 + 1/2) e^{−t} + (sin t − cos t)/2. */
    private static final DriftField FORCED_DECAY = new DriftField() {
        @Override
        public int getDimension() {
            return 1;
        }

        @Override
        public void drift(double t, double[] x, double[] f) {
            f[0] = -x[0] + Math.sin(t);
        }
    };

    private static double exact(double x0, double t) {
        return (x0 + 0.5) * Math.exp(-t) + (Math.sin(t) - Math.cos(t)) / 2;
    }

    @Test
    void gridAndDenseOutputMatchTheClosedForm() {
        Trajectory tr = new TransientSolver().solve(FORCED_DECAY, new double[] {2.0}, TimeGrid.uniform(20, 0.7));
        assertEquals(30, tr.grid().size()); // 0, 0.7, ..., 19.6, then 20
        assertEquals(20.0, tr.grid().end());
        for (int k = 0; k < tr.grid().size(); k++) {
            // Default tolerances 1e-12 per step: global error well below 1e-10 on this problem.
            assertEquals(exact(2.0, tr.grid().time(k)), tr.state(k)[0], 1e-10);
        }
        assertEquals(exact(2.0, 13.37), tr.stateAt(13.37)[0], 1e-10);
        assertThrows(MflbException.class, () -> tr.stateAt(21));
    }

    @Test
    void looserTolerancesGiveLargerButControlledErrors() {
        Trajectory tr = new TransientSolver(IntegratorSettings.DEFAULT.withTolerance(1e-6))
                .solve(FORCED_DECAY, new double[] {2.0}, TimeGrid.uniform(20, 1));
        for (int k = 0; k < tr.grid().size(); k++) {
            assertEquals(exact(2.0, tr.grid().time(k)), tr.state(k)[0], 1e-5);
        }
    }

    @Test
    void eventDetectorsStopTheIntegration() {
        double[] stoppedAt = {Double.NaN};
        ODEEventDetector crossing = new ODEEventDetector() {
            @Override
            public AdaptableInterval getMaxCheckInterval() {
                return (state, forward) -> 0.1;
            }

            @Override
            public int getMaxIterationCount() {
                return 100;
            }

            @Override
            public BracketedUnivariateSolver<org.hipparchus.analysis.UnivariateFunction> getSolver() {
                return new BracketingNthOrderBrentSolver(1e-14, 1e-14, 1e-15, 5);
            }

            @Override
            public ODEEventHandler getHandler() {
                return (state, detector, increasing) -> {
                    stoppedAt[0] = state.getTime();
                    return Action.STOP;
                };
            }

            @Override
            public double g(ODEStateAndDerivative state) {
                return state.getPrimaryState()[0] - 0.5;
            }
        };
        DriftField decay = new DriftField() {
            @Override
            public int getDimension() {
                return 1;
            }

            @Override
            public void drift(double t, double[] x, double[] f) {
                f[0] = -x[0];
            }
        };
        new TransientSolver().solve(decay, new double[] {1.0}, TimeGrid.uniform(5, 1), List.of(crossing));
        // The event is located to 1e-14 on the dense output, whose own error is ~1e-12 here.
        assertEquals(Math.log(2), stoppedAt[0], 1e-10);
    }

    @Test
    void gridsValidateTheirInput() {
        assertEquals("dt", assertThrows(MflbException.class, () -> TimeGrid.uniform(1, 2)).parameter());
        assertEquals("t-end", assertThrows(MflbException.class, () -> TimeGrid.uniform(-1, 0.1)).parameter());
        assertEquals("times", assertThrows(MflbException.class, () -> TimeGrid.of(1, 1)).parameter());
        assertEquals(11, TimeGrid.uniform(1, 0.1).size());
    }
}
