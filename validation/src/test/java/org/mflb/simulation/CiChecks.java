package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.special.Erf;

/**
 * Collects "truth within the 95% confidence interval (plus a stated slack)" checks and asserts at
 * the end that at most a stated number missed. With m independent checks at 95% the number of
 * misses is Binomial(m, 0.05); each test states its allowance and the resulting false-alarm
 * probability. Seeds are fixed, so a test is deterministic; the allowance keeps it from depending on
 * one lucky stream when the code that consumes random numbers changes.
 */
final class CiChecks {

    private final List<String> misses = new ArrayList<>();
    private final StringBuilder log = new StringBuilder();
    private int count;

    /**
     * @param label what is checked
     * @param e the estimate
     * @param truth the exact value
     * @param slack known deterministic error added to the interval (0 for an exact truth)
     */
    void check(String label, Estimate e, double truth, double slack) {
        count++;
        boolean ok = truth >= e.ci95Low() - slack && truth <= e.ci95High() + slack;
        String line = String.format("%-40s truth %.6f  estimate %.6f  [%.6f, %.6f] slack %.1e%s", label, truth,
                e.mean(), e.ci95Low(), e.ci95High(), slack, ok ? "" : "  MISS");
        log.append(line).append('\n');
        if (!ok) {
            misses.add(line);
        }
    }

    /**
     * One check for {@code k} estimates of the same run (e.g. the levels of one tail vector). They
     * are strongly correlated, so they must not count as {@code k} independent checks: they count
     * as one, with every interval widened by the Bonferroni factor {@code z(1 − 0.025/k) / z(0.975)}
     * (normal quantiles), so that all {@code k} cover their truths together with probability at
     * least about 95%.
     *
     * @param label what is checked
     * @param estimates the estimates of one run
     * @param from index of the first estimate checked
     * @param truths exact values of entries {@code from, from + 1, …}
     */
    void checkJointly(String label, VectorEstimate estimates, int from, double[] truths) {
        count++;
        int k = truths.length;
        double widen = Math.sqrt(2) * Erf.erfInv(1 - 0.05 / k) / (Math.sqrt(2) * Erf.erfInv(0.95));
        boolean ok = true;
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < k; i++) {
            Estimate e = estimates.get(from + i);
            double half = widen * e.halfWidth();
            boolean in = Math.abs(truths[i] - e.mean()) <= half;
            ok &= in;
            lines.append(String.format("%-40s truth %.6f  estimate %.6f  [%.6f, %.6f] (95%% x %.2f)%s%n",
                    label + " [" + (from + i) + "]", truths[i], e.mean(), e.mean() - half, e.mean() + half, widen, in ? "" : "  out"));
        }
        String block = lines + (ok ? "" : label + "  MISS (joint)\n");
        log.append(block);
        if (!ok) {
            misses.add(block);
        }
    }

    /** Asserts an absolute bound that needs no interval (e.g. a value that must be tiny). */
    void require(String label, boolean condition) {
        log.append(label).append(condition ? "" : "  FAILED").append('\n');
        assertTrue(condition, label + "\n" + log);
    }

    /** @return number of checks so far */
    int count() {
        return count;
    }

    /** Asserts that at most {@code allowed} checks missed. */
    void assertAtMostMisses(int allowed) {
        if (System.getenv("MFLB_TEST_VERBOSE") != null) {
            System.out.print(log);
        }
        assertTrue(misses.size() <= allowed, misses.size() + " of " + count + " checks missed (allowed "
                + allowed + "):\n" + log);
    }
}
