package org.mflb.core.refined;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;

import org.hipparchus.CalculusFieldElement;
import org.junit.jupiter.api.Test;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;

class AutomaticRateDerivativesTest {

    @Test
    void sparsityOfTheTwoChoiceRatesIsDiscoveredAndColouredWithTwoGroups() {
        int k = 7;
        AutomaticRateDerivatives ad = new AutomaticRateDerivatives(new TailModel(k, 0.8, 2, false));
        ClosedFormTailModel reference = new ClosedFormTailModel(k, 0.8, 2, false);
        for (int l = 0; l < 2 * k; l++) {
            assertArrayEquals(reference.support(l), ad.support(l), "transition " + l);
        }
        assertEquals(2, ad.groupCount());
    }

    @Test
    void automaticJetsEqualClosedFormsUpToFourthOrder() {
        int k = 9;
        for (int d : new int[] {2, 3}) {
            ClosedFormTailModel model = new ClosedFormTailModel(k, 0.9, d, true);
            AutomaticRateDerivatives ad = new AutomaticRateDerivatives(model);
            RateJets exact = new RateJets(model, 2 * k, 4);
            RateJets auto = new RateJets(ad, 2 * k, 4);
            Random rng = new Random(d);
            double[] x = new double[k];
            for (int i = 0; i < k; i++) {
                x[i] = rng.nextDouble();
            }
            model.evaluate(1.0, x, exact);
            ad.evaluate(1.0, x, auto);
            for (int l = 0; l < 2 * k; l++) {
                // Both are exact up to rounding of a few operations on numbers of order λd⁴.
                assertEquals(exact.value(l), auto.value(l), 1e-14);
                assertArrayEquals(exact.gradient(l), auto.gradient(l), 1e-14);
                assertArrayEquals(exact.hessian(l), auto.hessian(l), 1e-13);
                assertArrayEquals(exact.third(l), auto.third(l), 1e-13);
                assertArrayEquals(exact.fourth(l), auto.fourth(l), 1e-13);
            }
        }
    }

    /** Rates with mixed partial derivatives on a three-coordinate support, and a constant one. */
    private static final SmoothPopulationModel MIXED = new SmoothPopulationModel() {
        @Override
        public int getDimension() {
            return 4;
        }

        @Override
        public List<Transition> transitions() {
            return List.of(Transition.unit(0, 1), Transition.unit(3, -1), Transition.unit(1, 1));
        }

        @Override
        public ArrivalRate arrivalRate() {
            return ArrivalRate.constant(1);
        }

        @Override
        public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta) {
            // β0 = x0 x1² + sin(x3) x0 ;  β1 = exp(x1 x3) ;  β2 = 2 (no dependence)
            beta[0] = x[0].multiply(x[1].square()).add(x[3].sin().multiply(x[0]));
            beta[1] = x[1].multiply(x[3]).exp();
            beta[2] = x[0].getField().getOne().multiply(2.0);
        }
    };

    @Test
    void mixedPartialsOnWideSupportsMatchHandDerivatives() {
        AutomaticRateDerivatives ad = new AutomaticRateDerivatives(MIXED);
        assertArrayEquals(new int[] {0, 1, 3}, ad.support(0));
        assertArrayEquals(new int[] {1, 3}, ad.support(1));
        assertArrayEquals(new int[0], ad.support(2));
        RateJets jets = new RateJets(ad, 3, 4);
        // Coordinate 2 (0.9) is used by no rate; the supports see (y0, y1, y3) = (0.3, 0.55, 0.4).
        double y0 = 0.3;
        double y1 = 0.55;
        double y3 = 0.4;
        ad.evaluate(0.0, new double[] {y0, y1, 0.9, y3}, jets);
        // β0 over (y0, y1, y3): gradient (y1² + sin y3, 2 y0 y1, y0 cos y3)
        assertArrayEquals(new double[] {y1 * y1 + Math.sin(y3), 2 * y0 * y1, y0 * Math.cos(y3)}, jets.gradient(0), 1e-15);
        double[] h = jets.hessian(0);
        assertEquals(0.0, h[0], 0.0);
        assertEquals(2 * y1, h[1], 1e-15);
        assertEquals(Math.cos(y3), h[2], 1e-15);
        assertEquals(h[1], h[3], 0.0);
        assertEquals(2 * y0, h[4], 1e-15);
        assertEquals(-y0 * Math.sin(y3), h[8], 1e-15);
        double[] d3 = jets.third(0);
        // ∂³/∂y0∂y1∂y1 = 2, ∂³/∂y0∂y3∂y3 = −sin y3, ∂³/∂y3³ = −y0 cos y3, in every index order.
        assertEquals(2.0, d3[(0 * 3 + 1) * 3 + 1], 1e-15);
        assertEquals(2.0, d3[(1 * 3 + 0) * 3 + 1], 1e-15);
        assertEquals(2.0, d3[(1 * 3 + 1) * 3 + 0], 1e-15);
        assertEquals(-Math.sin(y3), d3[(2 * 3 + 0) * 3 + 2], 1e-15);
        assertEquals(-y0 * Math.cos(y3), d3[(2 * 3 + 2) * 3 + 2], 1e-15);
        assertEquals(0.0, d3[(1 * 3 + 1) * 3 + 1], 0.0);
        double[] d4 = jets.fourth(0);
        assertEquals(-Math.cos(y3), d4[((0 * 3 + 2) * 3 + 2) * 3 + 2], 1e-15);
        assertEquals(y0 * Math.sin(y3), d4[((2 * 3 + 2) * 3 + 2) * 3 + 2], 1e-15);
        // β1 = exp(y1 y3) over (y1, y3): ∂⁴/∂y1²∂y3² = (2 + 4 y1 y3 + y1² y3²) e^{y1 y3}
        double e = Math.exp(y1 * y3);
        assertEquals(e, jets.value(1), 1e-15);
        double p = y1 * y3;
        assertEquals((2 + 4 * p + p * p) * e, jets.fourth(1)[((0 * 2 + 0) * 2 + 1) * 2 + 1], 1e-13);
        assertEquals((2 + 4 * p + p * p) * e, jets.fourth(1)[((0 * 2 + 1) * 2 + 0) * 2 + 1], 1e-13);
        assertEquals(2.0, jets.value(2), 0.0);
    }

    @Test
    void finiteDifferencesAgreeWithAutomaticDerivatives() {
        AutomaticRateDerivatives ad = new AutomaticRateDerivatives(MIXED);
        FiniteDifferenceRateDerivatives fd = new FiniteDifferenceRateDerivatives(new PlainModel(MIXED));
        for (int l = 0; l < 3; l++) {
            assertArrayEquals(ad.support(l), fd.support(l));
        }
        RateJets a = new RateJets(ad, 3, 2);
        RateJets f = new RateJets(fd, 3, 2);
        double[] x = {0.3, 0.55, 0.9, 0.4};
        ad.evaluate(0, x, a);
        fd.evaluate(0, x, f);
        for (int l = 0; l < 3; l++) {
            assertEquals(a.value(l), f.value(l), 1e-15);
            // Central differences: O(h²) + O(ε/h) with h = ε^{1/3} (≈ 1e-10) and ε^{1/4} (≈ 1e-7).
            assertArrayEquals(a.gradient(l), f.gradient(l), 1e-9);
            assertArrayEquals(a.hessian(l), f.hessian(l), 1e-6);
        }
    }

    @Test
    void defaultPlainRatesGoThroughTheFieldRates() {
        double[] beta = new double[3];
        MIXED.rates(0.0, new double[] {0.3, 0.55, 0.9, 0.4}, beta);
        assertEquals(0.3 * 0.55 * 0.55 + Math.sin(0.4) * 0.3, beta[0], 1e-16);
        assertEquals(Math.exp(0.55 * 0.4), beta[1], 1e-15);
        assertEquals(2.0, beta[2], 0.0);
    }
}
