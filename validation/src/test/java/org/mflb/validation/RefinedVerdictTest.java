package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.mflb.core.refined.SeriesTerms;
import org.mflb.simulation.Estimate;

/**
 * The refined verdict rule (issue 27): a row of a size expansion whose terms do not decrease is not
 * applicable (neither pass nor fail), no tolerance grows with such a term, and the report shows each
 * tolerance as its statistical part plus its model-error part.
 */
class RefinedVerdictTest {

    /** The review's JBT(2) x[2] at N = 10: 0.925 (order 2) against 0.709 ± 0.016. */
    private static final Estimate SIMULATED = new Estimate(0.709, 0.693, 0.725, 8);

    @Test
    void termsThatStopDecreasingMakeBothRowsNotApplicableInsteadOfAWideTolerance() {
        List<Check> checks = new ArrayList<>();
        // t1 = 0.07, t2 = 0.1: the old rule allowed 3h + 1.5 t2²/|t1| = 0.048 + 0.214 (order 2)
        SeriesTerms terms = new SeriesTerms(10, 0.755, 0.07, 0.1);
        RefinedComparisons.seriesChecks(checks, "x[2]", terms, SIMULATED);
        assertEquals(2, checks.size());
        for (Check c : checks) {
            assertFalse(c.applicable(), c.toString());
            assertFalse(c.passed(), "not applicable is not a pass");
            assertFalse(c.failed(), "nor a failure");
            assertFalse(c.informative());
            assertTrue(c.reason().orElseThrow().contains("not smaller than the 1/N term"), c.toString());
            assertEquals(3 * 0.016, c.tolerance(), 1e-12, "only the statistical part is left");
            assertEquals(0.0, c.modelError(), 0.0);
        }
        assertEquals("x[2], refined order 2, N = 10", checks.get(0).quantity());
        ScenarioOutcome outcome = new ScenarioOutcome("s", "t", "d", checks, Optional.empty(), 0);
        assertTrue(outcome.passed(), "a scenario with nothing failed passes");
        assertEquals(2, outcome.notApplicable());
    }

    @Test
    void decreasingTermsGiveThreeHalfWidthsPlusTheNeglectedTerm() {
        List<Check> checks = new ArrayList<>();
        SeriesTerms terms = new SeriesTerms(20, 0.70, 0.02, 0.004);
        RefinedComparisons.seriesChecks(checks, "E[Q]", terms, SIMULATED);
        Check order2 = checks.get(0);
        Check order1 = checks.get(1);
        assertEquals(0.724, order2.predicted(), 1e-12);
        assertEquals(0.72, order1.predicted(), 1e-12);
        assertEquals(3 * 0.016, order2.statistical(), 1e-12);
        assertEquals(1.5 * 0.004 * 0.004 / 0.02, order2.modelError(), 1e-12);
        assertEquals(1.5 * 0.004, order1.modelError(), 1e-12);
        assertTrue(order2.passed() && order1.passed());
        // the model-error part never exceeds 1.5 |t1|: it cannot grow with a term that stopped decreasing
        assertTrue(order2.modelError() < 1.5 * 0.02 && order1.modelError() < 1.5 * 0.02);
        // an error beyond the tolerance fails
        List<Check> far = new ArrayList<>();
        RefinedComparisons.seriesChecks(far, "E[Q]", new SeriesTerms(20, 0.85, 0.02, 0.004), SIMULATED);
        assertTrue(far.get(0).failed() && far.get(1).failed());
    }

    @Test
    void aPredictionOfZeroAgainstMassIsInformativeAndFails() {
        // x[3] of the review: predicted 0 at every order, simulated 0.21
        Check c = Check.of("x[3]", 0, 0.21, 0.19, 0.23, 3 * 0.02, 0);
        assertTrue(c.informative());
        assertTrue(c.failed());
        Check loose = Check.of("x_9", 1e-5, 2e-5, 0, 4e-5, 6e-5, 1e-4);
        assertFalse(loose.informative(), "a tolerance above both values cannot fail");
    }

    @Test
    void theReportShowsTheTwoPartsAndTheNotApplicableRows() {
        List<Check> checks = new ArrayList<>();
        RefinedComparisons.seriesChecks(checks, "x[2]", new SeriesTerms(10, 0.755, 0.07, 0.1), SIMULATED);
        checks.add(Check.of("x_1", 0.9, 0.899, 0.898, 0.9, 0.003, 0.5));
        checks.add(new Check("legacy", 1, 1, 1, 1, 0.1));
        ScenarioOutcome outcome = new ScenarioOutcome("s", "t", "d", checks, Optional.empty(), 0);
        String md = ReportWriter.markdown(Path.of("."), "h", List.of(outcome));
        assertTrue(md.contains("| tolerance = statistical + model error |"), md);
        assertTrue(md.contains("| 0.50300 = 0.00300 + 0.50000 | pass |"), md);
        assertTrue(md.contains("| 0.10000 (not split) | pass |"), md);
        assertTrue(md.contains("| n/a: at N = 10 the 1/N^2 term 0.100 is not smaller than the 1/N term 0.0700"), md);
        assertTrue(md.contains("2 check(s) not applicable at their N"), md);
        JsonNode summary = ReportWriter.summary(Path.of("."), List.of(outcome));
        assertEquals(2, summary.get("notApplicable").asInt());
        JsonNode first = summary.get("results").get(0).get("checks").get(0);
        assertFalse(first.get("applicable").asBoolean());
        assertTrue(first.get("reason").asText().contains("stopped converging"));
        JsonNode second = summary.get("results").get(0).get("checks").get(2);
        assertEquals(0.003, second.get("statisticalTolerance").asDouble(), 1e-15);
        assertEquals(0.5, second.get("modelErrorTolerance").asDouble(), 0.0);
    }
}
