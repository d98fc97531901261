package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.refined.RateDerivatives;
import org.mflb.core.refined.RateJets;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;

/** The closed-form rate jets of the built-in tail models, checked against differences of lower orders. */
class TailModelRateDerivativesTest {

    private static final int K = 6;

    /** Jets at {@code x} with coordinate {@code j} moved by {@code h}. */
    private static RateJets jetsAt(TailModel model, double[] x, int j, double h) {
        double[] y = x.clone();
        y[j] += h;
        RateJets jets = new RateJets(model, 2 * K, 4);
        model.evaluate(0.7, y, jets);
        return jets;
    }

    private static double[] tensor(RateJets jets, int l, int order) {
        return switch (order) {
            case 0 -> new double[] {jets.value(l)};
            case 1 -> jets.gradient(l);
            case 2 -> jets.hessian(l);
            case 3 -> jets.third(l);
            default -> jets.fourth(l);
        };
    }

    private static void checkAgainstDifferences(TailModel model, double[] x) {
        RateJets jets = jetsAt(model, x, 0, 0.0);
        double[] beta = new double[2 * K];
        // The jets describe the N → ∞ limit (for distinct sampling, h_N's expansion is about it).
        new TailModel(model.system(), model.policy().limit(), model.arrivalRate(), K).rates(0.7, x, beta);
        double h = 1e-5;
        for (int l = 0; l < 2 * K; l++) {
            assertEquals(beta[l], jets.value(l), 1e-15);
            int[] s = model.support(l);
            int m = s.length;
            for (int order = 1; order <= 4; order++) {
                double[] exact = tensor(jets, l, order);
                int block = exact.length / m;
                for (int a = 0; a < m; a++) {
                    // ∂/∂x_{s_a} of the (order−1)-tensor = the slice of the order-tensor whose last index is a.
                    double[] plus = tensor(jetsAt(model, x, s[a], h), l, order - 1);
                    double[] minus = tensor(jetsAt(model, x, s[a], -h), l, order - 1);
                    for (int r = 0; r < block; r++) {
                        double difference = (plus[r] - minus[r]) / (2 * h);
                        // Central differences of polynomials of degree ≤ d: error h²·h^(order+2)/6 ≲ 1e-9.
                        assertEquals(difference, exact[r * m + a], 1e-8, "transition " + l + ", order " + order);
                    }
                }
            }
        }
    }

    @Test
    void closedFormJetsMatchDifferencesForEveryPolicyAndSystem() {
        Random rng = new Random(3);
        double[] x = new double[K];
        for (int i = 0; i < K; i++) {
            x[i] = 0.2 + 0.7 * rng.nextDouble();
        }
        for (ServerSystem system : new ServerSystem[] {ServerSystem.singleServerQueues(), ServerSystem.infiniteServerPools()}) {
            for (SmoothRouting policy : new SmoothRouting[] {RandomRouting.INSTANCE, PowerOfD.withReplacement(2),
                PowerOfD.withReplacement(3), PowerOfD.distinct(3, 40)}) {
                checkAgainstDifferences(new TailModel(system, policy, ArrivalRate.constant(0.8), K), x);
            }
        }
    }

    @Test
    void theRefinedMeanFieldUsesTheClosedFormsAndIsExactForRandomRouting() {
        FluidModel fluid = FluidModel.of(ServerSystem.singleServerQueues(), RandomRouting.INSTANCE, 0.6);
        FluidFixedPoint fp = fluid.fixedPoint();
        TailModel model = fp.smoothDrift().orElseThrow();
        assertSame(model, RateDerivatives.of(model));
        SteadyStateExpansion e = new RefinedMeanField(2).steadyState(model, fp.levels());
        double[] x = fp.levels();
        DMatrixRMaj w = e.covarianceTerm();
        for (int i = 0; i < x.length; i++) {
            assertEquals(0.0, e.firstOrderTerm()[i], 1e-15);
            assertEquals(0.0, e.secondOrderTerm()[i], 0.0);
            for (int j = 0; j < x.length; j++) {
                // Independent M/M/1 queues: N·Cov(1{Q≥i}, 1{Q≥j}) = λ^max(i,j) − λ^i λ^j, up to the
                // truncation (cut-off mass below 1e-12) and the fixed point's residual.
                assertEquals(x[Math.max(i, j)] - x[i] * x[j], w.get(i, j), 1e-11);
            }
        }
    }

    @Test
    void poolsKeepTheirMeanOccupancyAtEveryOrder() {
        // The number of tasks is M/M/∞ whatever the routing: E[Σ X_i^N] = λ for every N.
        FluidFixedPoint fp = FluidModel.of(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(2), 4.5).fixedPoint();
        SteadyStateExpansion e = new RefinedMeanField(2).steadyState(fp.smoothDrift().orElseThrow(), fp.levels());
        assertEquals(4.5, e.meanTotal(10, 0), 1e-10);
        assertEquals(4.5, e.meanTotal(10, 1), 1e-10);
        assertEquals(4.5, e.meanTotal(10, 2), 1e-10);
        assertTrue(Math.abs(e.firstOrderTerm()[4]) > 1e-3, "the refinement is not trivial");
    }

    @Test
    void distinctSamplingCorrectionsAreTheExpansionOfTheHypergeometricSelection() {
        for (int d : new int[] {2, 3, 4}) {
            PowerOfD replacement = PowerOfD.withReplacement(d);
            for (double y : new double[] {0.3, 0.55, 0.9}) {
                for (int order = 0; order <= 2; order++) {
                    // h_N = h + h¹/N + h²/N² + O(1/N³): (h_N − h − h¹/N)·N² = h² + O(1/N).
                    double previous = Double.NaN;
                    for (int n : new int[] {1000, 10000}) {
                        PowerOfD distinct = PowerOfD.distinct(d, n);
                        double h1 = distinct.sizeCorrectionDerivative(1, order, y);
                        double h2 = distinct.sizeCorrectionDerivative(2, order, y);
                        double remainder = (distinct.selectionDerivative(order, y) - replacement.selectionDerivative(order, y)
                                - h1 / n) * n * n;
                        double error = Math.abs(remainder - h2);
                        // Measured relative errors ≤ 6e-3 at N = 10³ and ten times smaller at 10⁴.
                        assertTrue(error < 10.0 / n * Math.max(1, Math.abs(h2)),
                                "d = " + d + ", y = " + y + ", order " + order + ", N = " + n + ": " + error);
                        assertTrue(!(error * 5 > previous), "the remainder shrinks like 1/N");
                        previous = error;
                    }
                }
            }
            assertSame(replacement.getClass(), PowerOfD.distinct(d, 10).limit().getClass());
            assertEquals(0.0, replacement.sizeCorrectionDerivative(1, 0, 0.5), 0.0);
        }
    }

    @Test
    void distinctSamplingModelSuppliesLimitJetsWithCorrections() {
        TailModel model = new TailModel(ServerSystem.singleServerQueues(), PowerOfD.distinct(2, 50), ArrivalRate.constant(0.8), K);
        TailModel limit = new TailModel(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), ArrivalRate.constant(0.8), K);
        assertTrue(model.hasSizeCorrections());
        assertTrue(!limit.hasSizeCorrections());
        double[] x = {0.8, 0.6, 0.35, 0.2, 0.1, 0.05};
        RateJets jets = new RateJets(model, 2 * K, 4);
        RateJets reference = new RateJets(limit, 2 * K, 4);
        model.evaluate(0, x, jets);
        limit.evaluate(0, x, reference);
        for (int l = 0; l < 2 * K; l++) {
            assertEquals(reference.value(l), jets.value(l), 0.0);
            assertArrayEquals(reference.hessian(l), jets.hessian(l), 0.0);
        }
        // Arrival to level 3: β¹ = λ(h¹(x_2) − h¹(x_3)) with h¹(y) = y² − y for d = 2.
        assertEquals(0.8 * ((0.36 - 0.6) - (0.35 * 0.35 - 0.35)), jets.correctionValue(2), 1e-15);
        assertArrayEquals(new double[] {0.8 * (2 * 0.6 - 1), -0.8 * (2 * 0.35 - 1)}, jets.correctionGradient(2), 1e-15);
        assertEquals(0.0, jets.correctionValue(K + 2), 0.0);
    }
}
