package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.distribution.continuous.TDistribution;
import org.mflb.core.Require;

/**
 * Collects "truth within the confidence interval (plus a stated slack)" checks and asserts at the
 * end that at most a stated number missed.
 *
 * <p>Each check — a single interval ({@link #check}) or one joint check of several estimates of the
 * same run ({@link #joint}) — misses with probability at most {@code p}, the miss probability given
 * to the constructor (0.05 by default): the estimate's 95% Student-t interval is widened to level
 * 1 − p, and the k intervals of a joint check to level 1 − p/k each (Bonferroni), by the factor
 * <pre>
 *   t_ν(1 − p/(2k)) / t_ν(0.975),   ν = samples − 1 of that estimate,  k = 1 for a single check,
 * </pre>
 * applied to the 95% half-width; a deterministic slack is then added unchanged. Different checks
 * come from different runs (seeds or configurations), so the number of misses of m checks is at most
 * Binomial(m, p) in distribution, and allowing none gives a false-alarm probability of at most m·p
 * (union bound, whatever the dependence). A test with few checks therefore allows no miss and sets
 * p = 0.01/m: every run is checked and the false-alarm probability stays ≤ 1%. Tests with many
 * checks may keep p = 0.05 and allow a few misses, P(Binomial(m, 0.05) > allowed) ≤ ~1%, when that
 * allowance cannot hide a whole engine, policy or law. Each test states m, p, its allowance and the
 * bound.
 *
 * <p>Estimates of one run (the levels of one tail vector, the grid points of one set of replications,
 * statistics tied by identities such as L = Σ x_i or Little's law) are correlated and must go into
 * one joint check: counted one by one they would make one unlucky run look like several independent
 * misses.
 *
 * <p>Seeds are fixed, so a test is deterministic; the miss probability (and any allowance) keeps it
 * from depending on one lucky stream when the code that consumes random numbers changes.
 */
public final class CiChecks {

    /** The default miss probability per check: the 95% intervals as they are. */
    public static final double DEFAULT_MISS_PROBABILITY = 0.05;

    private final double missProbability;
    private final List<String> misses = new ArrayList<>();
    private final StringBuilder log = new StringBuilder();
    private int count;

    /** Checks at the 95% intervals as they are (miss probability 0.05 per check). */
    public CiChecks() {
        this(DEFAULT_MISS_PROBABILITY);
    }

    /**
     * @param missProbability p in (0, 1): every check, single or joint, misses with probability at
     *        most p (intervals widened to family coverage 1 − p; see the class comment)
     */
    public CiChecks(double missProbability) {
        this.missProbability = Require.open("missProbability", missProbability, 0, 1);
    }

    /**
     * One single check (k = 1): the truth must lie in the estimate's interval widened to level
     * 1 − p, plus the slack.
     *
     * @param label what is checked
     * @param e the estimate
     * @param truth the exact value
     * @param slack known deterministic error added to the interval (0 for an exact truth)
     */
    public void check(String label, Estimate e, double truth, double slack) {
        count++;
        double widen = wideningFactor(missProbability, 1, e.samples() - 1);
        double low = low(e, widen, slack);
        double high = high(e, widen, slack);
        boolean ok = truth >= low && truth <= high;
        String line = String.format("%-40s truth %.6f  estimate %.6f  [%.6f, %.6f] (95%% x %.2f, slack %.1e)%s",
                label, truth, e.mean(), low, high, widen, slack, ok ? "" : "  MISS");
        log.append(line).append('\n');
        if (!ok) {
            misses.add(line);
        }
    }

    /** @return the lower end of {@code e}'s 95% interval widened by {@code widen}, minus the slack */
    private static double low(Estimate e, double widen, double slack) {
        return e.mean() - widen * (e.mean() - e.ci95Low()) - slack;
    }

    /** @return the upper end of {@code e}'s 95% interval widened by {@code widen}, plus the slack */
    private static double high(Estimate e, double widen, double slack) {
        return e.mean() + widen * (e.ci95High() - e.mean()) + slack;
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
    public void checkJointly(String label, VectorEstimate estimates, int from, double[] truths) {
        Joint joint = joint(label);
        joint.levels(estimates, from, truths, 0);
        joint.check();
    }

    /** @return an empty joint check: add the estimates of one run, then call {@link Joint#check()} */
    public Joint joint(String label) {
        return new Joint(label);
    }

    /**
     * One check for {@code k} estimates of the same run. They are correlated, so they count as one
     * check, with every interval widened by the Bonferroni factor
     * <pre>
     *   t_ν(1 − p/(2k)) / t_ν(0.975),   ν = samples − 1 of that estimate,
     * </pre>
     * (Student-t quantiles, as the intervals themselves are Student-t intervals over replications or
     * batch means), so that all {@code k} cover their truths together with probability at least
     * 1 − p whatever their correlation (Bonferroni's inequality). Each estimate keeps its own slack.
     */
    public final class Joint {

        private final String label;
        private final List<String> names = new ArrayList<>();
        private final List<Estimate> estimates = new ArrayList<>();
        private final List<double[]> truthAndSlack = new ArrayList<>();

        private Joint(String label) {
            this.label = label;
        }

        /** Adds one estimate of the run with its exact value and its deterministic slack. */
        public Joint add(String name, Estimate e, double truth, double slack) {
            names.add(name);
            estimates.add(e);
            truthAndSlack.add(new double[] {truth, slack});
            return this;
        }

        /** Adds entries {@code from, from + 1, …} of a tail vector, named x_i. */
        public Joint levels(VectorEstimate v, int from, double[] truths, double slack) {
            for (int i = 0; i < truths.length; i++) {
                add("x_" + (from + i), v.get(from + i), truths[i], slack);
            }
            return this;
        }

        /** Records the joint check: one miss if any estimate is outside its widened interval. */
        public void check() {
            count++;
            int k = estimates.size();
            boolean ok = true;
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < k; i++) {
                Estimate e = estimates.get(i);
                double truth = truthAndSlack.get(i)[0];
                double slack = truthAndSlack.get(i)[1];
                double widen = wideningFactor(missProbability, k, e.samples() - 1);
                double low = low(e, widen, slack);
                double high = high(e, widen, slack);
                boolean in = truth >= low && truth <= high;
                ok &= in;
                lines.append(String.format("%-40s truth %.6f  estimate %.6f  [%.6f, %.6f] (95%% x %.2f, slack %.1e)%s%n",
                        label + " " + names.get(i), truth, e.mean(), low, high, widen, slack, in ? "" : "  out"));
            }
            String block = lines + label + " (joint, " + k + " estimates)" + (ok ? "" : "  MISS") + "\n";
            log.append(block);
            if (!ok) {
                misses.add(block);
            }
        }
    }

    /**
     * @return t_df(1 − p/(2k)) / t_df(0.975): the factor that widens k 95% Student-t intervals with
     *         df degrees of freedom to family coverage 1 − p (Bonferroni); 1 for k = 1, p = 0.05
     */
    public static double wideningFactor(double p, int k, int df) {
        if (k == 1 && p == DEFAULT_MISS_PROBABILITY) {
            return 1;
        }
        if (df < 1) {
            return Double.NaN; // no interval: the check fails, as a single check would
        }
        TDistribution t = new TDistribution(df);
        return t.inverseCumulativeProbability(1 - p / (2 * k)) / t.inverseCumulativeProbability(0.975);
    }

    /** Asserts an absolute bound that needs no interval (e.g. a value that must be tiny). */
    public void require(String label, boolean condition) {
        log.append(label).append(condition ? "" : "  FAILED").append('\n');
        assertTrue(condition, label + "\n" + log);
    }

    /** @return number of checks so far (a joint check counts once) */
    public int count() {
        return count;
    }

    /**
     * Asserts that at most {@code allowed} checks missed. The message states the false-alarm bound of
     * the test for its m checks: m·p when none is allowed (union bound, whatever the dependence between
     * runs), P(Binomial(m, p) > allowed) otherwise (independent runs).
     */
    public void assertAtMostMisses(int allowed) {
        String bound = count == 0 ? "no interval check"
                : allowed == 0
                        ? String.format("false alarm <= %d x %.4g = %.3g%%", count, missProbability,
                                100 * count * missProbability)
                : String.format("false alarm P(Binomial(%d, %.4g) > %d) = %.3g%%", count, missProbability, allowed,
                        100 * binomialTail(count, missProbability, allowed));
        String summary = misses.size() + " of " + count + " checks missed (allowed " + allowed + "; " + bound + ")";
        if (System.getenv("MFLB_TEST_VERBOSE") != null) {
            String caller = StackWalker.getInstance().walk(s -> s.skip(1).findFirst())
                    .map(f -> f.getClassName().replaceAll(".*\\.", "") + "." + f.getMethodName()).orElse("?");
            System.out.print(log);
            System.out.println("SUMMARY " + caller + ": " + summary);
        }
        assertTrue(misses.size() <= allowed, summary + ":\n" + log);
    }

    /** @return P(Binomial(m, p) > allowed) */
    public static double binomialTail(int m, double p, int allowed) {
        double below = 0;
        double term = Math.pow(1 - p, m); // P(X = 0)
        for (int j = 0; j <= allowed && j <= m; j++) {
            below += term;
            term *= (m - j) / (j + 1.0) * p / (1 - p);
        }
        return Math.max(0, 1 - below);
    }
}
