package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss-pool fluctuation scenario on short runs (a few seconds each): N Cov against W of the
 * service law, the insensitive mean, the three blocking estimators and the time-average variance.
 * Every check allows 3 CI half-widths (about 6 standard errors with 23 degrees of freedom: a false
 * alarm below 1e-5 per check, fixed seeds), plus the model's stated allowance.
 */
class LossPoolScenariosTest {

    @TempDir
    Path dir;

    @Test
    void fluctuationsAgreeForExponentialAndHyperexponentialService() {
        ValidationContext context = new ValidationContext(dir, false, 20261201L, 2);
        for (String law : new String[] {"exp", "h2:scv=4"}) {
            ScenarioOutcome o = LossPoolScenarios.fluctuations("loss-" + law.replace(':', '-').replace('=', '-'), 5, 2,
                    4.5, law, 300).run(context);
            assertTrue(o.passed(), law + ": " + o.checks());
            // 15 covariance entries, 5 means, 2 estimator pairs, the time-average variance
            assertEquals(23, o.checks().size());
        }
    }

    @Test
    void slopeIsFittedOnResolvedPointsOnly() {
        double[] ns = {10, 100, 1000, 10000};
        double[] errors = {0.02, 0.002, 0.0002, 1e-5};
        double[] half = {1e-4, 1e-4, 1e-4, 1e-4};
        // the last two are below 2 half-widths: only two points left
        assertTrue(Double.isNaN(LossPoolScenarios.resolvedSlope(ns, errors, half)));
        double[] small = {1e-6, 1e-6, 1e-6, 1e-7};
        assertEquals(-1.0, LossPoolScenarios.resolvedSlope(new double[] {10, 100, 1000}, new double[] {0.02, 0.002, 0.0002},
                small), 1e-12);
    }

    @Test
    void chiSquareQuantilesAreAccurate() {
        // chi-square quantiles 0.975 and 0.025 with 23 degrees of freedom: 38.076, 11.689 (tables)
        assertEquals(38.076, LossPoolScenarios.chiSquareQuantile(23, 1.959964), 0.02);
        assertEquals(11.689, LossPoolScenarios.chiSquareQuantile(23, -1.959964), 0.02);
    }
}
