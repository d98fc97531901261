package org.mflb.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.WorkEstimate;
import org.mflb.sweep.LocalSweepEngine;
import org.mflb.sweep.PointResult;
import org.mflb.sweep.SweepEngine;
import org.mflb.sweep.SweepGrid;
import org.mflb.sweep.SweepPlot;
import org.mflb.sweep.SweepPoint;
import org.mflb.sweep.SweepTable;
import org.mflb.validation.plot.Figure;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mflb sweep COMMAND [options]}: a command over the Cartesian product of the lists and ranges
 * given to its numeric options and the lists given to its options of names and laws (issue 17), each point computed by the command itself with
 * {@code --format json}; see {@link SweepGrid} for the grid and the points' seeds and
 * {@link SweepTable} for the tidy results.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs COMMAND (fixed-point, transient, simulate, pde or compare) over a grid: any numeric option,"
                + " and the value of --param NAME=VALUE, may be a list a,b,c or an inclusive range FROM:TO:STEP"
                + " (FROM <= TO, STEP > 0), and an option of names (--system, --policy, --sampling) or of service laws"
                + " (--service) a list a,b,c (laws split only where a new law starts: exp,lognormal:scv=4,mean=2 is two"
                + " laws); the sweep runs the Cartesian product, the first swept option varying slowest.",
            "Seeds: point p (0, 1, .. in that order) runs with the seed derived from (S, p), S = --seed or the"
                + " command's default, so replication r of point p uses the stream derived from (S, p, r) whatever"
                + " engine or thread count runs it.",
            "A failed point (say lambda >= 1 in a queue) is reported in its row with its error; the other points"
                + " still run, and the exit code is 1.",
            "Options of the sweep (anywhere on the line): --out, --format, --plot, --plot-file, --engine, --master,"
                + " --threads, --quiet; every other option is COMMAND's.",
            "Example: mflb sweep fixed-point --system supermarket --policy sqd --d 1,2,3 --lambda 0.5:0.95:0.05"
                + " --out sweep-sqd --plot x=lambda,y=meanQueueLength,series=d"})
public final class SweepCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "COMMAND", description = "fixed-point, transient, simulate, pde or compare.")
    String command;

    @Parameters(index = "1..*", paramLabel = "OPTIONS", description = "COMMAND's options, with lists and ranges.")
    List<String> options = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR",
            description = "Write DIR/results.csv (one row per point), DIR/results.json and, with --plot, DIR/sweep.png.")
    Path out;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Standard output: json = {points: [{params, result: COMMAND's JSON}]}, csv = results.csv,"
                    + " table = the swept values with the main results (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(names = "--plot", paramLabel = "x=PARAM,y=RESULT[+RESULT...][,series=PARAM]",
            description = "Draw RESULT (a column of results.csv; several joined by + are overlaid) against the swept"
                    + " PARAM, a series per column and value of the series parameter; 95%% CI bars when the result has"
                    + " them (columns RESULT.ci95Low, RESULT.ci95High). The figure's data goes next to it as CSV"
                    + " (series,x,y,ci95Low,ci95High).")
    String plot;

    @Option(names = "--plot-file", paramLabel = "FILE.png",
            description = "Where --plot writes the figure, .png or .svg (default: DIR/sweep.png with --out, else sweep.png).")
    Path plotFile;

    @Option(names = "--engine", paramLabel = "local|spark",
            description = "local = a thread pool in this process (default); spark = Apache Spark tasks (module"
                    + " sweep-spark on the classpath, with --master). Another value is COMMAND's own --engine.")
    List<String> engines = new ArrayList<>();

    /** The sweep's engine, from {@link #engines}. */
    private String engine = LocalSweepEngine.NAME;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master of --engine spark: local[N] (embedded, in this process) or spark://host:port.")
    String master;

    @Option(names = "--threads", paramLabel = "T",
            description = "Points run at once by the local engine (default: all processors); each point's command runs"
                    + " with one thread.")
    Integer threads;

    @Option(names = "--quiet", description = "No progress on stderr (by default a bar on a terminal, otherwise a line"
            + " per finished point and a heartbeat every 10 s).")
    boolean quiet;

    @Spec
    CommandSpec spec;

    /** The result columns the table format shows, when the results have them. */
    private static final List<String> HEADLINE = List.of("meanQueueLength", "meanQueueLength.ci95Low",
            "meanQueueLength.ci95High", "meanResponseTime", "blocking", "meanWait", "maxError", "failed");

    @Override
    public Integer call() {
        CommandSpec target = commandSpec();
        SweepGrid grid = SweepGrid.of(command, withCommandEngines(target), target);
        SweepPlot figure = plot == null ? null : SweepPlot.parse(plot, grid.columns(), grid.numberColumns());
        if (threads != null && threads < 1) {
            throw MflbException.invalid("threads", threads, "an integer >= 1");
        }
        if (plotFile != null && figure == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--plot-file needs --plot x=PARAM,y=RESULT (it says where that figure goes)");
        }
        Path figureFile = plotFile != null ? plotFile : out != null ? out.resolve("sweep.png") : Path.of("sweep.png");
        if (figure != null) {
            Figure.requireFormat(figureFile);
        }
        // before the run: a directory or figure that cannot be written is no reason to lose it
        if (out != null) {
            OutputPaths.requireWritableDirectory("out", out);
        }
        if (figure != null) {
            OutputPaths.requireWritableFile(plotFile != null ? "plot-file" : "plot", figureFile);
        }
        if (figure != null) {
            // likewise the figure's file and its data's (FILE.csv), checked before the run, not after it
            Path parent = figureFile.toAbsolutePath().getParent();
            if (parent != null && Files.isDirectory(parent)) {
                OutputPaths.requireWritableFile("plot-file", figureFile);
                OutputPaths.requireWritableFile("plot-file", Figure.dataFile(figureFile));
            }
        }
        SweepEngine runner = engine();
        List<SweepPoint> points = grid.points();
        checkCommandLine(points.get(0));
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        announceSize(points, threads != null ? threads : Runtime.getRuntime().availableProcessors(), stderr);
        List<PointResult> results;
        try (Progress progress = new Progress(stderr, quiet)) {
            progress.accept("[0/" + points.size() + "] sweep of " + command + ": " + points.size() + " points on the "
                    + runner.name() + " engine...");
            results = runner.run(points, new SweepEngine.Settings(threads != null ? threads
                    : Runtime.getRuntime().availableProcessors(), master), progress);
        }
        SweepTable table = new SweepTable(command, grid.columns(), points, results);
        if (out != null) {
            write(out.resolve("results.csv"), table.csv());
            write(out.resolve("results.json"), table.jsonText());
        }
        if (figure != null) {
            figure.save("mflb sweep " + command + ": " + figure.label() + " against " + figure.x(), table, figureFile);
        }
        switch (format) {
            case json -> stdout.println(table.jsonText());
            case csv -> stdout.print(table.csv());
            case table -> printTable(stdout, table, figure != null ? figureFile : null);
        }
        return table.failed() == 0 ? 0 : Mflb.EXIT_FAILURE;
    }

    /**
     * Announces, before any point runs and also with --quiet (a notice of size is not progress), each
     * point estimated at over a minute ({@link WorkLimits.Sized}) and the whole sweep's time when it
     * is over a minute on the threads. A point beyond the limits is refused when it runs, on its row.
     */
    private static void announceSize(List<SweepPoint> points, int threads, PrintWriter stderr) {
        double seconds = 0;
        for (SweepPoint point : points) {
            WorkEstimate estimate;
            try {
                CommandLine cli = new CommandLine(new Mflb());
                cli.setCaseInsensitiveEnumValuesAllowed(true);
                Object command = cli.parseArgs(point.args().toArray(String[]::new)).subcommand().commandSpec().userObject();
                if (!(command instanceof WorkLimits.Sized sized)) {
                    return;
                }
                estimate = sized.estimate();
            } catch (RuntimeException e) {
                continue; // an invalid point fails with its own line when it runs
            }
            estimate.notice().ifPresent(line -> stderr.println(line.replaceFirst("^mflb: ", "mflb: point "
                    + (point.index() + 1) + (point.label().isEmpty() ? "" : " (" + point.label() + ")") + ": ")));
            seconds += estimate.seconds();
        }
        double wall = seconds / Math.max(1, Math.min(threads, points.size()));
        if (wall > WorkEstimate.NOTICE_SECONDS) {
            stderr.println("mflb: the sweep needs about " + WorkEstimate.duration(wall) + " (" + points.size()
                    + " points on " + Math.min(threads, points.size()) + " thread(s))");
        }
        stderr.flush();
    }

    /** @return the picocli model of COMMAND, from a fresh command line (the commands' option types) */
    private CommandSpec commandSpec() {
        if (!SweepGrid.COMMANDS.contains(command)) {
            throw MflbException.invalid("COMMAND", command, "one of compare, fixed-point, pde, simulate, transient");
        }
        return new CommandLine(new Mflb()).getSubcommands().get(command).getCommandSpec();
    }

    /** Parses one point's command line before any point runs, so a malformed one is one line, not n failed rows. */
    private void checkCommandLine(SweepPoint point) {
        CommandLine cli = new CommandLine(new Mflb());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        try {
            CommandLine.ParseResult parsed = cli.parseArgs(point.args().toArray(String[]::new));
            if (parsed.subcommand() != null) {
                OptionRules.requireDistinctKeys(parsed.subcommand(), "--param");
            }
        } catch (CommandLine.ParameterException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), command + ": " + e.getMessage(), e);
        }
    }

    /**
     * Splits {@code --engine}: a sweep engine's name (local, spark, or one found on the classpath) is
     * the sweep's; any other value goes to COMMAND when it has an {@code --engine} of its own (the
     * simulator's, say).
     *
     * @return COMMAND's options, with the engines that are COMMAND's
     */
    private List<String> withCommandEngines(CommandSpec target) {
        List<String> sweepEngines = new ArrayList<>(List.of(LocalSweepEngine.NAME, "spark"));
        ServiceLoader.load(SweepEngine.class).forEach(e -> sweepEngines.add(e.name()));
        List<String> own = new ArrayList<>(options);
        List<String> mine = new ArrayList<>();
        for (String e : engines) {
            if (sweepEngines.contains(e)) {
                mine.add(e);
            } else if (target.findOption("--engine") != null) {
                own.add("--engine");
                own.add(e);
            } else {
                throw MflbException.invalid("engine", e, "local or spark");
            }
        }
        if (mine.size() > 1) {
            throw MflbException.invalid("engine", String.join(" and ", mine), "given once (local or spark)");
        }
        if (!mine.isEmpty()) {
            engine = mine.get(0);
        }
        return own;
    }

    private SweepEngine engine() {
        if (engine.equals(LocalSweepEngine.NAME)) {
            if (master != null) {
                throw MflbException.invalid("master", master, "used only with --engine spark");
            }
            return new LocalSweepEngine();
        }
        for (SweepEngine e : ServiceLoader.load(SweepEngine.class)) {
            if (e.name().equals(engine)) {
                return e;
            }
        }
        if (engine.equals("spark")) {
            throw new MflbException(ErrorKind.INPUT, "engine", "the spark engine is not on the classpath: run the sweep"
                    + " with ./mflb from a source checkout (it adds the sweep-spark module for --engine spark), or submit"
                    + " sweep-spark/target/mflb-sweep-spark.jar with spark-submit (README, Sweeps on Apache Spark)");
        }
        throw MflbException.invalid("engine", engine, "local or spark");
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MflbException(ErrorKind.INPUT, "out", "cannot write " + file + ": " + e);
        }
    }

    private void printTable(PrintWriter stdout, SweepTable table, Path figureFile) {
        List<String> shown = new ArrayList<>(table.columns().subList(0, table.columns().indexOf("status") + 1));
        HEADLINE.stream().filter(table::has).forEach(shown::add);
        shown.add("error");
        Printer.Table t = new Printer.Table(shown.toArray(String[]::new));
        for (int i = 0; i < table.size(); i++) {
            int row = i;
            t.row(shown.stream().map(c -> {
                double v = table.number(row, c);
                return Double.isNaN(v) || table.columns().indexOf(c) < table.columns().indexOf("status")
                        ? table.cell(row, c) : Printer.number(v);
            }).toArray(String[]::new));
        }
        t.print(stdout);
        stdout.println();
        stdout.println((table.size() - table.failed()) + " of " + table.size() + " points ok"
                + (out != null ? "; results: " + out.resolve("results.csv") + ", " + out.resolve("results.json") : "")
                + (figureFile != null ? "; figure: " + figureFile : ""));
    }
}
