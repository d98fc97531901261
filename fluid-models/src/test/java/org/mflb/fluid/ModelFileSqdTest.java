package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.modelfile.ShippedModels;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.refined.TransientExpansion;

/**
 * The SQ(d) reference model file against the built-in SQ(d) model (closed-form rate derivatives)
 * and the closed-form fixed point {@code x_i = λ^((d^i−1)/(d−1))}.
 */
class ModelFileSqdTest {

    @Test
    void theSqdFileReproducesTheBuiltInModel() {
        for (double lambda : new double[] {0.7, 0.9}) {
            for (int d : new int[] {2, 3}) {
                ModelFile file = ShippedModels.load("sqd", Map.of("lambda", lambda, "d", (double) d));
                int k = file.dimension();
                TailModel builtIn = new TailModel(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(d),
                        ArrivalRate.constant(lambda), k);
                double[] pi = new FixedPointSolver().solveConserving(file.model(), file.initialState()).state();
                for (int i = 1; i <= k; i++) {
                    assertEquals(Math.pow(lambda, (Math.pow(d, i) - 1) / (d - 1)), pi[i - 1], 1e-12);
                }
                for (int order = 1; order <= 2; order++) {
                    SteadyStateExpansion fromFile = new RefinedMeanField(order).steadyState(file.model(), pi);
                    SteadyStateExpansion fromBuiltIn = new RefinedMeanField(order).steadyState(builtIn, pi);
                    double[] a = order == 1 ? fromFile.firstOrderTerm() : fromFile.secondOrderTerm();
                    double[] b = order == 1 ? fromBuiltIn.firstOrderTerm() : fromBuiltIn.secondOrderTerm();
                    for (int i = 0; i < k; i++) {
                        assertEquals(b[i], a[i], 1e-10, "order " + order + " term, x[" + (i + 1) + "], lambda "
                                + lambda + ", d " + d);
                    }
                }
            }
        }
    }

    @Test
    void theLossPoolsFileIsTheBuiltInSqdInLossPools() {
        ModelFile file = ShippedModels.load("sqd-pools", Map.of());
        TailModel builtIn = new TailModel(ServerSystem.lossPools(4), PowerOfD.withReplacement(2),
                ArrivalRate.constant(2.5), 4);
        double[] pi = new FixedPointSolver().solveConserving(file.model(), file.initialState()).state();
        double[] f = new double[4];
        builtIn.drift(0, pi, f);
        for (double v : f) {
            assertEquals(0.0, v, 1e-14);
        }
        SteadyStateExpansion fromFile = new RefinedMeanField(2).steadyState(file.model(), pi);
        SteadyStateExpansion fromBuiltIn = new RefinedMeanField(2).steadyState(builtIn, pi);
        for (int i = 0; i < 4; i++) {
            assertEquals(fromBuiltIn.firstOrderTerm()[i], fromFile.firstOrderTerm()[i], 1e-10);
            assertEquals(fromBuiltIn.secondOrderTerm()[i], fromFile.secondOrderTerm()[i], 1e-10);
        }
    }

    @Test
    void theSqdFileTransientExpansionIsTheBuiltInOne() {
        ModelFile file = ShippedModels.load("sqd", Map.of("K", 12.0));
        TailModel builtIn = new TailModel(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2),
                ArrivalRate.constant(0.9), 12);
        double[] x0 = file.initialState();
        double[] times = {0.0, 1.0, 5.0};
        TransientExpansion fromFile = new RefinedMeanField(2).transientRegime(file.model(), x0, 0, times);
        TransientExpansion fromBuiltIn = new RefinedMeanField(2).transientRegime(builtIn, x0, 0, times);
        for (int k = 0; k < times.length; k++) {
            double[] v = fromFile.firstOrderTerm(k);
            double[] a = fromFile.secondOrderTerm(k);
            for (int i = 0; i < 12; i++) {
                assertEquals(fromBuiltIn.meanField(k)[i], fromFile.meanField(k)[i], 1e-9);
                assertEquals(fromBuiltIn.firstOrderTerm(k)[i], v[i], 1e-8, "V(t = " + times[k] + ")");
                assertEquals(fromBuiltIn.secondOrderTerm(k)[i], a[i], 1e-8, "A(t = " + times[k] + ")");
            }
        }
    }
}
