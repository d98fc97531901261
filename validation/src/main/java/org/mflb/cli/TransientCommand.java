package org.mflb.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.ode.TimeGrid;
import org.mflb.core.refined.TransientExpansion;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.fluid.InitialState;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb transient}: the fluid limit's trajectory on a time grid. */
@Command(name = "transient", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Transient of the fluid limit from an initial state: tail vector and mean queue length on"
                + " the grid 0, dt, 2dt, ..., t-end (adaptive Dormand-Prince 8(5,3), dense output).")
public final class TransientCommand implements Callable<Integer> {

    /** Tail levels shown as columns by the table format. */
    static final int TABLE_LEVELS = 6;

    @Mixin
    ModelOptions model;

    @Mixin
    RefinedOptions refined;

    @Option(names = "--t-end", required = true, paramLabel = "T", description = "Final time.")
    double tEnd;

    @Option(names = "--dt", required = true, paramLabel = "STEP", description = "Spacing of the output times.")
    double dt;

    @Option(names = "--init", paramLabel = "empty|fixed-point|tail:1,0.8,0.3|all:K", defaultValue = "empty",
            description = "Initial state (default: ${DEFAULT-VALUE}); a tail lists x_0 = 1, x_1, x_2, ...")
    String init;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        TimeGrid grid = TimeGrid.uniform(tEnd, dt);
        InitialState initial = InitialState.parse(init);
        FluidModel fluid = model.fluidModel();
        boolean refine = refined.requested();
        if (refine) {
            model.requireFixedSizeFreeRates();
        }
        FluidTransient tr = fluid.transientFrom(initial, grid);
        // The expansion integrates x(t) again with V, W (and the 1/N² terms) from the same start.
        TransientExpansion expansion = refine ? refined.solver().transientRegime(tr.model(), tr.trajectory().state(0),
                grid.start(), grid.toArray()) : null;
        PrintWriter out = spec.commandLine().getOut();
        int steps = grid.size();
        boolean lossy = fluid.system().isLossy();
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("system", fluid.system().cliName());
                json.put("policy", fluid.policy().name());
                json.put("lambda", fluid.arrivalRate().at(0));
                json.put("init", initial.toString());
                json.set("t", Printer.array(grid.toArray()));
                double[][] tails = new double[steps][];
                double[] mean = new double[steps];
                double[] blocking = new double[steps];
                for (int k = 0; k < steps; k++) {
                    tails[k] = tr.tail(k);
                    mean[k] = tr.meanQueueLength(k);
                    blocking[k] = tr.blocking(k);
                }
                json.set("tail", Printer.matrix(tails));
                json.set("meanQueueLength", Printer.array(mean));
                if (lossy) {
                    json.set("blocking", Printer.array(blocking));
                }
                json.put("truncation", tr.truncation());
                json.put("cutOffMass", tr.cutOffMass());
                if (refine) {
                    refined.addJson(json, expansion);
                }
                Printer.printJson(out, json);
            }
            case csv -> {
                StringBuilder header = new StringBuilder("t,meanQueueLength");
                if (lossy) {
                    header.append(",blocking");
                }
                if (refine) {
                    for (int n : refined.sizes()) {
                        header.append(",meanQueueLength_N").append(n);
                    }
                }
                for (int i = 0; i <= tr.truncation(); i++) {
                    header.append(",x").append(i);
                }
                out.println(header);
                for (int k = 0; k < steps; k++) {
                    StringBuilder line = new StringBuilder(Printer.csv(grid.time(k)));
                    line.append(',').append(Printer.csv(tr.meanQueueLength(k)));
                    if (lossy) {
                        line.append(',').append(Printer.csv(tr.blocking(k)));
                    }
                    if (refine) {
                        for (int n : refined.sizes()) {
                            line.append(',').append(Printer.csv(expansion.meanTotal(k, n, expansion.order())));
                        }
                    }
                    for (double x : tr.tail(k)) {
                        line.append(',').append(Printer.csv(x));
                    }
                    out.println(line);
                }
            }
            case table -> {
                out.println("Transient of " + fluid + ", lambda = " + fluid.arrivalRate().at(0) + ", from " + initial);
                out.println("  levels kept K = " + tr.truncation() + " (largest cut-off mass "
                        + Printer.number(tr.cutOffMass()) + ")");
                out.println();
                int levels = Math.min(TABLE_LEVELS, tr.truncation());
                int[] sizes = refine ? refined.sizes() : new int[0];
                String[] header = new String[2 + (lossy ? 1 : 0) + sizes.length + levels];
                header[0] = "t";
                header[1] = "mean queue";
                int c = 2;
                if (lossy) {
                    header[c++] = "blocking";
                }
                for (int n : sizes) {
                    header[c++] = "mean queue N=" + n;
                }
                for (int i = 1; i <= levels; i++) {
                    header[c++] = "x_" + i;
                }
                Printer.Table table = new Printer.Table(header);
                for (int k = 0; k < steps; k++) {
                    String[] row = new String[header.length];
                    double[] tail = tr.tail(k);
                    row[0] = Printer.number(grid.time(k));
                    row[1] = Printer.number(tr.meanQueueLength(k));
                    c = 2;
                    if (lossy) {
                        row[c++] = Printer.number(tr.blocking(k));
                    }
                    for (int n : sizes) {
                        row[c++] = Printer.number(expansion.meanTotal(k, n, expansion.order()));
                    }
                    for (int i = 1; i <= levels; i++) {
                        row[c++] = Printer.number(tail[i]);
                    }
                    table.row(row);
                }
                table.print(out);
                if (levels < tr.truncation()) {
                    out.println("  (levels beyond x_" + levels + " with --format csv or json)");
                }
            }
        }
        return 0;
    }
}
