package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.distribution.continuous.TDistribution;

/**
 * Collects "truth within the 95% confidence interval (plus a stated slack)" checks and asserts at
 * the end that at most a stated number missed. Each check — a single interval ({@link #check}) or
 * one joint check of several estimates of the same run ({@link #joint}) — misses with probability
 * at most 5%, and different checks come from different runs (seeds or configurations), so the
 * number of misses of m checks is at most Binomial(m, 0.05) in distribution; each test states its
 * allowance and the resulting false-alarm probability. Estimates of one run (the levels of one tail
 * vector, the grid points of one set of replications, statistics tied by identities such as
 * L = Σ x_i or Little's law) are correlated and must go into one joint check: counted one by one they
 * would make one unlucky run look like several independent misses.
 *
 * <p>Seeds are fixed, so a test is deterministic; the allowance keeps it from depending on one lucky
 * stream when the code that consumes random numbers changes.
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
     * One joint check of entries {@code from, from + 1, …} of one tail vector with exact truths
     * (see {@link Joint}).
     *
     * @param label what is checked
     * @param estimates the estimates of one run
     * @param from index of the first estimate checked
     * @param truths exact values of entries {@code from, from + 1, …}
     */
    void checkJointly(String label, VectorEstimate estimates, int from, double[] truths) {
        Joint joint = joint(label);
        joint.levels(estimates, from, truths, 0);
        joint.check();
    }

    /** @return an empty joint check: add the estimates of one run, then call {@link Joint#check()} */
    Joint joint(String label) {
        return new Joint(label);
    }

    /**
     * One check for {@code k} estimates of the same run. They are correlated, so they count as one
     * check, with every interval widened by the Bonferroni factor
     * <pre>
     *   t_ν(1 − 0.025/k) / t_ν(0.975),   ν = samples − 1 of that estimate,
     * </pre>
     * (Student-t quantiles, as the intervals themselves are Student-t intervals over replications or
     * batch means), so that all {@code k} cover their truths together with probability at least 95%
     * whatever their correlation (Bonferroni's inequality). Each estimate keeps its own slack.
     */
    final class Joint {

        private final String label;
        private final List<String> names = new ArrayList<>();
        private final List<Estimate> estimates = new ArrayList<>();
        private final List<double[]> truthAndSlack = new ArrayList<>();

        private Joint(String label) {
            this.label = label;
        }

        /** Adds one estimate of the run with its exact value and its deterministic slack. */
        Joint add(String name, Estimate e, double truth, double slack) {
            names.add(name);
            estimates.add(e);
            truthAndSlack.add(new double[] {truth, slack});
            return this;
        }

        /** Adds entries {@code from, from + 1, …} of a tail vector, named x_i. */
        Joint levels(VectorEstimate v, int from, double[] truths, double slack) {
            for (int i = 0; i < truths.length; i++) {
                add("x_" + (from + i), v.get(from + i), truths[i], slack);
            }
            return this;
        }

        /** Records the joint check: one miss if any estimate is outside its widened interval. */
        void check() {
            count++;
            int k = estimates.size();
            boolean ok = true;
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < k; i++) {
                Estimate e = estimates.get(i);
                double truth = truthAndSlack.get(i)[0];
                double slack = truthAndSlack.get(i)[1];
                double widen = bonferroniFactor(k, e.samples() - 1);
                double half = widen * e.halfWidth() + slack;
                boolean in = Math.abs(truth - e.mean()) <= half;
                ok &= in;
                lines.append(String.format("%-40s truth %.6f  estimate %.6f  [%.6f, %.6f] (95%% x %.2f, slack %.1e)%s%n",
                        label + " " + names.get(i), truth, e.mean(), e.mean() - half, e.mean() + half, widen, slack,
                        in ? "" : "  out"));
            }
            String block = lines + label + " (joint, " + k + " estimates)" + (ok ? "" : "  MISS") + "\n";
            log.append(block);
            if (!ok) {
                misses.add(block);
            }
        }
    }

    /** @return t_df(1 − 0.025/k) / t_df(0.975), the Bonferroni widening of k 95% Student-t intervals */
    static double bonferroniFactor(int k, int df) {
        if (k == 1) {
            return 1;
        }
        if (df < 1) {
            return Double.NaN; // no interval: the check fails, as a single check would
        }
        TDistribution t = new TDistribution(df);
        return t.inverseCumulativeProbability(1 - 0.025 / k) / t.inverseCumulativeProbability(0.975);
    }

    /** Asserts an absolute bound that needs no interval (e.g. a value that must be tiny). */
    void require(String label, boolean condition) {
        log.append(label).append(condition ? "" : "  FAILED").append('\n');
        assertTrue(condition, label + "\n" + log);
    }

    /** @return number of checks so far (a joint check counts once) */
    int count() {
        return count;
    }

    /** Asserts that at most {@code allowed} checks missed. */
    void assertAtMostMisses(int allowed) {
        String summary = misses.size() + " of " + count + " checks missed (allowed " + allowed + ")";
        if (System.getenv("MFLB_TEST_VERBOSE") != null) {
            String caller = StackWalker.getInstance().walk(s -> s.skip(1).findFirst())
                    .map(f -> f.getClassName().replaceAll(".*\\.", "") + "." + f.getMethodName()).orElse("?");
            System.out.print(log);
            System.out.println("SUMMARY " + caller + ": " + summary);
        }
        assertTrue(misses.size() <= allowed, summary + ":\n" + log);
    }
}
