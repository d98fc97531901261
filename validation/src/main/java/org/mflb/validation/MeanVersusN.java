package org.mflb.validation;

import java.util.List;
import java.util.Locale;

import org.mflb.core.refined.SeriesTerms;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.simulation.Estimate;
import org.mflb.validation.plot.Figure;

/**
 * The mean jobs per server {@code E[Q^N] = π + V/N + A/N² + ...} of one model against its
 * simulations at several {@code N}: the three predictions (mean field, order 1, order 2), the
 * simulated points, the series checks of {@link RefinedComparisons#seriesChecks} at each {@code N}
 * and the table of errors a refined-vs-N scenario reports (docs/models.md §4).
 */
final class MeanVersusN {

    private final SteadyStateExpansion expansion;
    private final double[] ns;
    private final double[][] lines;
    private final double[] simulated;
    private final double[] halfWidth;
    private final StringBuilder table = new StringBuilder("\n\n| N | simulated E[Q] | CI half-width | error mean field"
            + " | error 1/N | error 1/N^2 |\n|---:|---:|---:|---:|---:|---:|\n");
    private int count;

    /**
     * @param expansion the expansion of order 2 (its {@link SteadyStateExpansion#meanTotal} is the mean)
     * @param sizes how many sizes will be added
     */
    MeanVersusN(SteadyStateExpansion expansion, int sizes) {
        this.expansion = expansion;
        this.ns = new double[sizes];
        this.lines = new double[3][sizes];
        this.simulated = new double[sizes];
        this.halfWidth = new double[sizes];
    }

    /**
     * Records the simulation at {@code n} and adds its two series checks to {@code checks}.
     *
     * @return the series at {@code n}
     */
    SeriesTerms add(List<Check> checks, int n, Estimate q) {
        int k = count++;
        ns[k] = n;
        simulated[k] = q.mean();
        halfWidth[k] = q.halfWidth();
        for (int order = 0; order <= 2; order++) {
            lines[order][k] = expansion.meanTotal(n, order);
        }
        table.append(String.format(Locale.ROOT, "| %d | %.5f | %.5f | %.5f | %.5f | %.5f |%n", n, q.mean(),
                q.halfWidth(), Math.abs(lines[0][k] - q.mean()), Math.abs(lines[1][k] - q.mean()),
                Math.abs(lines[2][k] - q.mean())));
        SeriesTerms terms = SeriesTerms.ofTotal(expansion, n);
        RefinedComparisons.seriesChecks(checks, "E[Q]", terms, q);
        return terms;
    }

    /** @return the markdown table of the errors of the three predictions at each size added */
    String table() {
        return table.toString();
    }

    /** @return the three predictions as lines against {@code N} and the simulations as points */
    Figure figure(String title, String yLabel) {
        return RefinedComparisons.versusN(title, "N (servers)", yLabel, ns, lines, simulated, halfWidth,
                "simulation (95% CI)");
    }
}
