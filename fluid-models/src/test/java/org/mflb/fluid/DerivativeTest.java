package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.FiniteDifferences;
import org.mflb.core.model.PopulationModel;

class DerivativeTest {

    /** Central differences with h ≈ 6e-6 are accurate to about 1e-9 for these polynomial drifts. */
    private static final double FD_TOLERANCE = 1e-8;

    private static final double[] STATE = {0.95, 0.7, 0.41, 0.2, 0.07, 0.01};

    @Test
    void analyticJacobiansMatchFiniteDifferences() {
        SmoothRouting[] policies = {RandomRouting.INSTANCE, PowerOfD.withReplacement(2), PowerOfD.withReplacement(5),
            PowerOfD.distinct(3, 50)};
        ServerSystem[] systems = {ServerSystem.singleServerQueues(), ServerSystem.infiniteServerPools(),
            ServerSystem.lossPools(6)};
        for (SmoothRouting policy : policies) {
            for (ServerSystem system : systems) {
                TailModel model = new TailModel(system, policy, ArrivalRate.constant(0.8), STATE.length);
                DMatrixRMaj analytic = new DMatrixRMaj(1, 1);
                DMatrixRMaj numeric = new DMatrixRMaj(1, 1);
                model.jacobian(0, STATE, analytic);
                FiniteDifferences.jacobian(model, 0, STATE, numeric);
                for (int i = 0; i < STATE.length; i++) {
                    for (int j = 0; j < STATE.length; j++) {
                        assertEquals(numeric.get(i, j), analytic.get(i, j), FD_TOLERANCE,
                                policy.name() + " " + system + " J[" + i + "][" + j + "]");
                    }
                }
            }
        }
    }

    @Test
    void driftEqualsTheSumOfJumpsTimesRates() {
        TailModel model = new TailModel(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(3),
                ArrivalRate.constant(3.0), STATE.length);
        double[] fast = new double[STATE.length];
        double[] generic = new double[STATE.length];
        model.drift(0, STATE, fast);
        PopulationModel viaTransitions = new PopulationModel() {
            @Override
            public java.util.List<org.mflb.core.model.Transition> transitions() {
                return model.transitions();
            }

            @Override
            public void rates(double t, double[] x, double[] beta) {
                model.rates(t, x, beta);
            }

            @Override
            public ArrivalRate arrivalRate() {
                return model.arrivalRate();
            }

            @Override
            public int getDimension() {
                return model.getDimension();
            }
        };
        viaTransitions.drift(0, STATE, generic);
        for (int i = 0; i < STATE.length; i++) {
            assertEquals(generic[i], fast[i], 1e-15);
        }
    }

    @Test
    void selectionDerivativesMatchDifferences() {
        SmoothRouting[] policies = {PowerOfD.withReplacement(3), PowerOfD.distinct(4, 20)};
        double h = 1e-4;
        for (SmoothRouting p : policies) {
            for (int order = 1; order <= 4; order++) {
                double y = 0.63;
                double numeric = (p.selectionDerivative(order - 1, y + h) - p.selectionDerivative(order - 1, y - h))
                        / (2 * h);
                // O(h²) truncation of a degree ≤ 4 polynomial's derivatives: below 1e-6 here.
                assertEquals(numeric, p.selectionDerivative(order, y), 1e-6, p.name() + " order " + order);
            }
        }
    }

    @Test
    void distinctSamplingTendsToSamplingWithReplacement() {
        double y = 0.37;
        double previousGap = Double.POSITIVE_INFINITY;
        for (int n : new int[] {10, 100, 1000, 10000}) {
            double gap = Math.abs(PowerOfD.distinct(3, n).selection(y) - Math.pow(y, 3));
            assertTrue(gap < previousGap);
            // h_N(y) − y^3 = O(1/N): y^2(1−y)·3/N to first order (three pairs of draws), here ≈ 0.26/N.
            assertEquals(3 * y * y * (1 - y) / n, gap, 3.0 / ((double) n * n) + 1e-15);
            previousGap = gap;
        }
        // Exact hypergeometric value: 5 of 10 servers loaded, 2 distinct sampled: (5/10)(4/9).
        assertEquals(5.0 / 10 * 4 / 9, PowerOfD.distinct(2, 10).selection(0.5), 1e-15);
        assertEquals(0.0, PowerOfD.distinct(3, 10).selection(0.15), 0.0);
    }
}
