package org.mflb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.mflb.validation.Catalogue;
import org.mflb.validation.ScenarioOutcome;
import org.mflb.validation.Validation;
import org.mflb.validation.ValidationContext;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb validate}: the main job, every model against the simulator, as a report. */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The main job: runs the built-in catalogue of scenarios (fixed points and transients of every"
                + " model, against simulations of the real N-server system) and writes DIR/report.md, one PNG per"
                + " scenario with the CSV of its curves (series,x,y,ci95Low,ci95High) and DIR/summary.json (per"
                + " scenario: figure, data). Exits with 1 if a scenario fails. --list prints the scenario ids.",
            "--quick (default) takes about half a minute on two idle cores; --full runs longer simulations (about five minutes)."})
public final class ValidateCommand implements Callable<Integer> {

    static final class Mode {
        @Option(names = "--quick", description = "Quick catalogue sizes (default).")
        boolean quick;

        @Option(names = "--full", description = "Full catalogue sizes: longer runs, tighter intervals.")
        boolean full;
    }

    @ArgGroup(exclusive = true)
    Mode mode;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "mflb-validation",
            description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--only", paramLabel = "ID", split = ",", description = "Run only these scenario ids.")
    List<String> only;

    @Option(names = "--list", description = "Print the scenario ids (of --quick or --full), one line each with its"
            + " title, and run nothing.")
    boolean list;

    @Option(names = "--seed", defaultValue = "20261129", paramLabel = "S", description = "Base seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--threads", paramLabel = "T", description = "Simulation threads (default: all processors).")
    Integer threads;

    @Option(names = "--quiet", description = "No progress on stderr (by default a bar on a terminal, otherwise a line"
            + " per scenario and a heartbeat every 10 s).")
    boolean quiet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        boolean full = mode != null && mode.full;
        var scenarios = Catalogue.scenarios(full);
        if (list) {
            OptionRules.allowOnly(spec, "--list", new java.util.TreeSet<>(List.of("--list", "--quick", "--full")));
            int width = scenarios.stream().mapToInt(s -> s.id().length()).max().orElse(0);
            for (var s : scenarios) {
                stdout.println(String.format(java.util.Locale.ROOT, "%-" + width + "s  %s", s.id(), s.title()));
            }
            return 0;
        }
        if (only != null) {
            scenarios = scenarios.stream().filter(s -> only.contains(s.id())).toList();
            if (scenarios.isEmpty()) {
                throw org.mflb.core.MflbException.invalid("only", String.join(",", only), "ids from: "
                        + String.join(", ", Catalogue.scenarios(full).stream().map(s -> s.id()).toList()));
            }
        }
        OutputPaths.requireWritableDirectory("out", out);
        ValidationContext context = new ValidationContext(out, full, seed,
                threads != null ? threads : Runtime.getRuntime().availableProcessors());
        List<ScenarioOutcome> outcomes;
        try (Progress progress = new Progress(stderr, quiet)) {
            outcomes = Validation.run(scenarios, context, progress);
        }
        long failed = outcomes.stream().filter(o -> !o.passed()).count();
        stdout.println((outcomes.size() - failed) + " of " + outcomes.size() + " scenarios passed; report: "
                + out.resolve("report.md") + ", summary: " + out.resolve("summary.json"));
        for (ScenarioOutcome o : outcomes) {
            if (!o.passed()) {
                stdout.println("  FAILED: " + o.id() + " (" + o.title() + ")");
            }
            if (o.notApplicable() > 0) {
                // a size expansion whose terms do not decrease at some N: those rows neither pass nor fail
                stdout.println("  warning: " + o.id() + ": " + o.notApplicable() + " check(s) not applicable at their"
                        + " N (n/a in the report, with the reason)");
            }
        }
        return failed == 0 ? 0 : Mflb.EXIT_FAILURE;
    }
}
