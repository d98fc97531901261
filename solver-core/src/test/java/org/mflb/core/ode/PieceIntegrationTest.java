package org.mflb.core.ode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.hipparchus.ode.sampling.ODEStateInterpolator;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PiecewiseLinearRate;

class PieceIntegrationTest {

    /** dx/dt = −x: x(t) = x0 e^{−t}. */
    private static final OrdinaryDifferentialEquation DECAY = new OrdinaryDifferentialEquation() {
        @Override
        public int getDimension() {
            return 1;
        }

        @Override
        public double[] computeDerivatives(double t, double[] x) {
            return new double[] {-x[0]};
        }
    };

    @Test
    void stopsAtTheKnotsOfLambdaThenAtTheEnd() {
        double[] knots = PieceIntegration.knots(new PiecewiseLinearRate(new double[] {0, 1, 2.5}, new double[] {1, 2, 1}));
        assertArrayEquals(new double[] {0, 1, 2.5}, knots);
        assertEquals(1.0, PieceIntegration.nextStop(knots, 0, 4));
        assertEquals(2.5, PieceIntegration.nextStop(knots, 1, 4));
        assertEquals(2.5, PieceIntegration.nextStop(knots, 1.5, 4));
        assertEquals(4.0, PieceIntegration.nextStop(knots, 2.5, 4));
        assertEquals(2.0, PieceIntegration.nextStop(knots, 1.5, 2));
        assertEquals(0, PieceIntegration.knots(ArrivalRate.constant(1)).length);
    }

    @Test
    void upwardCrossingStopsAtTheSurfaceAndGridTimesAreRecordedOnce() {
        // x0 = 1 decays to the surface x = e^{−1}: the run stops at t = 1 (to the Brent solver's 1e-15)
        IntegratorSettings settings = IntegratorSettings.DEFAULT;
        TimeGrid grid = TimeGrid.uniform(2, 0.25);
        double[] recorded = new double[grid.size()];
        int[] next = {1};
        int[] fired = {-1};
        DormandPrince853Integrator integrator = PieceIntegration.integrator(settings, grid,
                PieceIntegration.absoluteTolerances(settings, 1, 0), PieceIntegration.relativeTolerances(settings, 1));
        integrator.addEventDetector(new PieceIntegration.UpwardCrossing(3, fired) {
            @Override
            public double g(ODEStateAndDerivative state) {
                return Math.exp(-1) - state.getPrimaryState()[0];
            }
        });
        integrator.addStepHandler(new PieceIntegration.GridSampler(grid, next) {
            @Override
            protected void record(int k, double t, ODEStateInterpolator interpolator) {
                recorded[k] += interpolator.getInterpolatedState(t).getPrimaryState()[0];
            }
        });
        ODEStateAndDerivative end = PieceIntegration.integrate(integrator, DECAY, 0, new double[] {1}, grid.end(),
                "the test", () -> "here");
        assertEquals(3, fired[0]);
        assertEquals(1.0, end.getTime(), 1e-12);
        assertEquals(5, next[0]); // grid times 0.25 .. 1 recorded, the rest left to the next piece
        for (int k = 1; k < next[0]; k++) {
            assertEquals(Math.exp(-grid.time(k)), recorded[k], 1e-11);
        }
    }

    @Test
    void aFailedRunNamesWhatAndWhere() {
        OrdinaryDifferentialEquation blowUp = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return 1;
            }

            @Override
            public double[] computeDerivatives(double t, double[] x) {
                return new double[] {x[0] * x[0]};
            }
        };
        IntegratorSettings settings = IntegratorSettings.DEFAULT;
        TimeGrid grid = TimeGrid.uniform(2, 1);
        DormandPrince853Integrator integrator = PieceIntegration.integrator(settings, grid,
                PieceIntegration.absoluteTolerances(settings, 1, 0), PieceIntegration.relativeTolerances(settings, 1));
        MflbException e = assertThrows(MflbException.class, () -> PieceIntegration.integrate(integrator, blowUp, 0,
                new double[] {1}, 2, "the blow-up", () -> "in piece 7"));
        assertEquals(ErrorKind.NO_CONVERGENCE, e.kind());
        assertEquals(true, e.getMessage().startsWith("the blow-up could not be integrated past t = 0.0 in piece 7: "),
                e.getMessage());
    }
}
