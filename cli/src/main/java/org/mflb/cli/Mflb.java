package org.mflb.cli;

import java.io.PrintWriter;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code mflb} command line: a thin shell over the Java API. Errors print one line naming the
 * parameter and its valid range and exit non-zero; {@code --debug} adds the stack trace.
 */
@Command(name = "mflb", mixinStandardHelpOptions = true, version = "mflb 0.1.0",
        description = "Mean-field analysis of large load-balancing systems: fluid limits, fixed points,"
                + " transients, and simulation of the real N-server system.",
        subcommands = {
            FixedPointCommand.class,
            TransientCommand.class,
            SimulateCommand.class,
            PdeCommand.class,
            CompareCommand.class,
            SweepCommand.class,
            ValidateCommand.class,
            DiffusionCommand.class,
            BenchCommand.class,
            ModelsCommand.class,
            CommandLine.HelpCommand.class})
public final class Mflb implements Runnable {

    /** Exit code for a run-time failure (bad value, no convergence). */
    public static final int EXIT_FAILURE = 1;
    /** Exit code for a malformed command line. */
    public static final int EXIT_USAGE = 2;

    @Option(names = "--debug", scope = CommandLine.ScopeType.INHERIT,
            description = "Print the stack trace of errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * A required parameter that is missing for the others given, said of its option: a malformed
     * command line ({@link #EXIT_USAGE}), whether the command line or the library found it.
     *
     * @param e an error of kind {@link ErrorKind#MISSING_PARAMETER}: "{@code name is required requirement}"
     * @return "{@code missing option --flag: must be given requirement}"
     */
    static String missingOption(MflbException e) {
        String prefix = e.parameter() + " is required ";
        String requirement = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
        return "missing option " + flag(e.parameter()) + ": must be given " + requirement;
    }

    /**
     * @param parameter a parameter's name in the library ({@code lambda}, {@code initialThreshold}, {@code t-end})
     * @return the option that gives it ({@code --lambda}, {@code --initial-threshold}, {@code --t-end})
     */
    static String flag(String parameter) {
        String name = switch (parameter) {
            case "servers", "N" -> "n";
            case "arrivalRate" -> "lambda";
            default -> parameter;
        };
        return "--" + name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line with the given streams (for tests and embedding).
     *
     * @return the exit code
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Mflb());
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        // sweep passes every option it does not know on to the command it sweeps
        cli.getSubcommands().get("sweep").setUnmatchedOptionsArePositionalParams(true);
        cli.setParameterExceptionHandler((ex, arguments) -> {
            err.println("mflb: " + ex.getMessage());
            CommandLine failed = ex.getCommandLine();
            err.println("Try 'mflb " + (failed.getCommandName().equals("mflb") ? "" : failed.getCommandName() + " ")
                    + "--help' for the valid options.");
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            boolean debug = parseResult.hasMatchedOption("--debug")
                    || parseResult.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--debug"));
            if (debug) {
                ex.printStackTrace(err);
            }
            MflbException known = ex instanceof MflbException e ? e : null;
            boolean missing = known != null && known.kind() == ErrorKind.MISSING_PARAMETER;
            if (known != null) {
                err.println("mflb: " + (missing ? missingOption(known) : known.getMessage()));
            } else {
                err.println("mflb: internal error: " + ex + (debug ? "" : " (run with --debug for details)"));
            }
            err.flush();
            return missing ? EXIT_USAGE : EXIT_FAILURE;
        });
        int code;
        try {
            code = cli.execute(args);
        } catch (OutOfMemoryError e) {
            // Solvers refuse what cannot fit before starting; this is the last line of defence.
            Runtime runtime = Runtime.getRuntime();
            err.println("mflb: out of memory (heap limit " + runtime.maxMemory() / (1 << 20)
                    + " MB): reduce the problem size (--n, --truncation, --capacity, --t-end) or raise the heap"
                    + " with MFLB_JAVA_OPTS=-Xmx...");
            code = EXIT_FAILURE;
        }
        out.flush();
        err.flush();
        return code;
    }
}
