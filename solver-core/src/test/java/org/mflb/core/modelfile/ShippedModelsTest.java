package org.mflb.core.modelfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.FiniteDifferences;
import org.mflb.core.refined.FiniteDifferenceRateDerivatives;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;

/**
 * The shipped model files against independent truths: rmf_tool's published SIR values, the SQ(d)
 * closed form, conservation laws, and V by automatic differentiation versus finite differences.
 */
class ShippedModelsTest {

    private static ModelFile shipped(String name) {
        return ShippedModels.load(name, Map.of());
    }

    private static double[] fixedPoint(ModelFile file) {
        return new FixedPointSolver().solveConserving(file.model(), file.initialState()).state();
    }

    @Test
    void sirMatchesRmfToolsNotebookToAllPrintedDigits() {
        ModelFile sir = shipped("sir");
        assertEquals(java.util.List.of("S", "I", "R"), sir.names());
        FixedPoint fp = new FixedPointSolver().solveConserving(sir.model(), sir.initialState());
        double[] pi = fp.state();
        // rmf_tool BasicExample_SIR prints 7 decimals: agreement means within half a unit of the last.
        assertArrayEquals(new double[] {0.2625952, 0.5530536, 0.1843512}, pi, 5e-8);
        assertEquals(1.0, pi[0] + pi[1] + pi[2], 1e-14);
        assertTrue(fp.isStable());
        SteadyStateExpansion e = new RefinedMeanField(1).steadyState(sir.model(), pi);
        assertArrayEquals(new double[] {0.1587553, -0.1190665, -0.0396888}, e.firstOrderTerm(), 5e-8);
    }

    @Test
    void sqdFixedPointIsTheClosedForm() {
        for (double lambda : new double[] {0.5, 0.9}) {
            for (int d : new int[] {2, 3}) {
                ModelFile sqd = ShippedModels.load("sqd", Map.of("lambda", lambda, "d", (double) d));
                double[] pi = fixedPoint(sqd);
                for (int i = 1; i <= 20; i++) {
                    double exact = Math.pow(lambda, (Math.pow(d, i) - 1) / (d - 1));
                    assertEquals(exact, pi[i - 1], 1e-12, "x[" + i + "] at lambda " + lambda + ", d " + d);
                }
            }
        }
    }

    @Test
    void cacheConservesEachItemAndTheCacheSize() {
        ModelFile cache = shipped("cache");
        assertEquals(20, cache.dimension());
        assertEquals(90, cache.transitionCount());
        double[] pi = fixedPoint(cache);
        double cached = 0;
        for (int i = 0; i < 10; i++) {
            assertEquals(1.0, pi[i] + pi[10 + i], 1e-12, "out + in of item " + (i + 1));
            cached += pi[10 + i];
        }
        // The reference file's init puts items M+1..n in the cache: n − M = 7 items, kept for ever.
        assertEquals(7.0, cached, 1e-12);
        // More popular items are more often cached.
        for (int i = 1; i < 10; i++) {
            assertTrue(pi[10 + i] < pi[10 + i - 1]);
        }
        assertVTwoWays(cache, pi, 2e-6);
    }

    @Test
    void bikeSharingConservesStations() {
        ModelFile bikes = shipped("bike-sharing");
        assertEquals(11, bikes.dimension());
        double[] pi = fixedPoint(bikes);
        double total = 0;
        for (double v : pi) {
            total += v;
            assertTrue(v >= 0);
        }
        assertEquals(1.0, total, 1e-12);
        double[] f = new double[pi.length];
        bikes.model().drift(0, pi, f);
        for (double v : f) {
            assertEquals(0.0, v, 1e-13);
        }
        assertVTwoWays(bikes, pi, 2e-6);
    }

    /** V from exact derivatives against V from finite-difference derivatives (an independent path). */
    private static void assertVTwoWays(ModelFile file, double[] pi, double tolerance) {
        RefinedMeanField refined = new RefinedMeanField(1);
        double[] exact = refined.steadyState(file.model(), pi).firstOrderTerm();
        double[] differenced = refined.steadyState(file.model(),
                new FiniteDifferenceRateDerivatives(new PlainRates(file.model())), pi).firstOrderTerm();
        double scale = 0;
        for (double v : exact) {
            scale = Math.max(scale, Math.abs(v));
        }
        assertTrue(scale > 1e-3, "V is not trivially zero");
        assertArrayEquals(exact, differenced, tolerance * scale);
    }

    @Test
    void everyShippedModelLoadsAndHasAStableFixedPoint() {
        for (ShippedModels.Entry e : ShippedModels.list()) {
            ModelFile m = shipped(e.name());
            FixedPoint fp = new FixedPointSolver().solveConserving(m.model(), m.initialState());
            assertTrue(fp.isStable(), e.name());
            assertTrue(fp.residual() < 1e-12, e.name() + " residual " + fp.residual());
            m.checkRates(fp.state(), "the fixed point");
        }
    }

    @Test
    void compiledRatesAgreeWithTheExpandedTreesAndTheJacobianWithDifferences() {
        Random rng = new Random(11);
        for (ShippedModels.Entry e : ShippedModels.list()) {
            ModelFile m = shipped(e.name());
            double[] stack = new double[m.rates().stackDepth()];
            for (int trial = 0; trial < 5; trial++) {
                double[] x = new double[m.dimension()];
                for (int i = 0; i < x.length; i++) {
                    x[i] = 0.05 + 0.9 * rng.nextDouble();
                }
                for (int l = 0; l < m.transitionCount(); l++) {
                    double tree = m.expression(l).evaluate(x);
                    assertEquals(tree, m.rates().evaluate(l, x, stack), 1e-14 * Math.max(1, Math.abs(tree)),
                            e.name() + " rate " + m.label(l));
                }
                DMatrixRMaj exact = new DMatrixRMaj(x.length, x.length);
                DMatrixRMaj differenced = new DMatrixRMaj(x.length, x.length);
                m.model().jacobian(0, x, exact);
                FiniteDifferences.jacobian(m.model(), 0, x, differenced);
                for (int k = 0; k < exact.data.length; k++) {
                    assertEquals(differenced.data[k], exact.data[k], 1e-6 * Math.max(1, Math.abs(exact.data[k])),
                            e.name());
                }
            }
        }
    }
}
