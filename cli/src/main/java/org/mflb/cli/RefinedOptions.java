package org.mflb.cli;

import java.io.PrintWriter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.refined.TransientExpansion;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;

import picocli.CommandLine.Option;

/**
 * {@code --refined N,N,... [--order 1|2]}: the refined mean field (Gast &amp; Van Houdt) and the 1/N²
 * size expansion (Gast, Bortolussi &amp; Tribastone), shared by {@code fixed-point} and
 * {@code transient} (docs/models.md §4). JSON gains {@code refined} (one entry per N with its tail
 * vector and mean queue length), {@code V} (the 1/N term of the tail vector, indexed like
 * {@code tail}, so {@code V[0] = 0}), {@code covariance} ({@code W = lim N·Cov}, {@code K×K} over
 * levels 1..K) and, at order 2, {@code A} (the 1/N² term, indexed like {@code tail}).
 */
public final class RefinedOptions {

    @Option(names = "--refined", split = ",", paramLabel = "N[,N...]",
            description = "System sizes N for the refined mean field: E[X^N] = x + V/N (+ A/N^2 with --order 2).")
    int[] sizes;

    @Option(names = "--order", paramLabel = "1|2",
            description = "Order of the size expansion with --refined: 1 (terms in 1/N, default) or 2 (adds 1/N^2).")
    Integer order;

    /** @return whether {@code --refined} was given (validates {@code --order} either way) */
    boolean requested() {
        if (sizes == null && order != null) {
            throw MflbException.invalid("order", order, "omitted unless --refined is given");
        }
        if (sizes != null) {
            for (int n : sizes) {
                Require.atLeast("refined", n, 1);
            }
        }
        return sizes != null;
    }

    /** @return the validated order */
    int order() {
        return Require.between("order", order == null ? 1 : order, 1, RefinedMeanField.MAX_ORDER);
    }

    /** @return the solver for the requested order */
    RefinedMeanField solver() {
        return new RefinedMeanField(order());
    }

    /**
     * @param solver the refined mean field of the requested order
     * @param fluid a smooth fluid model
     * @param fp its fixed point
     * @return the steady-state size expansion of {@code fluid} (shared by fixed-point and compare)
     */
    static SteadyStateExpansion steadyState(RefinedMeanField solver, FluidModel fluid, FluidFixedPoint fp) {
        // The expansion is about N → ∞: with distinct sampling (h depends on N) around the
        // with-replacement fixed point, the model's rates supplying the 1/N corrections.
        FluidFixedPoint limit = fluid.policy().dependsOnSize() ? fluid.limit().fixedPoint() : fp;
        return solver.steadyState(fluid.withLevels(limit.truncation()), limit.levels());
    }

    /** @return {@code (level0, levels...)}: a vector over levels 1..K as a tail indexed from 0 */
    static double[] withLevelZero(double[] levels, double levelZero) {
        double[] tail = new double[levels.length + 1];
        tail[0] = levelZero;
        System.arraycopy(levels, 0, tail, 1, levels.length);
        return tail;
    }

    /** Adds the steady-state keys to a fixed-point JSON object. */
    void addJson(ObjectNode json, SteadyStateExpansion e) {
        ArrayNode refined = json.putArray("refined");
        for (int n : sizes) {
            ObjectNode entry = refined.addObject();
            entry.put("N", n);
            entry.put("order", e.order());
            entry.set("tail", Printer.array(withLevelZero(e.mean(n), 1.0)));
            Printer.put(entry, "meanQueueLength", e.meanTotal(n, e.order()));
            String warning = tooSmall(n, e.mean(n));
            if (warning != null) {
                entry.put("warning", warning);
            }
        }
        json.set("V", Printer.array(withLevelZero(e.firstOrderTerm(), 0.0)));
        json.set("covariance", Printer.matrix(e.covarianceTerm()));
        if (e.order() >= 2) {
            json.set("A", Printer.array(withLevelZero(e.secondOrderTerm(), 0.0)));
        }
    }

    /** Adds the transient keys (per-time arrays) to a transient JSON object. */
    void addJson(ObjectNode json, TransientExpansion e) {
        int steps = e.timeCount();
        ArrayNode refined = json.putArray("refined");
        for (int n : sizes) {
            ObjectNode entry = refined.addObject();
            entry.put("N", n);
            entry.put("order", e.order());
            double[][] tails = new double[steps][];
            double[] mean = new double[steps];
            for (int k = 0; k < steps; k++) {
                tails[k] = withLevelZero(e.mean(k, n, e.order()), 1.0);
                mean[k] = e.meanTotal(k, n, e.order());
            }
            entry.set("tail", Printer.matrix(tails));
            entry.set("meanQueueLength", Printer.array(mean));
            for (int k = 0; k < steps; k++) {
                String warning = tooSmall(n, e.mean(k, n, e.order()));
                if (warning != null) {
                    entry.put("warning", warning + " (first at grid time " + k + ")");
                    break;
                }
            }
        }
        double[][] v = new double[steps][];
        ArrayNode covariance = json.putArray("covariance");
        for (int k = 0; k < steps; k++) {
            v[k] = withLevelZero(e.firstOrderTerm(k), 0.0);
            covariance.add(Printer.matrix(e.covarianceTerm(k)));
        }
        json.set("V", Printer.matrix(v));
        if (e.order() >= 2) {
            double[][] a = new double[steps][];
            for (int k = 0; k < steps; k++) {
                a[k] = withLevelZero(e.secondOrderTerm(k), 0.0);
            }
            json.set("A", Printer.matrix(a));
        }
    }

    /** Prints the refined mean queue lengths and first levels under a fixed-point table. */
    void printTable(PrintWriter out, SteadyStateExpansion e, int levels) {
        out.println();
        out.println("Refined mean field, order " + e.order() + " (1/N term of the mean queue length "
                + Printer.number(sum(e.firstOrderTerm())) + ")");
        int shown = Math.min(levels, e.dimension());
        String[] header = new String[2 + shown];
        header[0] = "N";
        header[1] = "mean queue length";
        for (int i = 1; i <= shown; i++) {
            header[1 + i] = "x_" + i;
        }
        Printer.Table table = new Printer.Table(header);
        for (int n : sizes) {
            String[] row = new String[header.length];
            double[] mean = e.mean(n);
            row[0] = Integer.toString(n);
            row[1] = Printer.number(e.meanTotal(n, e.order()));
            for (int i = 1; i <= shown; i++) {
                row[1 + i] = Printer.number(mean[i - 1]);
            }
            table.row(row);
        }
        table.print(out);
        for (int n : sizes) {
            String warning = tooSmall(n, e.mean(n));
            if (warning != null) {
                out.println("  warning: " + warning);
            }
        }
    }

    /** Entries this far outside [0, 1] or increasing are not rounding. */
    private static final double INVARIANT_SLACK = 1e-9;

    /**
     * @return why {@code N} is too small for the expansion: the corrected vector
     *         {@code x + V/N (+ A/N²)} is no tail vector (an entry outside {@code [0, 1]} or larger than
     *         the one before), the correction terms dominating; {@code null} when it is one
     */
    static String tooSmall(int n, double[] mean) {
        double previous = 1.0;
        for (int i = 0; i < mean.length; i++) {
            double x = mean[i];
            if (x < -INVARIANT_SLACK || x > 1 + INVARIANT_SLACK || x > previous + INVARIANT_SLACK) {
                return String.format(java.util.Locale.ROOT, "N = %d is too small for the expansion: the corrected"
                        + " x_%d = %.6g %s, so the 1/N terms dominate (use larger N)", n, i + 1, x,
                        x < 0 ? "is negative" : x > 1 ? "exceeds 1" : "exceeds x_" + i);
            }
            previous = x;
        }
        return null;
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    /** @return the requested sizes */
    int[] sizes() {
        return sizes.clone();
    }
}
