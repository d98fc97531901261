package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.refined.TransientExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.fluid.memory.MemorySwitch;
import org.mflb.fluid.memory.MemoryTransient;
import org.mflb.fluid.nonsmooth.RegimeHistory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb transient}: the fluid limit's trajectory on a time grid. */
@Command(name = "transient", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Transient of the fluid limit from an initial state: tail vector and mean queue length on"
                + " the grid 0, dt, 2dt, ..., t-end (adaptive Dormand-Prince 8(5,3), dense output). --classes: per-class"
                + " means, busy fractions and tails (--init empty or fixed-point). --policy ll: the LL(d) workload"
                + " transport equation (any job-size law; E[W](t), E[R](t) and the response-time quantiles of a job"
                + " arriving at t; --init empty or fixed-point).")
public final class TransientCommand implements Callable<Integer> {

    /** Tail levels shown as columns by the table format. */
    static final int TABLE_LEVELS = 6;

    @Mixin
    ModelOptions model;

    @Mixin
    TruncationOptions truncation;

    @Mixin
    RefinedOptions refined;

    @Mixin
    ModelFileOptions modelFile;

    @Option(names = "--t-end", required = true, paramLabel = "T", description = "Final time.")
    double tEnd;

    @Option(names = "--dt", required = true, paramLabel = "STEP", description = "Spacing of the output times.")
    double dt;

    @Option(names = "--init", paramLabel = "empty|fixed-point|tail:1,0.8,0.3|all:K|memory:Q/m=share,...",
            defaultValue = "empty",
            description = "Initial state (default: ${DEFAULT-VALUE}); a tail lists x_0 = 1, x_1, x_2, ... --policy memory"
                    + " also takes (queue, observation)"
                    + " pairs, e.g. memory:0/3=1 (idle servers believed to hold 3 jobs: stale memory); the other"
                    + " forms start with observations equal to the queue lengths. --classes and --policy ll: empty or"
                    + " fixed-point (the fixed point, or the workload equilibrium, at lambda(0)).")
    String init;

    @Mixin
    PercentileOptions latency;

    @Mixin
    ProgressOptions progress;

    @Mixin
    WorkLimits limits;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    /** Adds {@code lambda} (at time 0) and, with a profile, {@code lambdaProfile} (the file). */
    private void putLoad(ObjectNode json, ArrivalRate rate) {
        json.put("lambda", rate.at(0));
        if (model.lambdaProfile != null) {
            json.put("lambdaProfile", model.lambdaProfile.toString());
        }
    }

    /**
     * The transient of any policy. Loss pools add {@code blocking}; --refined (smooth drifts) the keys
     * of {@link RefinedOptions#addJson}. The non-smooth policies (jsq, jiq, threshold,
     * adaptive-threshold: piecewise-smooth fluid) add {@code regime} (the smooth piece at each time,
     * e.g. "(b) x_2 = 1") and, for adaptive-threshold, {@code threshold} (ℓ at each time) and
     * {@code thresholdJumps} [{t, from, to}]. SQ(d) with memory adds the keys of {@link #putMemory}.
     */
    @Override
    public Integer call() {
        if (modelFile.given(spec)) {
            ModelFileOptions.allowOnly(spec, "--refined", "--order", "--format", "--t-end", "--dt", "--quiet");
            var file = modelFile.load();
            TimeGrid fileGrid = TimeGrid.uniform(tEnd, dt);
            limits.check(spec, WorkLimits.modelFile("the transient of " + file.name(), file, tEnd, refined.requested()));
            return progress.stepShownIfLong(spec, "integrating the transient of " + file.name() + " to t = " + tEnd,
                    () -> ModelFileAnalysis.transientRegime(file, refined, fileGrid, format, spec.commandLine().getOut()));
        }
        LoadBalancingModel lbm = model.model();
        if (lbm.policy() instanceof org.mflb.core.system.Policy.LeastLoaded || lbm.hasClasses()) {
            String with = lbm.hasClasses() ? "--classes in transient (levels are chosen from the fixed point; refined"
                    + " terms: fixed-point --classes --refined)" : "--policy ll (the workload equation)";
            LeastLoadedAnalysis.refuse(refined.requested(), "refined", true, with);
            LeastLoadedAnalysis.refuse(truncation.truncation != null, "truncation", truncation.truncation, with);
            LeastLoadedAnalysis.refuse(model.size() != null, "n", model.size(), with);
            TimeGrid grid = TimeGrid.uniform(tEnd, dt);
            PrintWriter out = spec.commandLine().getOut();
            return lbm.hasClasses()
                    ? progress.stepShownIfLong(spec, "integrating the fluid of the server classes to t = " + tEnd,
                            () -> ClassesTransient.print(lbm, init, grid, latency, format, model.loadLabel(), out))
                    : progress.stepShownIfLong(spec, "solving the workload transport equation to t = " + tEnd,
                            () -> LeastLoadedAnalysis.transientRun(lbm, init, grid, latency, format, model.loadLabel(), out));
        }
        model.requireSizeOnlyWithDistinctSampling();
        model.requireExponentialService(lbm, "transient");
        TimeGrid grid = TimeGrid.uniform(tEnd, dt);
        latency.percentiles();
        MemoryState memoryStart = MemoryState.isMemoryForm(init) ? MemoryState.parse(init) : null;
        InitialState initial = memoryStart == null ? InitialState.parse(init) : null;
        String initLabel = memoryStart != null ? memoryStart.toString() : initial.toString();
        ArrivalRate rate = lbm.arrivalRate();
        if (refined.requested()) {
            model.requireSmooth(lbm);
        }
        FluidModel fluid = model.fluidModel(lbm, truncation);
        limits.check(spec, WorkLimits.fluid("the fluid transient", lbm, truncation.rule(), model.threshold, tEnd));
        boolean refine = refined.requested();
        FluidTransient tr = progress.stepShownIfLong(spec, "integrating the fluid transient to t = " + tEnd,
                () -> memoryStart != null ? fluid.transientFrom(memoryStart, grid) : fluid.transientFrom(initial, grid));
        Optional<RegimeHistory> regimes = tr.regimes();
        // The expansion integrates x(t) again with V, W (and the 1/N² terms) from the same start;
        // with distinct sampling x(t) is the N → ∞ limit and the rates' 1/N corrections enter V.
        TransientExpansion expansion = refine ? refined.solver().transientRegime(tr.smoothDrift().orElseThrow(),
                tr.state(0), grid.start(), grid.toArray()) : null;
        boolean adaptive = model.policy == ModelOptions.PolicyName.adaptive_threshold;
        PrintWriter out = spec.commandLine().getOut();
        int steps = grid.size();
        boolean lossy = fluid.system().isLossy();
        Trajectory trajectory = new Trajectory(grid, tr::tail, tr::meanQueueLength, tr.truncation());
        List<Column> columns = new ArrayList<>();
        regimes.ifPresent(history -> {
            columns.add(Column.text("regime", null, k -> history.regime(k).describe()));
            if (adaptive) {
                columns.add(Column.text("threshold", "threshold", k -> Integer.toString(history.threshold(k))));
            }
        });
        Optional<MemoryTransient> memory = tr.memory();
        memory.ifPresent(m -> {
            columns.add(Column.text("level", "memoryLevel", k -> Integer.toString(m.activeLevel(k))));
            columns.add(Column.text("max queue", "maxQueueLength", k -> Integer.toString(m.maxQueueLength(k))));
            columns.add(Column.number("idle share", "idleShare", m::idleShare));
            columns.add(Column.number("believed idle", "believedIdleShare", m::believedIdleShare));
        });
        if (lossy) {
            columns.add(Column.number("blocking", "blocking", tr::blocking));
        }
        for (int n : refine ? refined.sizes() : new int[0]) {
            columns.add(Column.number("mean queue N=" + n, "meanQueueLength_N" + n,
                    k -> expansion.meanTotal(k, n, expansion.order())));
        }
        PercentileOptions.Series response = latency.series(steps, k -> fluid.responseTime(tr, k));
        addResponseColumns(columns, response);
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("system", fluid.system().name());
                json.put("policy", fluid.policy().name());
                putLoad(json, rate);
                json.put("init", initLabel);
                json.set("t", Printer.array(grid.toArray()));
                putTails(json, trajectory);
                if (lossy) {
                    double[] blocking = new double[steps];
                    for (int k = 0; k < steps; k++) {
                        blocking[k] = tr.blocking(k);
                    }
                    json.set("blocking", Printer.array(blocking));
                }
                json.put("truncation", tr.truncation());
                json.put("cutOffMass", tr.cutOffMass());
                response.putJson(json, "responseTimeQuantiles");
                json.set("meanResponseTime", Printer.array(response.mean()));
                regimes.ifPresent(history -> putRegimes(json, history, steps, adaptive));
                memory.ifPresent(m -> putMemory(json, m, steps));
                if (refine) {
                    refined.addJson(json, expansion);
                }
                Printer.printJson(out, json);
            }
            case csv -> printCsv(out, trajectory, columns);
            case table -> {
                out.println("Transient of " + fluid + ", " + model.loadLabel()
                        + model.samplingLabel().map(l -> ", sampling " + l).orElse("") + ", from " + initLabel);
                out.println("  levels kept K = " + tr.truncation() + " (largest cut-off mass "
                        + Printer.number(tr.cutOffMass()) + ")"
                        + regimes.map(history -> ", " + history.switches().size() + " regime switches").orElse("")
                        + memory.map(m -> ", " + m.switches().size() + " switches of the active level").orElse(""));
                memory.ifPresent(m -> m.switches().forEach(sw -> out.println("    t = " + Printer.number(sw.t())
                        + "  level " + sw.from() + " -> " + sw.to() + " (" + cause(sw) + ")")));
                if (adaptive) {
                    List<RegimeHistory.ThresholdJump> jumps = regimes.orElseThrow().thresholdJumps();
                    out.println("  threshold jumps:" + (jumps.isEmpty() ? " none" : ""));
                    for (RegimeHistory.ThresholdJump j : jumps) {
                        out.println("    t = " + Printer.number(j.t()) + "  " + j.from() + " -> " + j.to());
                    }
                }
                out.println();
                printTable(out, trajectory, columns);
            }
        }
        return 0;
    }

    /** @return how a switch of the active level came about, in words */
    private static String cause(MemorySwitch sw) {
        return sw.cause() == MemorySwitch.Cause.LEVEL_EMPTIED ? "level emptied" : "pool share F reached 0";
    }

    /**
     * Adds, for SQ(d) with memory at each time, {@code memoryLevel} (the active level), {@code maxQueueLength},
     * {@code idleShare}, {@code believedIdleShare}, {@code meanObservationExcess} and {@code joinShares} (s_j),
     * and the {@code switches} [{t, from, to, cause}] of the active level.
     */
    private static void putMemory(ObjectNode json, MemoryTransient m, int steps) {
        ArrayNode level = json.putArray("memoryLevel");
        ArrayNode max = json.putArray("maxQueueLength");
        double[] idle = new double[steps];
        double[] believed = new double[steps];
        double[] excess = new double[steps];
        ArrayNode shares = json.arrayNode();
        for (int k = 0; k < steps; k++) {
            level.add(m.activeLevel(k));
            max.add(m.maxQueueLength(k));
            idle[k] = m.idleShare(k);
            believed[k] = m.believedIdleShare(k);
            excess[k] = m.meanObservationExcess(k);
            shares.add(Printer.array(m.joinShares(k)));
        }
        json.set("idleShare", Printer.array(idle));
        json.set("believedIdleShare", Printer.array(believed));
        json.set("meanObservationExcess", Printer.array(excess));
        json.set("joinShares", shares);
        ArrayNode switches = json.putArray("switches");
        for (MemorySwitch sw : m.switches()) {
            ObjectNode o = switches.addObject();
            o.put("t", sw.t());
            o.put("from", sw.from());
            o.put("to", sw.to());
            o.put("cause", sw.cause() == MemorySwitch.Cause.LEVEL_EMPTIED ? "level-emptied" : "pool-exhausted");
        }
    }

    /** Adds {@code regime} and, for adaptive-threshold, {@code threshold} and {@code thresholdJumps}. */
    private static void putRegimes(ObjectNode json, RegimeHistory history, int steps, boolean adaptive) {
        ArrayNode regimes = json.arrayNode();
        ArrayNode thresholds = json.arrayNode();
        for (int k = 0; k < steps; k++) {
            regimes.add(history.regime(k).describe());
            thresholds.add(history.threshold(k));
        }
        json.set("regime", regimes);
        if (adaptive) {
            json.set("threshold", thresholds);
            ArrayNode jumps = json.putArray("thresholdJumps");
            for (RegimeHistory.ThresholdJump j : history.thresholdJumps()) {
                ObjectNode o = jumps.addObject();
                o.put("t", j.t());
                o.put("from", j.from());
                o.put("to", j.to());
            }
        }
    }

    /** A transient on its grid: the tail vector and mean queue length at grid index {@code k}, and the levels kept. */
    /** The mean response time and its percentiles for a job arriving at each time (docs/models.md §7). */
    private static void addResponseColumns(List<Column> columns, PercentileOptions.Series response) {
        columns.add(Column.number("E[T]", "meanResponseTime", k -> response.mean()[k]));
        double[] p = response.percentiles();
        for (int i = 0; i < p.length; i++) {
            int col = i;
            String label = PercentileOptions.label(p[i]);
            columns.add(Column.number("T p" + label, "responseTime_p" + label, k -> response.quantiles()[k][col]));
        }
    }

    private record Trajectory(TimeGrid grid, IntFunction<double[]> tail, IntToDoubleFunction meanQueueLength,
            int truncation) {
    }

    /**
     * A column printed between the mean queue length and the tail: its table and CSV headers (no CSV
     * header: table only) and its cells at grid index {@code k}.
     */
    private record Column(String tableHeader, String csvHeader, IntFunction<String> tableCell,
            IntFunction<String> csvCell) {

        /** @return a numeric column (table: {@link Printer#number}, CSV: {@link Printer#csv}) */
        static Column number(String tableHeader, String csvHeader, IntToDoubleFunction value) {
            return new Column(tableHeader, csvHeader, k -> Printer.number(value.applyAsDouble(k)),
                    k -> Printer.csv(value.applyAsDouble(k)));
        }

        /** @return a column printed as the same text in both formats */
        static Column text(String tableHeader, String csvHeader, IntFunction<String> cell) {
            return new Column(tableHeader, csvHeader, cell, cell);
        }
    }

    /** Adds {@code tail} (a row per grid time) and {@code meanQueueLength} to the JSON output. */
    private static void putTails(ObjectNode json, Trajectory tr) {
        int steps = tr.grid().size();
        double[][] tails = new double[steps][];
        double[] mean = new double[steps];
        for (int k = 0; k < steps; k++) {
            tails[k] = tr.tail().apply(k);
            mean[k] = tr.meanQueueLength().applyAsDouble(k);
        }
        json.set("tail", Printer.matrix(tails));
        json.set("meanQueueLength", Printer.array(mean));
    }

    /** CSV: {@code t, meanQueueLength}, the columns that have a CSV header, {@code x0 .. xK}, a row per grid time. */
    private static void printCsv(PrintWriter out, Trajectory tr, List<Column> columns) {
        List<Column> shown = columns.stream().filter(c -> c.csvHeader() != null).toList();
        StringBuilder header = new StringBuilder("t,meanQueueLength");
        for (Column c : shown) {
            header.append(',').append(c.csvHeader());
        }
        for (int i = 0; i <= tr.truncation(); i++) {
            header.append(",x").append(i);
        }
        out.println(header);
        for (int k = 0; k < tr.grid().size(); k++) {
            StringBuilder line = new StringBuilder(Printer.csv(tr.grid().time(k)));
            line.append(',').append(Printer.csv(tr.meanQueueLength().applyAsDouble(k)));
            for (Column c : shown) {
                line.append(',').append(c.csvCell().apply(k));
            }
            for (double x : tr.tail().apply(k)) {
                line.append(',').append(Printer.csv(x));
            }
            out.println(line);
        }
    }

    /** Table: t, mean queue, the columns, {@code x_1 .. x_L} with {@code L = min(TABLE_LEVELS, K)}, a row per grid time. */
    private static void printTable(PrintWriter out, Trajectory tr, List<Column> columns) {
        int levels = Math.min(TABLE_LEVELS, tr.truncation());
        String[] header = new String[2 + columns.size() + levels];
        int c = 0;
        header[c++] = "t";
        header[c++] = "mean queue";
        for (Column column : columns) {
            header[c++] = column.tableHeader();
        }
        for (int i = 1; i <= levels; i++) {
            header[c++] = "x_" + i;
        }
        Printer.Table table = new Printer.Table(header);
        for (int k = 0; k < tr.grid().size(); k++) {
            String[] row = new String[header.length];
            double[] tail = tr.tail().apply(k);
            c = 0;
            row[c++] = Printer.number(tr.grid().time(k));
            row[c++] = Printer.number(tr.meanQueueLength().applyAsDouble(k));
            for (Column column : columns) {
                row[c++] = column.tableCell().apply(k);
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
