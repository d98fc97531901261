package org.mflb.fluid.nonsmooth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The implicit integrator of the lower gaps against its order conditions and stiff problems with known solutions. */
class RadauIIATest {

    /**
     * Radau IIA with 3 stages satisfies the simplifying conditions C(3) (Σ_k a_ik c_k^{q−1} = c_i^q/q,
     * q ≤ 3) and, its last row being the weights, B(5) (Σ_k a_3k c_k^{q−1} = 1/q, q ≤ 5): order 5.
     * Rounding of the √6 expressions: a few ulps.
     */
    @Test
    void coefficientsSatisfyTheOrderConditions() {
        for (int q = 1; q <= 3; q++) {
            for (int i = 0; i < 3; i++) {
                double sum = 0;
                for (int k = 0; k < 3; k++) {
                    sum += RadauIIA.A[i][k] * Math.pow(RadauIIA.C[k], q - 1);
                }
                assertEquals(Math.pow(RadauIIA.C[i], q) / q, sum, 1e-15, "C(" + q + ") row " + i);
            }
        }
        for (int q = 1; q <= 5; q++) {
            double sum = 0;
            for (int k = 0; k < 3; k++) {
                sum += RadauIIA.A[2][k] * Math.pow(RadauIIA.C[k], q - 1);
            }
            assertEquals(1.0 / q, sum, 1e-15, "B(" + q + ")");
        }
        // the stage abscissae are the zeros of the Radau polynomial: c_1 + c_2 = 4/5, c_1 c_2 = 1/10
        assertEquals(0.8, RadauIIA.C[0] + RadauIIA.C[1], 1e-15);
        assertEquals(0.1, RadauIIA.C[0] * RadauIIA.C[1], 1e-16);
    }

    /**
     * Prothero–Robinson: y' = −k (y − cos t) − sin t, y(0) = 1, exact y = cos t, for k from 1 to
     * 1e12 (stiffness far beyond any explicit method). The tolerance 1e-12 per step and at most a few
     * hundred steps bound the error by 1e-10.
     */
    @Test
    void stiffProtheroRobinsonProblemIsSolvedToTolerance() {
        for (double k : new double[] {1, 1e3, 1e6, 1e12}) {
            RadauIIA.StiffSystem system = new RadauIIA.StiffSystem() {
                @Override
                public int dimension() {
                    return 1;
                }

                @Override
                public void derivatives(double t, double[] y, double[] f) {
                    f[0] = -k * (y[0] - Math.cos(t)) - Math.sin(t);
                }

                @Override
                public void jacobian(double t, double[] y, double[][] jacobian) {
                    jacobian[0][0] = -k;
                }
            };
            int[] steps = {0};
            double[] y = {1.0};
            new RadauIIA(system, 1e-12, 1e-12).advance(0, y, 2.0, 0.1, (t, state) -> steps[0]++);
            assertEquals(Math.cos(2.0), y[0], 1e-10, "k = " + k);
            assertTrue(steps[0] < 2000, steps[0] + " steps for k = " + k);
        }
    }

    /**
     * A linear system with eigenvalues −1 and −1e8 (the structure of the lower gaps: one fast
     * relaxation onto a slow mode): y1' = −y1, y2' = 1e8 (y1 − y2); exact
     * y1 = e^{−t}, y2 = e^{−t}·1e8/(1e8 − 1) + (y2(0) − 1e8/(1e8 − 1)) e^{−1e8 t}.
     */
    @Test
    void fastRelaxationOntoASlowMode() {
        double fast = 1e8;
        RadauIIA.StiffSystem system = new RadauIIA.StiffSystem() {
            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public void derivatives(double t, double[] y, double[] f) {
                f[0] = -y[0];
                f[1] = fast * (y[0] - y[1]);
            }

            @Override
            public void jacobian(double t, double[] y, double[][] j) {
                j[0][0] = -1;
                j[0][1] = 0;
                j[1][0] = fast;
                j[1][1] = -fast;
            }
        };
        double[] y = {1.0, 0.0};
        RadauIIA radau = new RadauIIA(system, 1e-13, 1e-12);
        double h = radau.advance(0, y, 0.5, 1e-3, null);
        radau.advance(0.5, y, 3.0, h, null);
        double ratio = fast / (fast - 1);
        assertEquals(Math.exp(-3.0), y[0], 1e-11);
        assertEquals(Math.exp(-3.0) * ratio, y[1], 1e-11);
    }
}
