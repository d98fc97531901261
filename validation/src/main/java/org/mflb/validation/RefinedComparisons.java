package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.refined.SeriesTerms;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.validation.plot.Figure;

/**
 * The refined mean field's checks against a simulation, shared by the built-in models
 * ({@link RefinedVersusSimulation}) and the model files ({@link ModelFileScenarios}).
 */
final class RefinedComparisons {

    private RefinedComparisons() {
    }

    /**
     * Orders 2 and 1 of the series {@code π + t₁ + t₂ + ...} ({@code t₁ = V/N}, {@code t₂ = A/N²})
     * against a simulated mean where the series is usable ({@link SeriesTerms#decreasing()}): each
     * within 3 CI half-widths (statistical part) plus 1.5 times its first neglected term (model-error
     * part): {@code |t₂|} for order 1, the geometric estimate {@code t₂²/|t₁|} for order 2, both below
     * {@code |t₁|}. Where the terms do not decrease both rows are reported as not applicable at this
     * {@code N}: no tolerance grows with a term that has stopped decreasing.
     *
     * @param checks where the two checks are added (order 2 first)
     * @param quantity what is compared (e.g. "E[Q]" or a coordinate's name)
     * @param terms the series at this {@code N}
     * @param simulated the simulated mean
     */
    static void seriesChecks(List<Check> checks, String quantity, SeriesTerms terms, Estimate simulated) {
        for (int order = 2; order >= 1; order--) {
            Check check = Check.of(quantity + ", refined order " + order + ", N = " + Comparisons.time(terms.n()),
                    terms.upTo(order), simulated.mean(), simulated.ci95Low(), simulated.ci95High(),
                    STATISTICAL_HALF_WIDTHS * simulated.halfWidth(), NEGLECTED_TERM_FACTOR * terms.neglected(order));
            checks.add(check.unless(terms.notUsable()));
        }
    }

    /** The statistical part of a refined check: this many CI half-widths. */
    static final double STATISTICAL_HALF_WIDTHS = 3;

    /** The model-error part of a refined check: this many times the estimated first neglected term. */
    static final double NEGLECTED_TERM_FACTOR = 1.5;

    /** The tolerance rule of {@link #seriesChecks}, in words for the reports. */
    static final String RULE = "3 CI half-widths (statistical part) + 1.5 times the first neglected term of pi + t1"
            + " + t2 + ... (t1 = V/N, t2 = A/N^2; model-error part): |t2| for order 1, t2^2/|t1| for order 2. The"
            + " expansion is used only where its terms decrease (|t2| < |t1|); where they do not, the rows are"
            + " not applicable at that N (neither pass nor fail)";

    /**
     * @param title the figure's title
     * @param xLabel what N counts
     * @param yLabel the quantity
     * @param ns the sizes N
     * @param orders the mean field, order 1 and order 2 at each N
     * @param simulated the simulated values at each N
     * @param halfWidth their CI half-widths
     * @param simulationName the legend of the simulated points
     * @return the three predictions as lines against N and the simulation as points
     */
    static Figure versusN(String title, String xLabel, String yLabel, double[] ns, double[][] orders,
            double[] simulated, double[] halfWidth, String simulationName) {
        return Figure.of(title, xLabel, yLabel).line("mean field", 0, ns, orders[0])
                .line("refined, 1/N", 1, ns, orders[1]).line("refined, 1/N^2", 2, ns, orders[2])
                .points(simulationName, 3, ns, simulated, halfWidth);
    }

    /**
     * The linear-noise covariance {@code W} against the simulated {@code N·Cov(x_i, x_j)} of the
     * first coordinates, and the diagonal for the figure.
     *
     * @param checks one check per pair {@code i ≤ j}, each within 3 CI half-widths plus
     *        {@code 10 max|W_ii|/N} (the covariance's own {@code O(1/N)} correction)
     * @param index {@code 1..shown}
     * @param predicted {@code W_ii}
     * @param simulated the simulated {@code N·Var(x_i)}
     * @param halfWidth its CI half-width
     */
    record Covariance(List<Check> checks, double[] index, double[] predicted, double[] simulated, double[] halfWidth) {

        /**
         * @param w the linear-noise covariance
         * @param cov the simulated {@code N·Cov}
         * @param shown how many coordinates are compared
         * @param n the system size
         * @param name the name of coordinate {@code i} (0-based)
         * @return the checks and the diagonal
         */
        static Covariance of(DMatrixRMaj w, MatrixEstimate cov, int shown, int n, IntFunction<String> name) {
            double scale = 0;
            for (int i = 0; i < shown; i++) {
                scale = Math.max(scale, Math.abs(w.get(i, i)));
            }
            List<Check> checks = new ArrayList<>();
            double[] index = new double[shown];
            double[] predicted = new double[shown];
            double[] simulated = new double[shown];
            double[] half = new double[shown];
            for (int i = 0; i < shown; i++) {
                for (int j = i; j < shown; j++) {
                    Estimate e = cov.get(i, j);
                    checks.add(Check.of("N Cov(" + name.apply(i) + ", " + name.apply(j) + ")", w.get(i, j), e.mean(),
                            e.ci95Low(), e.ci95High(), 3 * e.halfWidth(), 10.0 * scale / n));
                }
                index[i] = i + 1;
                predicted[i] = w.get(i, i);
                simulated[i] = cov.get(i, i).mean();
                half[i] = cov.get(i, i).halfWidth();
            }
            return new Covariance(checks, index, predicted, simulated, half);
        }

        /**
         * @param title the figure's title
         * @param xLabel what the coordinates are
         * @param simulationName the legend of the simulated points
         * @return {@code W_ii} against the simulated {@code N·Var(x_i)}
         */
        Figure figure(String title, String xLabel, String simulationName) {
            return Figure.of(title, xLabel, "N Var(x_i)").line("linear noise W_ii", 0, index, predicted)
                    .points(simulationName, 1, index, simulated, halfWidth);
        }
    }
}
