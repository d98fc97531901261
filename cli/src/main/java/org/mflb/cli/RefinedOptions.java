package org.mflb.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.refined.ExpansionUsability;
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
        int levels = limit.truncation();
        if (levels > maxDimension(solver.order())) {
            throw MflbException.invalid("refined", "order " + solver.order() + " on " + levels + " levels (the"
                    + " truncation of " + fluid + " at lambda = " + fluid.arrivalRate().at(0) + ")", "at most "
                    + maxDimension(solver.order()) + " levels at order " + solver.order() + " (its equations are"
                    + " K^" + (solver.order() + 1) + " numbers): give --truncation K or a lower --lambda");
        }
        return solver.steadyState(fluid.withLevels(levels), limit.levels());
    }

    /**
     * @param order the expansion's order
     * @return the largest dimension {@code K} solved at that order: order 1 holds {@code K×K}
     *         matrices (Schur form, Lyapunov equation, {@code O(K³)} time), order 2 {@code K³} tensors
     */
    static int maxDimension(int order) {
        return order >= 2 ? 200 : 1000;
    }

    /**
     * @param e the expansion
     * @param n the size
     * @return why {@code N} is too small for a tail-vector expansion, if it is
     *         ({@link ExpansionUsability}: the corrected vector at the expansion's order is no tail
     *         vector, or, at order 2, some level's terms do not decrease)
     */
    static Optional<String> warning(SteadyStateExpansion e, int n) {
        return ExpansionUsability.tailVector(n, e.mean(n)).or(() -> e.order() >= 2
                ? ExpansionUsability.terms(e, n, i -> "x_" + (i + 1)) : Optional.empty());
    }

    /** @return {@code (level0, levels...)}: a vector over levels 1..K as a tail indexed from 0 */
    static double[] withLevelZero(double[] levels, double levelZero) {
        double[] tail = new double[levels.length + 1];
        tail[0] = levelZero;
        System.arraycopy(levels, 0, tail, 1, levels.length);
        return tail;
    }

    /**
     * Adds the steady-state keys to a fixed-point JSON object: per N {@code tail},
     * {@code meanQueueLength}, {@code meanResponseTime} ({@code responseTime} of the mean queue
     * length), {@code usable} and, when it is not, {@code warning}.
     */
    void addJson(ObjectNode json, SteadyStateExpansion e, DoubleUnaryOperator responseTime) {
        ArrayNode refined = json.putArray("refined");
        for (int n : sizes) {
            ObjectNode entry = refined.addObject();
            entry.put("N", n);
            entry.put("order", e.order());
            entry.set("tail", Printer.array(withLevelZero(e.mean(n), 1.0)));
            double mean = e.meanTotal(n, e.order());
            Printer.put(entry, "meanQueueLength", mean);
            Printer.put(entry, "meanResponseTime", responseTime.applyAsDouble(mean));
            Optional<String> warning = warning(e, n);
            entry.put("usable", warning.isEmpty());
            warning.ifPresent(w -> entry.put("warning", w));
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
                Optional<String> warning = ExpansionUsability.tailVector(n, e.mean(k, n, e.order()));
                if (warning.isPresent()) {
                    entry.put("warning", warning.get() + " (first at grid time " + k + ")");
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

    /** Prints the refined mean queue lengths, mean response times and first levels under a fixed-point table. */
    void printTable(PrintWriter out, SteadyStateExpansion e, int levels, DoubleUnaryOperator responseTime) {
        out.println();
        out.println("Refined mean field, order " + e.order() + " (1/N term of the mean queue length "
                + Printer.number(sum(e.firstOrderTerm())) + ")");
        int shown = Math.min(levels, e.dimension());
        String[] header = new String[3 + shown];
        header[0] = "N";
        header[1] = "mean queue length";
        header[2] = "mean response time";
        for (int i = 1; i <= shown; i++) {
            header[2 + i] = "x_" + i;
        }
        Printer.Table table = new Printer.Table(header);
        for (int n : sizes) {
            String[] row = new String[header.length];
            double[] mean = e.mean(n);
            row[0] = Integer.toString(n);
            double queue = e.meanTotal(n, e.order());
            row[1] = Printer.number(queue);
            row[2] = Printer.number(responseTime.applyAsDouble(queue));
            for (int i = 1; i <= shown; i++) {
                row[2 + i] = Printer.number(mean[i - 1]);
            }
            table.row(row);
        }
        table.print(out);
        printWarnings(out, e, "  ");
    }

    /** Prints one line {@code <indent>warning: ...} per size at which the expansion is not usable. */
    void printWarnings(PrintWriter out, SteadyStateExpansion e, String indent) {
        for (int n : sizes) {
            warning(e, n).ifPresent(w -> out.println(indent + "warning: " + w));
        }
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
