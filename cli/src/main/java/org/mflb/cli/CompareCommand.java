package org.mflb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.refined.ExpansionUsability;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SeriesTerms;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.refined.TransientExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidResponseTime;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidTransient;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.QuantileEstimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationScenario;
import org.mflb.validation.Check;
import org.mflb.validation.Comparisons;
import org.mflb.validation.SimulationOf;
import org.mflb.validation.plot.Figure;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mflb compare}: the fluid prediction next to the simulated N-server system on the same
 * scenario, as an error table and a figure.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fluid prediction next to a simulation of the real N-server system on the same scenario:"
                + " an error table (max error, error in CI half-widths) and a figure.",
            "Steady state (no --dt): fixed point vs time-averaged simulated tail, log-scale plot.",
            "Transient (--t-end and --dt): x_i(t) predicted (lines) vs simulated (points with 95%% CI bars).",
            "The simulation samples as --sampling says (with replacement by default, the law of the fluid limit;"
                + " distinct: d distinct servers, against the exact finite-N drift of that algorithm).",
            "Tolerance of each check: 3 CI half-widths + 5/N (the fluid limit's O(1/N) finite-size bias); with"
                + " --refined, the refined mean field pi + V/N (+ A/N^2) is checked too, within 3 CI half-widths"
                + " + 5/N^2 (order 1) or + 5/N^3 (order 2), and drawn dashed; where the expansion's terms do not"
                + " decrease at N (|A|/N^2 >= |V|/N) its row is n/a (not applicable: neither pass nor fail) with a"
                + " warning. Levels are checked where the prediction or the simulation reaches 1e-4."
                + " --policy memory (SQ(d) with memory): 3 CI half-widths + 0.1/sqrt(N), with the shares of jobs"
                + " sent to idle and to believed-idle servers.",
            "--classes (steady state): the classes' fluid fixed point (and with --refined its 1/N terms) against"
                + " simulation, overall and per class (the allowance over the class's fraction). --policy ll (steady"
                + " state): the workload equilibrium's E[R], E[W], P(W = 0) = 1 - lambda^d and response-time quantiles"
                + " against the workload engine, within 3 CI half-widths + 5/N relative to the prediction."})
public final class CompareCommand implements Callable<Integer> {

    @Mixin
    ModelOptions model;

    @Mixin
    TruncationOptions truncation;

    @Option(names = "--replications", defaultValue = "8", paramLabel = "R",
            description = "Independent replications (default: ${DEFAULT-VALUE}).")
    int replications;

    @Mixin
    RandomStreamOptions streams;

    /** A steady-state comparison needs at least this many arrivals per replication after the warm-up. */
    static final int MIN_STEADY_ARRIVALS = 50;

    @Option(names = "--t-end", paramLabel = "T",
            description = "Simulated time: the transient's horizon, or the steady-state run length (default 1000).")
    Double tEnd;

    @Option(names = "--dt", paramLabel = "STEP", description = "Output spacing: makes this a transient comparison.")
    Double dt;

    @Option(names = "--warmup", paramLabel = "W", description = "Steady state: time discarded first (default: t-end/10).")
    Double warmup;

    @Option(names = "--init", paramLabel = "empty|fixed-point|tail:1,0.8,0.3|all:K|memory:Q/m=share,...",
            defaultValue = "empty",
            description = "Initial state of a transient (default: ${DEFAULT-VALUE}); --policy memory also takes"
                    + " (queue, observation) pairs, e.g. memory:0/3=1 (stale memory).")
    String init;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Write the figure here (.png or .svg).")
    Path plot;

    @Option(names = "--refined", description = "Also compare the refined mean field at the simulated N: x + V/N"
            + " (+ A/N^2 with --order 2), in the table and on the figure (random and sqd).")
    boolean refinedRequested;

    @Option(names = "--order", paramLabel = "1|2",
            description = "Order of the size expansion with --refined: 1 (terms in 1/N, default) or 2 (adds 1/N^2).")
    Integer order;

    @Mixin
    ProgressOptions progress;

    @Mixin
    WorkLimits limits;

    @Mixin
    PercentileOptions latency;

    @Option(names = "--format", paramLabel = "json|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Mixin
    ModelFileOptions modelFile;

    @Mixin
    WorkloadOptions workload;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (modelFile.given(spec)) {
            ModelFileOptions.allowOnly(spec, "--n", "--t-end", "--dt", "--warmup", "--replications", "--seed",
                    "--threads", "--plot", "--format", "--quiet");
            var file = modelFile.load();
            limits.check(spec, WorkLimits.modelFile("the fluid limit of " + file.name(), file, dt != null && tEnd != null ? tEnd : 0, true),
                    WorkLimits.modelFileSimulation("simulating " + file.name() + " with N = " + model.size(), file,
                            model.size() == null ? 0 : model.size(), tEnd != null ? tEnd : 1000, replications,
                            streams.threads()));
            return progress.step(spec, file.name() + " against simulation", () -> ModelFileComparison.compare(file,
                    model.size(), tEnd, dt, warmup, replications, plot, streams.seed(), streams.threads(), format,
                    spec.commandLine().getOut()));
        }
        if (dt == null) {
            model.requireConstantRate("a steady-state comparison (a rate profile: with --t-end and --dt)");
        }
        LoadBalancingModel lbm = model.model();
        if (lbm.policy() instanceof org.mflb.core.system.Policy.LeastLoaded) {
            return ModelComparison.leastLoaded(this, lbm);
        }
        if (lbm.hasClasses()) {
            return ModelComparison.classes(this, lbm);
        }
        workload.tolerance(lbm.policy());
        if (format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table for compare");
        }
        latency.percentiles();
        if (order != null && !refinedRequested) {
            throw MflbException.invalid("order", order, "omitted unless --refined is given");
        }
        if (refinedRequested) {
            model.requireSmooth(lbm);
        }
        RefinedMeanField solver = refinedRequested
                ? new RefinedMeanField(Require.between("order", order == null ? 1 : order, 1, RefinedMeanField.MAX_ORDER))
                : null;
        int servers = model.servers();
        boolean memory = model.policy == ModelOptions.PolicyName.memory;
        if (!memory) {
            model.requireSmooth(lbm);
        }
        boolean transientRun = dt != null;
        // the fluid of exponential service; loss pools: the fixed point is the same for every service law
        boolean insensitive = lbm.system().isLossy() && !transientRun && solver == null;
        if (!insensitive) {
            model.requireExponentialService(lbm, "compare except loss pools in a steady state without --refined"
                    + " (an insensitive fixed point)");
        }
        FluidModel fluid = model.fluidModel(lbm.withService(Exponential.unit()), truncation);
        MemoryState memoryStart = MemoryState.isMemoryForm(init) ? MemoryState.parse(init) : null;
        InitialState initial = memoryStart == null ? InitialState.parse(init) : null;
        if (memoryStart != null && !memory) {
            throw MflbException.invalid("init", init, "a tail vector, all:K, empty or fixed-point (memory: is for"
                    + " --policy memory)");
        }
        if (!transientRun && !"empty".equals(init)) {
            throw MflbException.invalid("init", init, "used only with --dt (a transient comparison; the steady state"
                    + " does not depend on the initial state)");
        }
        if (plot != null) {
            OutputPaths.requireWritableFile("plot", plot);
        }
        double horizon = tEnd != null ? tEnd : transientRun ? Double.NaN : 1000;
        if (transientRun && tEnd == null) {
            throw MflbException.missing("t-end", "with --dt (the transient's horizon)");
        }
        limits.check(spec, WorkLimits.fluid("the fluid limit", lbm, truncation.rule(), model.threshold,
                transientRun ? horizon : 0), WorkLimits.simulation("simulating N = " + servers
                        + " up to t = " + Printer.number(horizon), 2.0 * servers * lbm.arrivalRate().supremum(0, horizon)
                        * horizon * replications, horizon, replications, streams.threads()));
        // SQ(d) with memory is non-smooth: its finite-N error is of order 1/sqrt(N) (MemoryScenarios)
        Comparisons.Tolerance tolerance = memory ? new Comparisons.Tolerance(3, 0.1 / Math.sqrt(servers))
                : new Comparisons.Tolerance(3, 5.0 / servers);
        Comparisons.Tolerance refinedTolerance = solver == null ? null
                : new Comparisons.Tolerance(3, 5.0 / Math.pow(servers, solver.order() + 1));
        // The simulated system is the model: the same sampling (with replacement, the law of the fluid limit, or
        // d distinct servers, whose exact finite-N drift the fluid side then uses), arrival rate and service law.
        ScenarioBuilder scenario = SimulationScenario.builder().model(lbm).servers(servers)
                .tEnd(horizon).replications(replications).seed(streams.seed()).threads(streams.threads());
        if (warmup != null) {
            scenario.warmup(warmup);
        }
        ObjectNode extra = Printer.object();
        double lambda = lbm.arrivalRate().at(0);
        if (!transientRun) {
            // a steady-state average over a window holding a handful of arrivals measures nothing: its rows are 0 or NaN
            double window = horizon - (warmup != null ? warmup : horizon / 10);
            double arrivals = servers * lambda * window;
            if (!(arrivals >= MIN_STEADY_ARRIVALS)) {
                throw MflbException.invalid("t-end", horizon, String.format(java.util.Locale.ROOT, "long enough for at"
                        + " least %d arrivals per replication after the warm-up, N lambda (t-end - warm-up) = %.3g:"
                        + " t-end >= %.3g", MIN_STEADY_ARRIVALS, arrivals,
                        horizon * MIN_STEADY_ARRIVALS / Math.max(arrivals, Double.MIN_VALUE)));
            }
        }
        String title = fluid + ", " + model.loadLabel() + ", N = " + servers
                + model.samplingLabel().map(l -> ", sampling " + l).orElse("")
                + (model.serviceGiven() ? ", service " + lbm.service().spec() : "");
        List<Check> checks;
        FluidResponseTime response = null;
        Figure figure;
        SimulationResult sim;
        if (transientRun) {
            TimeGrid grid = TimeGrid.uniform(horizon, dt);
            FluidTransient tr = memoryStart != null ? fluid.transientFrom(memoryStart, grid) : fluid.transientFrom(initial, grid);
            // as transient --refined: x(t), V(t) and the 1/N² terms integrated from the same start (order 2
            // always: its terms say where the expansion is usable, SeriesTerms)
            TransientExpansion expansion = solver == null ? null : withTerms(solver, tr.truncation()).transientRegime(
                    tr.smoothDrift().orElseThrow(), tr.state(0), grid.start(), grid.toArray());
            scenario.dt(dt);
            if (memoryStart != null) {
                scenario.initialMemory(memoryStart);
            } else {
                scenario.initialState(SimulationOf.initialState(initial, tr.tail(0)));
            }
            sim = progress.simulate(spec, scenario.build());
            double[] times = sim.times();
            double[][] predicted = new double[times.length][];
            for (int k = 0; k < times.length; k++) {
                predicted[k] = tr.tail(Math.min(times[k], horizon));
            }
            checks = new ArrayList<>(Comparisons.transientTails("", times, predicted, sim, tolerance));
            double[] lineTimes = Comparisons.fineTimes(horizon, 400);
            double[][] line = new double[lineTimes.length][];
            for (int k = 0; k < lineTimes.length; k++) {
                line[k] = tr.tail(lineTimes[k]);
            }
            figure = Comparisons.transientFigure(title, lineTimes, line, sim, 6);
            if (expansion != null) {
                // the expansion is on the grid, which is the simulation's
                int steps = Math.min(times.length, expansion.timeCount());
                double[] refinedTimes = Arrays.copyOf(times, steps);
                double[][] refinedTails = new double[steps][];
                for (int k = 0; k < steps; k++) {
                    refinedTails[k] = RefinedOptions.withLevelZero(expansion.mean(k, servers, solver.order()), 1.0);
                }
                checks.addAll(Comparisons.transientTails(refinedLabel(solver.order()), refinedTimes, refinedTails, sim,
                        refinedTolerance, (k, i) -> expansion.order() < 2 || i > expansion.dimension()
                                ? ExpansionUsability.tailVector(servers, expansion.mean(k, servers, solver.order()))
                                : SeriesTerms.of(servers, expansion.meanField(k)[i - 1],
                                        expansion.firstOrderTerm(k)[i - 1], expansion.secondOrderTerm(k)[i - 1])
                                        .notUsable()));
                Comparisons.dashedTransientLines(figure, refinedTimes, line, refinedTails, refinedLabel(solver.order()), 6);
            }
        } else {
            FluidFixedPoint fp = fluid.fixedPoint();
            // order 2 always: its terms say where the expansion is usable (SeriesTerms); the prediction is of
            // the order asked for
            SteadyStateExpansion expansion = solver == null ? null
                    : RefinedOptions.steadyState(withTerms(solver, fp.truncation()), fluid, fp);
            if (fluid.system().kind() == ServerSystem.Kind.SUPERMARKET) {
                scenario.percentiles(latency.percentiles().values());
            }
            sim = progress.simulate(spec, scenario.build());
            List<Check> steady = new ArrayList<>(Comparisons.steadyState("", fp.tail(), fp.meanQueueLength(), sim, tolerance));
            checks = steady;
            fp.memory().ifPresent(m -> {
                steady.add(check("idle share", m.idleShare(), sim.idleArrivalFraction(), tolerance));
                steady.add(check("believed-idle share", m.believedIdleShare(),
                        sim.policyStatistics().get("believedIdleShare"), tolerance));
                extra.put("memoryLevel", m.memoryLevel());
                extra.put("maxQueueLength", m.maxQueueLength());
                extra.put("idleShare", m.idleShare());
                extra.put("believedIdleShare", m.believedIdleShare());
            });
            response = fluid.responseTime(fp);
            FluidResponseTime law = response;
            // queues: the simulated mean response time against the fluid's E[T] (the mean queue length's
            // allowance over λ, by Little's law)
            sim.meanResponseTime().filter(e -> fluid.system().kind() == ServerSystem.Kind.SUPERMARKET).ifPresent(e ->
                    steady.add(Check.of("E[T]", law.mean(), e.mean(), e.ci95Low(), e.ci95High(),
                            tolerance.halfWidths() * e.halfWidth(), tolerance.bias() / lambda)));
            // and its quantiles (the simulator's conditional estimator for exponential service, per job
            // otherwise), with the bias allowance relative to the quantile
            for (QuantileEstimate q : sim.responseTimeQuantiles()) {
                double predicted = law.quantile(q.p() / 100);
                Estimate e = q.estimate();
                steady.add(Check.of("T p" + PercentileOptions.label(q.p()), predicted, e.mean(), e.ci95Low(),
                        e.ci95High(), tolerance.halfWidths() * e.halfWidth(), tolerance.bias() * predicted));
            }
            figure = Comparisons.steadyStateFigure(title, "fluid fixed point", fp.tail(), sim);
            if (expansion != null) {
                int refinedOrder = solver.order();
                double[] tail = RefinedOptions.withLevelZero(expansion.mean(servers, refinedOrder), 1.0);
                double refinedMean = expansion.meanTotal(servers, refinedOrder);
                IntFunction<Optional<String>> notUsable = i -> expansion.order() < 2
                        ? ExpansionUsability.tailVector(servers, expansion.mean(servers, refinedOrder))
                        : (i == 0 ? SeriesTerms.ofTotal(expansion, servers)
                                : i <= expansion.dimension() ? SeriesTerms.of(expansion, servers, i - 1)
                                : SeriesTerms.of(servers, 0, 0, 0)).notUsable();
                checks.addAll(Comparisons.steadyState(refinedLabel(refinedOrder), tail, refinedMean, sim,
                        refinedTolerance, notUsable));
                // Little's law holds at every N: the refined E[T] is the refined mean queue length over λ
                sim.meanResponseTime().filter(e -> fluid.system().kind() == ServerSystem.Kind.SUPERMARKET).ifPresent(e ->
                        checks.add(Check.of(refinedLabel(refinedOrder) + "E[T]", refinedMean / lambda, e.mean(),
                                e.ci95Low(), e.ci95High(), refinedTolerance.halfWidths() * e.halfWidth(),
                                refinedTolerance.bias() / lambda).unless(notUsable.apply(0))));
                // drawn down to the fluid line's floor (1e-9), like the fixed point: the log axis stays readable
                int drawn = 1;
                while (drawn < tail.length && tail[drawn] > 1e-9) {
                    drawn++;
                }
                figure.dashedLine(refinedOrder == 1 ? "refined, x + V/N" : "refined, x + V/N + A/N^2", 0,
                        levels(drawn), Arrays.copyOf(tail, drawn));
            }
        }
        print(title, checks, sim, tolerance, refinedTolerance, extra, response); // the numbers first: a failing figure must not lose them
        if (plot != null) {
            figure.save(plot);
        }
        return 0;
    }

    /**
     * @return the solver that also gives the 1/N² terms, which say where the expansion is usable
     *         (order 2), unless {@code levels} is too many for order 2: then {@code asked}, whose rows are
     *         judged by the tail-vector test alone
     */
    private static RefinedMeanField withTerms(RefinedMeanField asked, int levels) {
        return levels <= RefinedOptions.maxDimension(2) ? new RefinedMeanField(2) : asked;
    }

    /** @return the prefix of the refined mean field's checks */
    private static String refinedLabel(int order) {
        return order == 1 ? "refined 1/N: " : "refined 1/N^2: ";
    }

    private static double[] levels(int count) {
        double[] x = new double[count];
        for (int i = 0; i < count; i++) {
            x[i] = i;
        }
        return x;
    }

    private static Check check(String quantity, double predicted, Estimate e, Comparisons.Tolerance tolerance) {
        return tolerance.check(quantity, predicted, e);
    }

    /**
     * Prints the checks; {@code extra} holds the fluid's own keys (SQ(d) with memory, steady state:
     * {@code memoryLevel}, {@code maxQueueLength}, {@code idleShare}, {@code believedIdleShare}), and
     * {@code response} the fluid's response-time law (steady state) or null.
     */
    private void print(String title, List<Check> checks, SimulationResult sim, Comparisons.Tolerance tolerance,
            Comparisons.Tolerance refinedTolerance, ObjectNode extra, FluidResponseTime response) {
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormat.json) {
            ObjectNode json = Printer.object();
            json.put("title", title);
            json.put("tolerance", tolerance.toString());
            if (sim.scenario().model().policy().samples()) {
                json.put("sampling", sim.scenario().model().policy().sampling().id());
            }
            if (refinedTolerance != null) {
                json.put("refinedOrder", order == null ? 1 : order);
                json.put("refinedTolerance", refinedTolerance.toString());
            }
            json.put("events", sim.events());
            json.put("eventsPerSecond", sim.eventsPerSecond());
            json.setAll(extra);
            json.setAll(CheckPrinter.json(checks));
            if (response != null) {
                latency.putResponse(json, response);
            }
            if (plot != null) {
                json.put("plot", plot.toString());
            }
            Printer.printJson(out, json);
            return;
        }
        out.println("Compare: " + title);
        out.println(String.format(Locale.ROOT, "  simulation: %d replications, %,d events (%.3g events/s)",
                replications, sim.events(), sim.eventsPerSecond()));
        out.println("  tolerance per check: " + tolerance + (refinedTolerance == null ? ""
                : "; refined mean field: " + refinedTolerance));
        extra.fields().forEachRemaining(e -> out.println("  " + e.getKey() + " (fluid): " + e.getValue().asText()));
        out.println();
        CheckPrinter.table(out, checks);
        if (response != null) {
            out.println("fluid response time: " + latency.summary(response));
        }
        if (plot != null) {
            out.println("figure: " + plot);
        }
    }
}
