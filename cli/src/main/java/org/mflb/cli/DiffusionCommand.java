package org.mflb.cli;

import java.io.PrintWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.SmoothRouting;
import org.mflb.validation.LossPoolScenarios;
import org.mflb.validation.RefinedVersusSimulation;
import org.mflb.validation.ScenarioOutcome;
import org.mflb.validation.ValidationContext;
import org.mflb.validation.ValidationScenario;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mflb diffusion}: the linear-noise covariance against simulated fluctuations, or with
 * {@code --regime halfin-whitt} the Halfin–Whitt study of JSQ ({@link HalfinWhittMode}): one command,
 * one option set.
 */
@Command(name = "diffusion", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Diffusion (Ornstein-Uhlenbeck, linear-noise) approximation against simulation: the stationary"
                + " covariance W of the Lyapunov equation A W + W A^T + Q = 0 next to the simulated N Cov(x_i, x_j)"
                + " of the first levels, with a plot of the variances.",
            "Tolerance per entry: 3 CI half-widths + 10 max|W_ii|/N (the O(1/N) correction).",
            "Loss pools with --service: every level, N Cov against W of the service law (within 3 half-widths + 1%%),"
                    + " the insensitive mean x* + V/N, the three blocking estimators and the time-average variance.",
            "JSQ in the Halfin-Whitt regime: mflb diffusion --policy jsq --regime halfin-whitt --beta B --n N,N,..."
                + " (N exp(1) servers, arrival rate N(1 - beta/sqrt(N))): the stationary law of the diffusion limit"
                + " dX1 = sqrt(2) dW - (beta + X1 - X2) dt - dU, dX2 = dU - X2 dt, X1 <= 0 (Kushner lattices solved"
                + " exactly, extrapolated in h, with an error estimate), the exact N-server chain for each N (at most"
                + " two jobs per server; P_Q3_positive is the rate of arrivals that would make a third), the simulated"
                + " N-server system with 95%% CIs, and the rate: slope of log|E X2^N - E X2| against log N and c1, c2 of"
                + " the least-squares E X2^N - E X2 = c1/sqrt(N) + c2/N (both fitted over N >= 1600; they need two N)."
                + " With --plot, figures: E[X2^N] against N, and the stationary tails. Options: --policy, --system supermarket, --n N,N,..., those"
                + " marked --regime halfin-whitt, --seed, --threads, --long, --plot, --format, --quiet."})
public final class DiffusionCommand implements Callable<Integer> {

    @Mixin
    ModelOptions model;

    @Mixin
    TruncationOptions truncation;

    @Option(names = "--levels", defaultValue = "5", paramLabel = "K",
            description = "Tail levels x_1..x_K compared (default: ${DEFAULT-VALUE}).")
    int levels;

    @Mixin
    HalfinWhittMode halfinWhitt;

    @Mixin
    RandomStreamOptions streams;

    @Option(names = "--long", description = "Longer simulation (16 replications of 20000 time units instead of 8 of"
            + " 4000; --regime halfin-whitt: ten times the events).")
    boolean longRun;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Write the figure of the variances here (default: no figure); --regime halfin-whitt: the"
                    + " figure of E[X2^N] against N, the tails going to FILE-tails.png. Each figure's data goes next"
                    + " to it as CSV (series,x,y,ci95Low,ci95High).")
    Path plot;

    @Option(names = "--format", paramLabel = "json|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Mixin
    ProgressOptions progress;

    @Mixin
    WorkLimits limits;

    @Mixin
    ModelFileOptions modelFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (halfinWhitt.requested()) {
            return halfinWhitt.run(this);
        }
        halfinWhitt.refuseOptions(spec);
        if (modelFile.given(spec)) {
            ModelFileOptions.allowOnly(spec, "--n", "--levels", "--long", "--seed", "--threads", "--plot", "--format", "--quiet");
            boolean plotGiven = spec.commandLine().getParseResult().hasMatchedOption("--plot");
            var file = modelFile.load();
            limits.check(spec, WorkLimits.modelFile("the fluid limit of " + file.name(), file, 0, true),
                    WorkLimits.modelFileSimulation("simulating " + file.name() + " with N = " + model.size(), file,
                            model.size() == null ? 0 : model.size(), longRun ? 20000 : 4000, longRun ? 16 : 8,
                            streams.threads()));
            return progress.step(spec, "fluctuations of " + file.name() + " against simulation",
                    () -> ModelFileComparison.diffusion(file, model.size(), levels, longRun, plotGiven ? plot : null,
                            streams.seed(), streams.threads(), format, spec.commandLine().getOut()));
        }
        model.requireConstantRate("the stationary fluctuations");
        LoadBalancingModel lbm = model.model();
        if (format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table for diffusion");
        }
        int servers = model.servers();
        model.requireSmooth(lbm);
        // loss pools: --service is the simulated law of the fluctuation study; W of exponential service otherwise
        FluidModel fluid = model.fluidModel(lbm.withService(Exponential.unit()), truncation);
        limits.check(spec, WorkLimits.fluid("the fluid limit", lbm, truncation.rule(), model.threshold, 0),
                WorkLimits.simulation("simulating N = " + servers, 2.0 * servers * lbm.arrivalRate().at(0)
                        * (longRun ? 16 * 20000 : 8 * 4000), longRun ? 20000 : 4000, longRun ? 16 : 8, streams.threads()));
        int maxLevels = fluid.system().isLossy() ? Math.min(fluid.system().capacity(), 256) : 256;
        if (!spec.commandLine().getParseResult().hasMatchedOption("--levels")) {
            levels = Math.min(levels, maxLevels); // the default 5, or all C levels of smaller loss pools
        }
        // W has one row per level the fixed point keeps: deeper levels have no covariance to compare
        int kept = fluid.fixedPoint().levels().length;
        if (!spec.commandLine().getParseResult().hasMatchedOption("--levels")) {
            levels = Math.min(levels, kept);
        }
        if (levels < 1 || levels > Math.min(maxLevels, kept)) {
            throw MflbException.invalid("levels", levels, "an integer in [1, " + Math.min(maxLevels, kept) + "]"
                    + (kept < maxLevels ? " (the fixed point keeps " + kept + " levels, the rest below the tail"
                            + " tolerance; --truncation K keeps more)"
                            : fluid.system().isLossy() ? " (at most the capacity C)" : ""));
        }
        String id = "diffusion";
        Path dir;
        if (plot != null) {
            String name = plot.getFileName().toString();
            if (!name.endsWith(".png")) {
                throw MflbException.invalid("plot", plot, "a file name ending in .png");
            }
            OutputPaths.requireWritableFile("plot", plot);
            id = name.substring(0, name.length() - 4);
            dir = plot.toAbsolutePath().getParent();
        } else {
            try {
                dir = Files.createTempDirectory("mflb-diffusion");
            } catch (IOException e) {
                throw new MflbException(org.mflb.core.ErrorKind.INPUT, null, "cannot create a temporary directory: " + e.getMessage());
            }
        }
        ValidationContext context = new ValidationContext(dir, longRun, streams.seed(), streams.threads());
        ValidationScenario scenario;
        if (model.serviceGiven()) {
            if (!fluid.system().isLossy()) {
                throw MflbException.invalid("service", model.service, "used only with --system loss");
            }
            scenario = LossPoolScenarios.fluctuations(id, fluid.system().capacity(), ((SmoothRouting) fluid.policy()).d(),
                    fluid.arrivalRate().at(0), model.service, servers);
        } else {
            scenario = RefinedVersusSimulation.covariance(id, "Linear-noise covariance", lbm, truncation.rule(), servers,
                    levels);
        }
        ScenarioOutcome outcome;
        try {
            outcome = progress.step(spec, "fluctuations against simulation at N = " + servers, () -> scenario.run(context));
        } finally {
            if (plot == null) {
                deleteQuietly(dir);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormat.json) {
            ObjectNode json = CheckPrinter.json(outcome.checks());
            if (model.samplingLabel().isPresent()) {
                // the loss-pool fluctuation study (--service) simulates the real algorithm whatever --sampling says
                json.put("sampling", model.serviceGiven() ? "distinct" : model.sampling.id());
            }
            if (plot != null) {
                json.put("plot", plot.toString());
            }
            Printer.printJson(out, json);
        } else {
            out.println(outcome.description());
            model.samplingLabel().ifPresent(l -> out.println(model.serviceGiven()
                    ? "Sampling: d distinct servers (the loss-pool fluctuation study simulates the real algorithm)."
                    : "Sampling: " + l + " (in the simulation too)."));
            out.println();
            CheckPrinter.table(out, outcome.checks());
            out.println(plot != null ? String.format(Locale.ROOT, "figure: %s (%.1f s)", plot, outcome.seconds())
                    : String.format(Locale.ROOT, "(%.1f s)", outcome.seconds()));
        }
        return 0;
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
