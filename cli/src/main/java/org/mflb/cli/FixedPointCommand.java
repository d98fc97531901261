package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntFunction;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.distribution.Exponential;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidResponseTime;
import org.mflb.fluid.memory.MemoryFixedPoint;
import org.mflb.fluid.nonsmooth.SwitchedEquilibrium;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb fixed-point}: the stable fixed point of a fluid model. */
@Command(name = "fixed-point", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Stable fixed point of the fluid limit: tail vector, mean queue length, blocking (loss pools),"
                + " with the residual, the truncation and the stability of the result; with --refined, the refined"
                + " mean field E[X^N] = x + V/N (+ A/N^2) and the covariance W = lim N Cov(X^N). Loss pools"
                + " (random, sqd): the Ornstein-Uhlenbeck limit (mean m = -beta dx*/dlambda, W, spectral gap,"
                + " time-average variances), with --refined the blocking approximations for N pools at"
                + " lambda_N = lambda - beta/sqrt(N) with their error orders, --exact the exact N-pool chain,"
                + " --service the phase-type sensitivity. --classes: per-class tails and means, lambda*, refined terms"
                + " per class. --policy ll: the equilibrium of the LL(d) workload equation for any job-size law --service"
                + " (E[R], E[W], response- and waiting-time quantiles, the workload ccdf) to the accuracy --tolerance.")
public final class FixedPointCommand implements Callable<Integer> {

    /** Rows shown by the table format; CSV and JSON hold every level. */
    static final int TABLE_ROWS = 40;

    /** Width of the labels of the table's summary lines ("  mean queue length   0.9"). */
    private static final int LABEL_WIDTH = 20;

    @Mixin
    ModelOptions model;

    @Mixin
    TruncationOptions truncation;

    @Mixin
    RefinedOptions refined;

    @Mixin
    PercentileOptions latency;

    @Mixin
    LossOptions loss;

    @Mixin
    ModelFileOptions modelFile;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Mixin
    WorkLimits limits;

    @Spec
    CommandSpec spec;

    /**
     * The fixed point of any policy. Smooth drifts (random, sqd; Newton on the truncated drift): JSON
     * adds {@code iterations}, {@code stable}, {@code spectralAbscissa}, {@code blocking} for loss
     * pools and, with --refined, the keys of {@link RefinedOptions#addJson}; CSV adds {@code V} and
     * {@code tail_N<n>} with --refined. Non-smooth drifts (jsq, jiq, threshold, adaptive-threshold;
     * closed forms, [GABL] Section 3): JSON adds {@code equilibrium} (balanced, erlang-b or
     * unbounded-support), {@code threshold} for the threshold policies, {@code diagnosis} when the
     * equilibrium is not the balanced state, and {@code settlingTime} (the last jump of the learning
     * threshold from the empty state).
     */
    @Override
    public Integer call() {
        if (modelFile.given(spec)) {
            ModelFileOptions.allowOnly(spec, "--refined", "--order", "--format");
            var file = modelFile.load();
            String what = "the fixed point of " + file.name();
            return limits.run(spec, WorkLimits.modelFile(what, file, 0, true), what,
                    () -> ModelFileAnalysis.fixedPoint(file, refined, format, spec.commandLine().getOut(),
                            spec.commandLine().getErr()));
        }
        model.requireConstantRate("a fixed point");
        LoadBalancingModel lbm = model.model();
        double tolerance = workload.tolerance(lbm.policy());
        if (lbm.policy() instanceof org.mflb.core.system.Policy.LeastLoaded) {
            String with = "--policy ll (the workload equation: no tail vector, refined terms or loss pools)";
            LeastLoadedAnalysis.refuse(refined.requested(), "refined", true, with);
            LeastLoadedAnalysis.refuse(truncation.truncation != null, "truncation", truncation.truncation, with);
            LeastLoadedAnalysis.refuse(loss.given(), "beta", loss.beta, with);
            LeastLoadedAnalysis.refuse(model.size() != null, "n", model.size(), with);
            return LeastLoadedAnalysis.fixedPoint(lbm, tolerance, latency, format, spec.commandLine().getOut());
        }
        if (lbm.hasClasses()) {
            return ClassesFixedPoint.print(lbm, refined, latency, format, spec.commandLine().getOut());
        }
        model.requireSizeOnlyWithDistinctSampling();
        truncation.holdQuantiles(latency.percentiles().values());
        boolean lossy = lbm.system().isLossy();
        if (refined.requested() || loss.given() || lossy && model.serviceGiven()) {
            model.requireSmooth(lbm);
        }
        if (!lossy) {
            model.requireExponentialService(lbm, "fixed-point");
        }
        // loss pools: the fixed point is insensitive to the service law, which only the fluctuations see
        FluidModel fluid = model.fluidModel(lossy ? lbm.withService(Exponential.unit()) : lbm, truncation);
        limits.check(spec, WorkLimits.fluid("the fixed point", lbm, truncation.rule(), model.threshold, 0));
        // Loss-pool options are validated (and their exact chains sized) before any long work.
        LossOptions.Report lossReport = lbm.policy().hasSmoothFluidLimit() ? loss.report(model.service,
                model.serviceGiven() ? lbm.service() : null, fluid, refined.requested() ? refined.sizes() : null,
                spec.commandLine().getErr()) : null;
        FluidFixedPoint fp = fluid.fixedPoint();
        FluidResponseTime response = fluid.responseTime(fp);
        Own own = fp.memory().map(m -> memory(m, response)).orElseGet(() -> fp.equilibrium()
                .map(e -> switched(e, response)).orElseGet(() -> smooth(fluid, fp, lossReport, response)));
        print(new Shared(fluid.system().name(), fluid.policy().name(), fluid.toString(), fluid.arrivalRate().at(0),
                fp.tail(), fp.meanQueueLength(), fp.truncation(), fp.cutOffMass(), fp.residual()), own);
        if (truncation.fixed() && fp.cutOffMass() > truncation.tolerance()) {
            spec.commandLine().getErr().println(String.format(java.util.Locale.ROOT, "mflb: warning: --truncation %d"
                    + " cuts off a tail mass of about %.3g (more than %.3g, --tail-tolerance or the percentiles'"
                    + " tails): the boundary distorts the levels near K and the means; raise --truncation or leave it"
                    + " automatic", fp.truncation(), fp.cutOffMass(), truncation.tolerance()));
        }
        return 0;
    }

    /** @return what the fixed point of a smooth drift prints besides {@link Shared}, with --refined the expansion */
    private Own smooth(FluidModel fluid, FluidFixedPoint fp, LossOptions.Report lossReport,
            FluidResponseTime response) {
        boolean refine = refined.requested();
        SteadyStateExpansion expansion = refine ? expansion(fluid, fp) : null;
        DoubleUnaryOperator refinedResponseTime = refinedResponseTime(fluid, response);
        if (refine && format == OutputFormat.csv) {
            // CSV has no room for notes: the warnings go to stderr, never silently dropped
            refined.printWarnings(spec.commandLine().getErr(), expansion, "");
        }
        Consumer<ObjectNode> json = j -> {
            j.put("iterations", fp.iterations());
            j.put("stable", fp.isStable());
            Printer.put(j, "spectralAbscissa", fp.spectralAbscissa());
            fp.blocking().ifPresent(b -> j.put("blocking", b));
            if (refine) {
                refined.addJson(j, expansion, refinedResponseTime);
            }
            if (lossReport != null) {
                lossReport.addJson(j);
            }
            latency.putResponse(j, response);
        };
        List<String> state = new ArrayList<>();
        fp.blocking().ifPresent(b -> state.add(summaryLine("blocking", Printer.number(b))));
        addResponseLines(state, response);
        String stability = (fp.isStable() ? "stable" : "UNSTABLE") + (Double.isNaN(fp.spectralAbscissa()) ? ""
                : " (largest eigenvalue real part " + Printer.number(fp.spectralAbscissa()) + ")");
        List<Column> columns = new ArrayList<>();
        Consumer<PrintWriter> footer = out -> { };
        if (refine) {
            // Level 0 is no state variable: V_0 = 0 and E[X_0^N] = 1 exactly.
            double[] v = expansion.firstOrderTerm();
            columns.add(new Column("V", i -> Printer.csv(i == 0 ? 0.0 : v[i - 1])));
            for (int n : refined.sizes()) {
                double[] mean = expansion.mean(n);
                columns.add(new Column("tail_N" + n, i -> Printer.csv(i == 0 ? 1.0 : mean[i - 1])));
            }
            footer = out -> refined.printTable(out, expansion, 4, refinedResponseTime);
        }
        if (lossReport != null) {
            Consumer<PrintWriter> before = footer;
            footer = out -> {
                before.accept(out);
                lossReport.printTable(out);
            };
        }
        return new Own(json, state, " after " + fp.iterations() + " iterations",
                List.of(summaryLine("stability", stability)), columns, footer);
    }

    /**
     * The mean response time at size N from the refined mean number of jobs per server {@code q}
     * (docs/models.md §7, "Mean response time at finite N"): in single-server queues Little's law
     * {@code E[T] = q/λ}, which holds at every N; in infinite-server pools every job is served at once,
     * and in loss pools every accepted job is, so there the mean response time is the mean service
     * time at every N (the fluid's value; {@code q/λ} is then the carried share {@code 1 − B_N}).
     */
    private static DoubleUnaryOperator refinedResponseTime(FluidModel fluid, FluidResponseTime response) {
        if (fluid.system().kind() == ServerSystem.Kind.SUPERMARKET) {
            double lambda = fluid.arrivalRate().at(0);
            return q -> q / lambda;
        }
        double serviceTime = response.mean();
        return q -> serviceTime;
    }

    /** @return the refined mean-field expansion of the steady state (--refined) */
    private SteadyStateExpansion expansion(FluidModel fluid, FluidFixedPoint fp) {
        return RefinedOptions.steadyState(refined.solver(), fluid, fp);
    }

    /** @return what the closed-form equilibrium of a non-smooth drift prints besides {@link Shared} */
    private Own switched(SwitchedEquilibrium fp, FluidResponseTime response) {
        boolean thresholdPolicy = model.policy == ModelOptions.PolicyName.threshold
                || model.policy == ModelOptions.PolicyName.adaptive_threshold;
        String kind = fp.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
        List<String> state = new ArrayList<>();
        state.add(summaryLine("equilibrium", kind + (fp.threshold().isPresent() && thresholdPolicy
                ? " (threshold " + fp.threshold().getAsInt() + ")" : "")));
        fp.settlingTime().ifPresent(t -> state.add(summaryLine("settling time", Printer.number(t)
                + " (last threshold jump from the empty state)")));
        addResponseLines(state, response);
        List<String> notes = new ArrayList<>();
        fp.diagnosis().ifPresent(d -> notes.add(summaryLine("note", d)));
        Consumer<ObjectNode> json = j -> {
            j.put("equilibrium", kind);
            if (thresholdPolicy) {
                j.put("threshold", fp.threshold().orElseThrow());
            }
            fp.diagnosis().ifPresent(d -> j.put("diagnosis", d));
            fp.settlingTime().ifPresent(t -> j.put("settlingTime", t));
            latency.putResponse(j, response);
        };
        return new Own(json, state, " (closed form)", notes, List.of(), out -> { });
    }

    /**
     * What the tagged-server fixed point of SQ(d) with memory prints besides {@link Shared} (docs/models.md
     * §1a): JSON {@code memoryLevel} (L), {@code maxQueueLength}, {@code idleShare} and
     * {@code believedIdleShare} (shares of jobs sent to idle servers and to servers believed idle),
     * {@code meanObservationExcess} (E[m − Q]), {@code alpha} and {@code joinShares} (s_j, the share of
     * arrivals joining a queue with at least j jobs); CSV the column {@code joinShare}.
     */
    private Own memory(MemoryFixedPoint fp, FluidResponseTime response) {
        Consumer<ObjectNode> json = j -> {
            j.put("memoryLevel", fp.memoryLevel());
            j.put("maxQueueLength", fp.maxQueueLength());
            j.put("idleShare", fp.idleShare());
            j.put("believedIdleShare", fp.believedIdleShare());
            j.put("meanObservationExcess", fp.meanObservationExcess());
            Printer.put(j, "alpha", fp.alpha());
            j.set("joinShares", Printer.array(fp.joinShares()));
            latency.putResponse(j, response);
        };
        List<String> state = new ArrayList<>(List.of(
                summaryLine("memory level L", fp.memoryLevel() + " (observations L and L + 1 carry the mass)"),
                summaryLine("max queue length", Integer.toString(fp.maxQueueLength())),
                summaryLine("idle share", Printer.number(fp.idleShare()) + " (jobs sent to idle servers)"),
                summaryLine("believed-idle share", Printer.number(fp.believedIdleShare())
                        + " (jobs sent to servers believed idle)"),
                summaryLine("E[m - Q]", Printer.number(fp.meanObservationExcess()))));
        addResponseLines(state, response);
        double[] s = fp.joinShares();
        List<Column> columns = List.of(new Column("joinShare", i -> Printer.csv(i < s.length ? s[i] : 0.0)));
        return new Own(json, state, " (tagged-server chain)", List.of(), columns, out -> { });
    }

    /**
     * What every fixed point prints: the model ({@code system}, {@code policy}, its description and
     * {@code lambda}), the tail {@code x_0 = 1, x_1, .., x_K}, the mean queue length, the truncation
     * {@code K}, the tail mass cut off beyond it and the residual of the drift.
     */
    private record Shared(String system, String policy, String description, double lambda, double[] tail,
            double meanQueueLength, int truncation, double cutOffMass, double residual) {
    }

    /**
     * What one kind of fixed point adds to {@link Shared}: its JSON keys (after {@code residual}),
     * the table's summary lines after the mean queue length ({@code state}), the text closing the
     * residual line and the summary lines after it ({@code notes}), its CSV columns (after
     * {@code tail}) and what the table prints below the tail.
     */
    private record Own(Consumer<ObjectNode> json, List<String> state, String residualNote, List<String> notes,
            List<Column> columns, Consumer<PrintWriter> footer) {
    }

    /** A CSV column after {@code level,tail}: its header and its cell at level {@code i}. */
    private record Column(String header, IntFunction<String> cell) {
    }

    /** The response time's mean and percentiles (docs/models.md §7) as table summary lines. */
    private void addResponseLines(List<String> state, FluidResponseTime response) {
        state.add(summaryLine("mean response time", Printer.number(response.mean())));
        state.add(summaryLine("response time", latency.summary(response)));
    }

    /** @return a table summary line: the label padded to {@link #LABEL_WIDTH}, then the value */
    private static String summaryLine(String label, String value) {
        return "  " + label + " ".repeat(LABEL_WIDTH - label.length()) + value;
    }

    /** Prints the fixed point in the chosen format: the shared fields once, each followed by the kind's own. */
    private void print(Shared fp, Own own) {
        PrintWriter out = spec.commandLine().getOut();
        double[] tail = fp.tail();
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("system", fp.system());
                json.put("policy", fp.policy());
                json.put("lambda", fp.lambda());
                json.set("tail", Printer.array(tail));
                json.put("meanQueueLength", fp.meanQueueLength());
                json.put("truncation", fp.truncation());
                json.put("cutOffMass", fp.cutOffMass());
                json.put("residual", fp.residual());
                own.json().accept(json);
                Printer.printJson(out, json);
            }
            case csv -> {
                StringBuilder header = new StringBuilder("level,tail");
                for (Column c : own.columns()) {
                    header.append(',').append(c.header());
                }
                out.println(header);
                for (int i = 0; i < tail.length; i++) {
                    StringBuilder line = new StringBuilder(i + "," + Printer.csv(tail[i]));
                    for (Column c : own.columns()) {
                        line.append(',').append(c.cell().apply(i));
                    }
                    out.println(line);
                }
            }
            case table -> {
                out.println("Fixed point of " + fp.description() + ", lambda = " + fp.lambda()
                        + model.samplingLabel().map(l -> ", sampling " + l).orElse(""));
                out.println(summaryLine("mean queue length", Printer.number(fp.meanQueueLength())));
                own.state().forEach(out::println);
                out.println(summaryLine("levels kept K", fp.truncation() + " (cut-off mass "
                        + Printer.number(fp.cutOffMass()) + ")"));
                out.println(summaryLine("residual", Printer.number(fp.residual()) + own.residualNote()));
                own.notes().forEach(out::println);
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
                own.footer().accept(out);
            }
        }
    }
}
