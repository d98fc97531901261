package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss-pool fluctuation scenario at N = 1000 with the catalogue's full run lengths (64 replications
 * of 250 time units, about 10 s each): N Cov against W of the service law within 3 SE + 1% of W (the
 * issue's tolerance; the 1% is about 2 SE at this length, so an exact W misses by chance with
 * probability P(|t_63| > 4.9), below 1e-5 per entry), the insensitive mean and the three blocking
 * estimators within 3 CI half-widths (about 6 SE) and the time-average variance within its 3-sigma
 * chi-square interval (0.27%): a false alarm below 0.3% per law, fixed seeds.
 */
class LossPoolScenariosTest {

    @TempDir
    Path dir;

    @Test
    void fluctuationsAgreeForExponentialAndHyperexponentialService() {
        ValidationContext context = new ValidationContext(dir, true, 20261201L, 2);
        for (String law : new String[] {"exp", "h2:scv=4"}) {
            ScenarioOutcome o = LossPoolScenarios.fluctuations("loss-" + law.replace(':', '-').replace('=', '-'), 5, 2,
                    4.5, law, 1000).run(context);
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
    void jointFalseAlarmIsTheBinomialTailPlusTheFourSeUnionBound() {
        // m = 1: only the 4 SE event can fail it
        assertEquals(1e-4, LossPoolScenarios.jointFalseAlarm(1, 0.003, 1e-4), 1e-15);
        // m = 21, q3 = 0.0038, q4 = 1.7e-4: P(Bin >= 2) = 1 - 0.9962^21 - 21 (0.0038) 0.9962^20 = 0.002890
        assertEquals(0.002890 + 21 * 1.7e-4, LossPoolScenarios.jointFalseAlarm(21, 0.0038, 1.7e-4), 2e-6);
        // the union bound of "none may miss 3 SE" is far larger
        assertTrue(LossPoolScenarios.jointFalseAlarm(21, 0.0038, 1.7e-4) < 21 * 0.0038 / 8);
    }

    @Test
    void chiSquareQuantilesAreAccurate() {
        // chi-square quantiles 0.975 and 0.025 with 23 degrees of freedom: 38.076, 11.689 (tables)
        assertEquals(38.076, LossPoolScenarios.chiSquareQuantile(23, 1.959964), 0.02);
        assertEquals(11.689, LossPoolScenarios.chiSquareQuantile(23, -1.959964), 0.02);
    }
}
