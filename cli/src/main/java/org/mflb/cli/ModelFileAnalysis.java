package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleFunction;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;
import org.mflb.core.ode.TransientSolver;
import org.mflb.core.refined.ExpansionUsability;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.refined.TransientExpansion;

/**
 * {@code fixed-point} and {@code transient} for a {@code --model} file. JSON keys (a contract):
 * fixed point {@code names}, {@code state}, {@code residual}, {@code stable}, and with --refined
 * {@code refined} [{@code N}, {@code order}, {@code state}], {@code V}, {@code A} (order 2),
 * {@code covariance} (W); transient {@code t}, {@code state} (one array per time) and with
 * --refined the same keys with per-time arrays.
 */
final class ModelFileAnalysis {

    private ModelFileAnalysis() {
    }

    /** Largest dimension for a fixed point (dense Jacobians unless the model is banded) and for --refined. */
    static final int MAX_DIMENSION = 4000;

    /** Largest dimension for the refined mean field of order 1 (Schur form and Lyapunov equation, O(K³)). */
    static final int MAX_REFINED_DIMENSION = 1000;

    private static void requireDimension(ModelFile file, int limit, String what) {
        if (file.dimension() > limit) {
            throw org.mflb.core.MflbException.invalid("model", file.file() + " with " + file.dimension()
                    + " coordinates", "at most " + limit + " coordinates for " + what);
        }
    }

    /** The fixed point reached from the file's init state (on its conservation laws' subspace). */
    static FixedPoint fixedPoint(ModelFile file) {
        int[] band = file.model().jacobianBandwidth();
        if (band[0] + band[1] + 1 > 64) {
            requireDimension(file, MAX_DIMENSION, "a fixed point with a dense Jacobian");
        }
        return file.fixedPoint();
    }

    /** The JSON keys that name the model: {@code model}, {@code file}, {@code parameters}, {@code names}. */
    static void header(ObjectNode json, ModelFile file) {
        json.put("model", file.name());
        json.put("file", file.file());
        ObjectNode params = json.putObject("parameters");
        file.parameters().forEach(params::put);
        ArrayNode names = json.putArray("names");
        file.names().forEach(names::add);
    }

    private static String describe(ModelFile file) {
        StringBuilder params = new StringBuilder();
        file.parameters().forEach((k, v) -> params.append(params.length() == 0 ? "" : ", ").append(k).append(" = ")
                .append(Printer.number(v)));
        return "Model " + file.name() + " (" + file.file() + "): " + file.dimension() + " variables, "
                + file.transitionCount() + " transitions" + (params.length() > 0 ? "; " + params : "");
    }

    /**
     * The fixed point of a model file and, with --refined, its expansion at each N, with a warning
     * wherever N is too small for it ({@link #warning}): in the JSON entry ({@code usable},
     * {@code warning}), under the table, on {@code err} for CSV.
     */
    static int fixedPoint(ModelFile file, RefinedOptions refined, OutputFormat format, PrintWriter out,
            PrintWriter err) {
        boolean refine = refined.requested();
        if (refine) {
            requireDimension(file, Math.min(MAX_REFINED_DIMENSION, RefinedOptions.maxDimension(refined.order())),
                    "the refined mean field of order " + refined.order());
        }
        FixedPoint fp = fixedPoint(file);
        double[] pi = fp.state();
        SteadyStateExpansion e = refine ? refined.solver().steadyState(file.model(), pi) : null;
        int k = file.dimension();
        if (refine && format == OutputFormat.csv) {
            for (int n : refined.sizes()) {
                warning(file, e, n).ifPresent(w -> err.println("warning: " + w));
            }
        }
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                header(json, file);
                json.set("state", Printer.array(pi));
                Printer.put(json, "residual", fp.residual());
                json.put("stable", fp.isStable());
                Printer.put(json, "spectralAbscissa", fp.spectralAbscissa());
                json.put("iterations", fp.iterations());
                if (refine) {
                    ArrayNode entries = json.putArray("refined");
                    for (int n : refined.sizes()) {
                        ObjectNode entry = entries.addObject();
                        entry.put("N", n);
                        entry.put("order", e.order());
                        entry.set("state", Printer.array(e.mean(n)));
                        Optional<String> warning = warning(file, e, n);
                        entry.put("usable", warning.isEmpty());
                        warning.ifPresent(w -> entry.put("warning", w));
                    }
                    json.set("V", Printer.array(e.firstOrderTerm()));
                    if (e.order() >= 2) {
                        json.set("A", Printer.array(e.secondOrderTerm()));
                    }
                    json.set("covariance", Printer.matrix(e.covarianceTerm()));
                }
                Printer.printJson(out, json);
            }
            default -> {
                boolean csv = format == OutputFormat.csv;
                DoubleFunction<String> number = csv ? Printer::csv : Printer::number;
                if (!csv) {
                    out.println(describe(file));
                    out.println("Fixed point from the init state: residual " + Printer.number(fp.residual()) + " after "
                            + fp.iterations() + " iterations, " + (fp.isStable() ? "stable" : "UNSTABLE")
                            + (Double.isNaN(fp.spectralAbscissa()) ? "" : " (largest eigenvalue real part "
                                    + Printer.number(fp.spectralAbscissa()) + ")"));
                }
                List<String> head = new ArrayList<>(List.of("name", "x"));
                if (refine) {
                    head.add("V");
                    if (e.order() >= 2) {
                        head.add("A");
                    }
                    for (int n : refined.sizes()) {
                        head.add((csv ? "x_N" : "N=") + n);
                    }
                }
                Rows rows = new Rows(head, csv, out);
                for (int i = 0; i < k; i++) {
                    List<String> row = new ArrayList<>(List.of(file.names().get(i), number.apply(pi[i])));
                    if (refine) {
                        row.add(number.apply(e.firstOrderTerm()[i]));
                        if (e.order() >= 2) {
                            row.add(number.apply(e.secondOrderTerm()[i]));
                        }
                        for (int n : refined.sizes()) {
                            row.add(number.apply(e.mean(n)[i]));
                        }
                    }
                    rows.add(row);
                }
                rows.finish();
                if (!csv && refine) {
                    out.println();
                    out.println("Refined mean field of order " + e.order() + ": E[X^N] = x + V/N"
                            + (e.order() >= 2 ? " + A/N^2" : "") + " (columns N=...); covariance W in --format json.");
                    for (int n : refined.sizes()) {
                        warning(file, e, n).ifPresent(w -> out.println("warning: " + w));
                    }
                }
            }
        }
        return 0;
    }

    /**
     * @return why {@code N} is too small for the expansion of a model file, if it is: a corrected
     *         coordinate that is no fraction, or, at order 2, a coordinate whose terms do not decrease
     *         ({@link ExpansionUsability}, as for the built-in models)
     */
    static Optional<String> warning(ModelFile file, SteadyStateExpansion e, int n) {
        return ExpansionUsability.fractions(n, e.mean(n), file.names()::get).or(() -> e.order() >= 2
                ? ExpansionUsability.terms(e, n, file.names()::get) : Optional.empty());
    }

    static int transientRegime(ModelFile file, RefinedOptions refined, TimeGrid grid, OutputFormat format,
            PrintWriter out) {
        boolean refine = refined.requested();
        if (refine) {
            requireDimension(file, Math.min(MAX_REFINED_DIMENSION, RefinedOptions.maxDimension(refined.order())),
                    "the refined mean field of order " + refined.order());
        }
        double[] x0 = file.initialState();
        Trajectory tr = new TransientSolver().solve(file.model(), x0, grid);
        int steps = grid.size();
        for (int s = 0; s < steps; s++) {
            file.checkState(tr.state(s), "time " + Printer.number(grid.time(s)) + " of the trajectory");
        }
        TransientExpansion e = refine ? refined.solver().transientRegime(file.model(), x0, grid.start(), grid.toArray())
                : null;
        int k = file.dimension();
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                header(json, file);
                json.set("t", Printer.array(grid.toArray()));
                double[][] states = new double[steps][];
                for (int s = 0; s < steps; s++) {
                    states[s] = tr.state(s);
                }
                json.set("state", Printer.matrix(states));
                if (refine) {
                    ArrayNode entries = json.putArray("refined");
                    for (int n : refined.sizes()) {
                        ObjectNode entry = entries.addObject();
                        entry.put("N", n);
                        entry.put("order", e.order());
                        double[][] means = new double[steps][];
                        for (int s = 0; s < steps; s++) {
                            means[s] = e.mean(s, n, e.order());
                        }
                        entry.set("state", Printer.matrix(means));
                    }
                    double[][] v = new double[steps][];
                    double[][] a = new double[steps][];
                    ArrayNode covariance = json.putArray("covariance");
                    for (int s = 0; s < steps; s++) {
                        v[s] = e.firstOrderTerm(s);
                        a[s] = e.order() >= 2 ? e.secondOrderTerm(s) : null;
                        covariance.add(Printer.matrix(e.covarianceTerm(s)));
                    }
                    json.set("V", Printer.matrix(v));
                    if (e.order() >= 2) {
                        json.set("A", Printer.matrix(a));
                    }
                }
                Printer.printJson(out, json);
            }
            default -> {
                boolean csv = format == OutputFormat.csv;
                DoubleFunction<String> number = csv ? Printer::csv : Printer::number;
                List<String> head = new ArrayList<>(List.of("t"));
                head.addAll(file.names());
                if (refine) {
                    for (int n : refined.sizes()) {
                        for (String name : file.names()) {
                            head.add(name + "_N" + n);
                        }
                    }
                }
                if (!csv) {
                    out.println(describe(file));
                }
                Rows rows = new Rows(head, csv, out);
                for (int s = 0; s < steps; s++) {
                    List<String> row = new ArrayList<>();
                    row.add(number.apply(grid.time(s)));
                    double[] x = tr.state(s);
                    for (int i = 0; i < k; i++) {
                        row.add(number.apply(x[i]));
                    }
                    if (refine) {
                        for (int n : refined.sizes()) {
                            double[] m = e.mean(s, n, e.order());
                            for (int i = 0; i < k; i++) {
                                row.add(number.apply(m[i]));
                            }
                        }
                    }
                    rows.add(row);
                }
                rows.finish();
            }
        }
        return 0;
    }

    /** The output rows: CSV lines printed as they come, or an aligned table printed by {@link #finish}. */
    private static final class Rows {
        private final PrintWriter out;
        private final Printer.Table table;

        Rows(List<String> head, boolean csv, PrintWriter out) {
            this.out = out;
            this.table = csv ? null : new Printer.Table(head.toArray(new String[0]));
            if (csv) {
                out.println(String.join(",", head));
            }
        }

        void add(List<String> row) {
            if (table == null) {
                out.println(String.join(",", row));
            } else {
                table.row(row.toArray(new String[0]));
            }
        }

        void finish() {
            if (table != null) {
                table.print(out);
            }
        }
    }
}
