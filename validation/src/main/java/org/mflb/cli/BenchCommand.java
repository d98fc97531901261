package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.InitialState;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.ServerSystem;
import org.mflb.fluid.Truncation;
import org.mflb.validation.Stopwatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb bench}: speed figures of the solvers, measured after warm-up (median of repetitions). */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Benchmarks: wall time of fluid fixed points and transients (median after JIT warm-up).")
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--repetitions", defaultValue = "21", paramLabel = "R",
            description = "Measured runs per case (default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--warmup", defaultValue = "1.0", paramLabel = "SECONDS",
            description = "Warm-up time per case (default: ${DEFAULT-VALUE} s).")
    double warmup;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    record Case(String name, Runnable task) {
    }

    static List<Case> fluidCases() {
        List<Case> cases = new ArrayList<>();
        FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
        cases.add(new Case("fixed point, SQ(2) queues, lambda 0.9 (auto K)", sq2::fixedPoint));
        FluidModel random99 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(1), 0.99);
        cases.add(new Case("fixed point, random queues, lambda 0.99 (auto K ~ 3300)", random99::fixedPoint));
        FluidModel sq2k100 = sq2.withTruncation(Truncation.fixed(100));
        TimeGrid grid = TimeGrid.uniform(50, 0.5);
        cases.add(new Case("transient, SQ(2) queues, K = 100, t in [0, 50], 101 outputs",
                () -> sq2k100.transientFrom(InitialState.empty(), grid)));
        FluidModel pools = FluidModel.of(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(2), 50)
                .withTruncation(Truncation.fixed(100));
        cases.add(new Case("transient, SQ(2) pools, lambda 50, K = 100, t in [0, 50]",
                () -> pools.transientFrom(InitialState.empty(), grid)));
        return cases;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Case> cases = fluidCases();
        ArrayNode rows = Printer.object().arrayNode();
        Printer.Table table = new Printer.Table("benchmark", "median", "min");
        for (Case c : cases) {
            Stopwatch.Timing t = Stopwatch.time(c.task(), warmup, repetitions);
            ObjectNode row = rows.addObject();
            row.put("name", c.name());
            row.put("medianSeconds", t.medianSeconds());
            row.put("minSeconds", t.minSeconds());
            table.row(c.name(), ms(t.medianSeconds()), ms(t.minSeconds()));
        }
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.set("benchmarks", rows);
                json.put("repetitions", repetitions);
                Printer.printJson(out, json);
            }
            case csv -> {
                out.println("name,medianSeconds,minSeconds");
                rows.forEach(r -> out.println("\"" + r.get("name").asText() + "\"," + r.get("medianSeconds") + ","
                        + r.get("minSeconds")));
            }
            case table -> table.print(out);
        }
        return 0;
    }

    private static String ms(double seconds) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", seconds * 1e3);
    }

}
