package org.mflb.validation;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What one validation scenario found: the comparisons it made, the rule its tolerances follow,
 * its figure, and how long it took.
 *
 * @param id short identifier, also the figure's file name
 * @param title one-line title
 * @param description what is compared and why the tolerance is what it is
 * @param checks the comparisons
 * @param figure the figure file, if one was drawn
 * @param seconds wall time
 */
public record ScenarioOutcome(String id, String title, String description, List<Check> checks, Optional<Path> figure,
        double seconds) {

    /** Copies the list. */
    public ScenarioOutcome {
        checks = List.copyOf(checks);
    }

    /** @return whether no check failed (checks not applicable at their size are neither passes nor failures) */
    public boolean passed() {
        return checks.stream().noneMatch(Check::failed);
    }

    /** @return how many checks are not applicable at their size ({@link Check#applicable()}) */
    public long notApplicable() {
        return checks.stream().filter(c -> !c.applicable()).count();
    }

    /** @return the largest error over the checks */
    public double maxError() {
        return checks.stream().mapToDouble(Check::error).max().orElse(0);
    }

    /**
     * @return the largest error in CI half-widths over the checks whose interval has positive width
     *         (a level no replication ever reached has a zero-width interval at 0)
     */
    public double maxErrorInHalfWidths() {
        return checks.stream().filter(c -> c.halfWidth() > 0).mapToDouble(Check::errorInHalfWidths).max().orElse(0);
    }
}
