package org.mflb.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.nonsmooth.NonSmoothModel;
import org.mflb.fluid.nonsmooth.SwitchedFixedPoint;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb fixed-point}: the stable fixed point of a fluid model. */
@Command(name = "fixed-point", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Stable fixed point of the fluid limit: tail vector, mean queue length, blocking (loss pools),"
                + " with the residual, the truncation and the stability of the result; with --refined, the refined"
                + " mean field E[X^N] = x + V/N (+ A/N^2) and the covariance W = lim N Cov(X^N).")
public final class FixedPointCommand implements Callable<Integer> {

    /** Rows shown by the table format; CSV and JSON hold every level. */
    static final int TABLE_ROWS = 40;

    @Mixin
    ModelOptions model;

    @Mixin
    RefinedOptions refined;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (model.isNonSmooth()) {
            return nonSmooth();
        }
        FluidModel fluid = model.fluidModel();
        boolean refine = refined.requested();
        FluidFixedPoint fp = fluid.fixedPoint();
        SteadyStateExpansion expansion = null;
        if (refine) {
            // The expansion is about N → ∞: with distinct sampling (h depends on N) around the
            // with-replacement fixed point, the model's rates supplying the 1/N corrections.
            FluidFixedPoint limit = fluid.policy().dependsOnSize() ? model.limitFluidModel().fixedPoint() : fp;
            expansion = refined.solver().steadyState(fluid.withLevels(limit.truncation()), limit.levels());
        }
        PrintWriter out = spec.commandLine().getOut();
        double[] tail = fp.tail();
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("system", fluid.system().cliName());
                json.put("policy", fluid.policy().name());
                json.put("lambda", fluid.arrivalRate().at(0));
                json.set("tail", Printer.array(tail));
                json.put("meanQueueLength", fp.meanQueueLength());
                json.put("truncation", fp.truncation());
                json.put("cutOffMass", fp.cutOffMass());
                json.put("residual", fp.residual());
                json.put("iterations", fp.iterations());
                json.put("stable", fp.isStable());
                Printer.put(json, "spectralAbscissa", fp.spectralAbscissa());
                fp.blocking().ifPresent(b -> json.put("blocking", b));
                if (refine) {
                    refined.addJson(json, expansion);
                }
                Printer.printJson(out, json);
            }
            case csv -> {
                StringBuilder header = new StringBuilder("level,tail");
                if (refine) {
                    header.append(",V");
                    for (int n : refined.sizes()) {
                        header.append(",tail_N").append(n);
                    }
                }
                out.println(header);
                for (int i = 0; i < tail.length; i++) {
                    StringBuilder line = new StringBuilder(i + "," + Printer.csv(tail[i]));
                    if (refine) {
                        line.append(',').append(Printer.csv(i == 0 ? 0.0 : expansion.firstOrderTerm()[i - 1]));
                        for (int n : refined.sizes()) {
                            line.append(',').append(Printer.csv(i == 0 ? 1.0 : expansion.mean(n)[i - 1]));
                        }
                    }
                    out.println(line);
                }
            }
            case table -> {
                out.println("Fixed point of " + fluid + ", lambda = " + fluid.arrivalRate().at(0));
                out.println("  mean queue length   " + Printer.number(fp.meanQueueLength()));
                fp.blocking().ifPresent(b -> out.println("  blocking            " + Printer.number(b)));
                out.println("  levels kept K       " + fp.truncation() + " (cut-off mass " + Printer.number(fp.cutOffMass())
                        + ")");
                out.println("  residual            " + Printer.number(fp.residual()) + " after " + fp.iterations()
                        + " iterations");
                out.println("  stability           " + (fp.isStable() ? "stable" : "UNSTABLE")
                        + (Double.isNaN(fp.spectralAbscissa()) ? ""
                                : " (largest eigenvalue real part " + Printer.number(fp.spectralAbscissa()) + ")"));
                out.println();
                Printer.Table table = new Printer.Table("i", "x_i = fraction with >= i jobs");
                int shown = Math.min(tail.length, TABLE_ROWS);
                for (int i = 0; i < shown; i++) {
                    table.row(Integer.toString(i), Printer.number(tail[i]));
                }
                table.print(out);
                if (shown < tail.length) {
                    out.println("  ... " + (tail.length - shown) + " more levels (all of them with --format csv or json)");
                }
                if (refine) {
                    refined.printTable(out, expansion, 4);
                }
            }
        }
        return 0;
    }

    /**
     * The equilibrium of jsq, jiq, threshold or adaptive-threshold (closed forms, paper 000 Section 3):
     * JSON adds {@code equilibrium} (balanced, erlang-b or unbounded-support), {@code threshold} for
     * the threshold policies, {@code diagnosis} when the equilibrium is not the balanced state, and
     * {@code settlingTime} (the last jump of the learning threshold from the empty state).
     */
    private Integer nonSmooth() {
        if (refined.requested()) {
            model.requireSmooth();
        }
        NonSmoothModel fluid = model.nonSmoothModel();
        SwitchedFixedPoint fp = fluid.fixedPoint();
        PrintWriter out = spec.commandLine().getOut();
        double[] tail = fp.tail();
        boolean thresholdPolicy = model.policy == ModelOptions.PolicyName.threshold
                || model.policy == ModelOptions.PolicyName.adaptive_threshold;
        String kind = fp.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("system", fluid.system().cliName());
                json.put("policy", fluid.policy().name());
                json.put("lambda", fluid.arrivalRate().at(0));
                json.set("tail", Printer.array(tail));
                json.put("meanQueueLength", fp.meanQueueLength());
                json.put("truncation", fp.truncation());
                json.put("cutOffMass", fp.cutOffMass());
                json.put("residual", fp.residual());
                json.put("equilibrium", kind);
                if (thresholdPolicy) {
                    json.put("threshold", fp.threshold().orElseThrow());
                }
                fp.diagnosis().ifPresent(d -> json.put("diagnosis", d));
                fp.settlingTime().ifPresent(t -> json.put("settlingTime", t));
                Printer.printJson(out, json);
            }
            case csv -> {
                out.println("level,tail");
                for (int i = 0; i < tail.length; i++) {
                    out.println(i + "," + Printer.csv(tail[i]));
                }
            }
            case table -> {
                out.println("Fixed point of " + fluid + ", lambda = " + fluid.arrivalRate().at(0));
                out.println("  mean queue length   " + Printer.number(fp.meanQueueLength()));
                out.println("  equilibrium         " + kind + (fp.threshold().isPresent() && thresholdPolicy
                        ? " (threshold " + fp.threshold().getAsInt() + ")" : ""));
                fp.settlingTime().ifPresent(t -> out.println("  settling time       " + Printer.number(t)
                        + " (last threshold jump from the empty state)"));
                out.println("  levels kept K       " + fp.truncation() + " (cut-off mass " + Printer.number(fp.cutOffMass())
                        + ")");
                out.println("  residual            " + Printer.number(fp.residual()) + " (closed form)");
                fp.diagnosis().ifPresent(d -> out.println("  note                " + d));
                out.println();
                Printer.Table table = new Printer.Table("i", "x_i = fraction with >= i jobs");
                int shown = Math.min(tail.length, TABLE_ROWS);
                for (int i = 0; i < shown; i++) {
                    table.row(Integer.toString(i), Printer.number(tail[i]));
                }
                table.print(out);
                if (shown < tail.length) {
                    out.println("  ... " + (tail.length - shown) + " more levels (all of them with --format csv or json)");
                }
            }
        }
        return 0;
    }
}
