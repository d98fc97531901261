package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The threshold-policy fluid limits against the simulator, in quick mode, with a fixed seed. */
class ThresholdScenariosTest {

    @TempDir
    Path dir;

    /**
     * Tail checks: 3 half-widths of a 10-replication t-interval are 6.8 standard errors, plus the
     * 0.1/√N sliding allowance, so a chance miss is rare; 2% of the checks (at least one) may miss.
     * Jump-time and scaling checks are few and must all pass (their tolerances are stated in
     * {@link ThresholdScenarios}).
     */
    @Test
    void thresholdFluidLimitsAgreeWithTheSimulatedSystem() throws Exception {
        ValidationContext context = new ValidationContext(dir, false, 20240601L, 2);
        List<ValidationScenario> scenarios = ThresholdScenarios.scenarios();
        assertEquals(4, scenarios.size());
        for (ValidationScenario s : scenarios) {
            ScenarioOutcome outcome = s.run(context);
            System.out.println("== " + s.id() + " (" + String.format("%.1f", outcome.seconds()) + " s)\n"
                    + outcome.description());
            List<Check> strict = outcome.checks().stream()
                    .filter(c -> c.quantity().contains("jump") || c.quantity().contains("sup error")).toList();
            long failed = outcome.checks().stream().filter(c -> !c.passed()).count();
            long strictFailed = strict.stream().filter(c -> !c.passed()).count();
            outcome.checks().stream().filter(c -> !c.passed()).forEach(c -> System.out.println("  FAIL " + c));
            assertTrue(outcome.checks().size() >= 2, s.id() + ": " + outcome.checks().size() + " checks");
            assertEquals(0, strictFailed, s.id() + ": jump or scaling check failed");
            assertTrue(failed <= Math.max(1, outcome.checks().size() / 50), s.id() + ": " + failed + " of "
                    + outcome.checks().size() + " checks failed; worst " + outcome.maxErrorInHalfWidths() + " half-widths");
            assertTrue(Files.size(outcome.figure().orElseThrow()) > 0);
        }
    }
}
