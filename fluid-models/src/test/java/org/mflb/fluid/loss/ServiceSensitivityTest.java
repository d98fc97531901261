package org.mflb.fluid.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.fluid.SmoothRouting;

/** The phase-type population model of loss pools and the sensitivity of W, V, R_B and τ (docs/models.md §8). */
class ServiceSensitivityTest {

    private static final SmoothRouting SQ2 = PowerOfD.withReplacement(2);

    @Test
    void onePhaseReproducesTheScalarModel() {
        for (SmoothRouting p : new SmoothRouting[] {SQ2, PowerOfD.distinct(2, 10), PowerOfD.withReplacement(3)}) {
            LossPoolLimit scalar = LossPoolLimit.of(5, p, 4.5);
            ServiceSensitivity ph = ServiceSensitivity.of(5, p, 4.5, ServiceDistributions.parse("exp"));
            assertClose(scalar.covariance(), ph.covariance(), 1e-12, p.name());
            for (int i = 0; i < 5; i++) {
                assertEquals(scalar.fixedPoint()[i], ph.fixedPoint()[i], 1e-13);
                assertEquals(scalar.refinedTerm()[i], ph.refinedTerm()[i], 1e-12);
                assertEquals(scalar.timeAverageVariance()[i], ph.timeAverageVariance()[i], 1e-12);
            }
            assertEquals(scalar.blockingCorrection(), ph.blockingCorrection(), 1e-12);
        }
    }

    @Test
    void fixedPointIsTheProductFormForErlangAndH2() {
        LossPoolLimit exponential = LossPoolLimit.of(5, SQ2, 4.5);
        for (String spec : new String[] {"erlang:k=3", "h2:scv=4", "gamma:scv=0.5"}) {
            PhaseTypeLossModel model = PhaseTypeLossModel.of(5, SQ2, 4.5,
                    ServiceSensitivity.phaseType(ServiceDistributions.parse(spec)));
            // solved from the empty state (flow first, then Newton), not from the product form
            double[] y = new FixedPointSolver().solve(model, new double[model.getDimension()]).state();
            double[] product = model.productForm(exponential.fixedPoint());
            for (int s = 0; s < y.length; s++) {
                assertEquals(product[s], y[s], 1e-12, spec + " state " + java.util.Arrays.toString(model.state(s)));
            }
            ServiceSensitivity sens = ServiceSensitivity.of(5, SQ2, 4.5, ServiceDistributions.parse(spec));
            assertTrue(sens.productFormDistance() < 1e-13, spec);
            assertTrue(sens.residual() < 1e-13, spec);
            for (int i = 0; i < 5; i++) {
                assertEquals(exponential.fixedPoint()[i], sens.fixedPoint()[i], 1e-13);
            }
        }
    }

    @Test
    void randomRoutingAndUnitCapacityAreExactlyInsensitive() {
        for (String spec : new String[] {"erlang:k=2", "h2:scv=4"}) {
            LossPoolLimit expD1 = LossPoolLimit.of(5, RandomRouting.INSTANCE, 4.0);
            ServiceSensitivity d1 = ServiceSensitivity.of(5, RandomRouting.INSTANCE, 4.0, ServiceDistributions.parse(spec));
            assertClose(expD1.covariance(), d1.covariance(), 1e-12, spec + " d = 1");
            assertEquals(0.0, d1.blockingCorrection(), 1e-12);
            LossPoolLimit expC1 = LossPoolLimit.of(1, SQ2, 0.8);
            ServiceSensitivity c1 = ServiceSensitivity.of(1, SQ2, 0.8, ServiceDistributions.parse(spec));
            assertClose(expC1.covariance(), c1.covariance(), 1e-12, spec + " C = 1");
            assertEquals(expC1.blockingCorrection(), c1.blockingCorrection(), 1e-12);
        }
    }

    @Test
    void timeAverageVarianceScalesLikeOnePlusScvOverTwoForUnitCapacity() {
        LossPoolLimit exponential = LossPoolLimit.of(1, SQ2, 0.8);
        for (String spec : new String[] {"erlang:k=2", "erlang:k=4", "h2:scv=4"}) {
            var law = ServiceDistributions.parse(spec);
            ServiceSensitivity s = ServiceSensitivity.of(1, SQ2, 0.8, law);
            assertEquals((1 + law.scv()) / 2, s.timeAverageVariance()[0] / exponential.timeAverageVariance()[0], 1e-10, spec);
        }
    }

    /**
     * Measured at C = 5, d = 2, lambda = 4.5: W_55 +0.18% (Erlang-2), -0.24% (H2, SCV 4); R_B 0.18079
     * (Erlang-2), 0.18030 (H2) against 0.18060; tau_i / tau_i(exp) from 0.90 (level 1) to 0.753 (level 5)
     * for Erlang-2 ((1 + c^2)/2 = 0.75), from 1.26 to 2.48 for H2 (2.5).
     */
    @Test
    void covarianceIsWeaklySensitiveAndTheCorrectionTwoWaysAgrees() {
        LossPoolLimit exponential = LossPoolLimit.of(5, SQ2, 4.5);
        for (String spec : new String[] {"erlang:k=2", "h2:scv=4", "erlang:k=4"}) {
            var law = ServiceDistributions.parse(spec);
            ServiceSensitivity s = ServiceSensitivity.of(5, SQ2, 4.5, law);
            assertEquals(s.blockingCorrection(), s.blockingCorrectionByLittle(), 1e-12, spec);
            double worst = 0;
            for (int i = 0; i < 5; i++) {
                double wi = exponential.covariance().get(i, i);
                worst = Math.max(worst, Math.abs(s.covariance().get(i, i) - wi) / wi);
            }
            assertTrue(worst < 0.01, spec + ": " + worst);
            // at the top level the time-average variance follows (1 + c^2)/2 to within 2%
            double ratio = s.timeAverageVariance()[4] / exponential.timeAverageVariance()[4];
            assertEquals(1.0, ratio / ((1 + law.scv()) / 2), 0.02, spec);
        }
    }

    @Test
    void closedFormDerivativesAgreeWithAutomaticDifferentiation() {
        for (SmoothRouting p : new SmoothRouting[] {SQ2, PowerOfD.distinct(3, 10)}) {
            PhaseTypeLossModel model = PhaseTypeLossModel.of(3, p, 2.5,
                    ServiceSensitivity.phaseType(ServiceDistributions.parse("h2:scv=3")));
            double[] y = model.productForm(LossPoolLimit.of(3, p, 2.5).fixedPoint());
            var closed = new org.mflb.core.refined.RefinedMeanField(1).steadyState(model, model, y);
            var automatic = new org.mflb.core.refined.RefinedMeanField(1).steadyState(model,
                    new org.mflb.core.refined.AutomaticRateDerivatives(model), y);
            assertClose(automatic.covarianceTerm(), closed.covarianceTerm(), 1e-12, p.name());
            for (int s = 0; s < y.length; s++) {
                assertEquals(automatic.firstOrderTerm()[s], closed.firstOrderTerm()[s], 1e-12, p.name());
            }
        }
    }

    @Test
    void nonPhaseTypeLawsAreRefusedWithTheSimulatorNamed() {
        for (String spec : new String[] {"det", "lognormal:scv=4", "gamma:scv=0.3"}) {
            MflbException e = assertThrows(MflbException.class,
                    () -> ServiceSensitivity.of(5, SQ2, 4.5, ServiceDistributions.parse(spec)));
            assertEquals("service", e.parameter());
            assertTrue(e.getMessage().contains("simulator"), e.getMessage());
        }
        // Erlang-10 at C = 5: C(15, 5) - 1 = 3002 pool states, refused before they are enumerated
        MflbException large = assertThrows(MflbException.class,
                () -> ServiceSensitivity.of(5, SQ2, 4.5, ServiceDistributions.parse("erlang:k=10")));
        assertEquals("service", large.parameter());
        assertTrue(large.getMessage().contains("3002"), large.getMessage());
    }

    private static void assertClose(DMatrixRMaj expected, DMatrixRMaj actual, double tol, String what) {
        for (int i = 0; i < expected.numRows; i++) {
            for (int j = 0; j < expected.numCols; j++) {
                assertEquals(expected.get(i, j), actual.get(i, j), tol, what + " (" + i + ", " + j + ")");
            }
        }
    }
}
