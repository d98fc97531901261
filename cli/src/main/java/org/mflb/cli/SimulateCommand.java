package org.mflb.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.WorkEstimate;
import org.mflb.core.model.MemoryState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.simulation.Engine;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.IntervalDiagnostics;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.simulation.QuantileEstimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;
import org.mflb.simulation.VectorEstimate;
import org.mflb.simulation.dispatch.LevelJump;

import org.mflb.core.system.ServerSystem;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code mflb simulate}: Monte Carlo simulation of the real N-server system (issue 3), a thin shell
 * over {@link Simulator}. The option names and JSON keys are a stable contract.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Simulates the real system of N servers (pools) with the dispatcher's actual algorithm:"
                + " time-averaged tail vector and queue length after a warm-up, response times, blocking, and"
                + " with --dt the tail vector on a time grid; 95%% confidence intervals over replications"
                + " (or batch means for one replication).")
public final class SimulateCommand implements Callable<Integer>, WorkLimits.Sized {

    /** Tail levels shown by the table format. */
    static final int TABLE_LEVELS = 10;

    @Mixin
    ModelOptions model;

    @Option(names = "--init", paramLabel = "empty|tail:1,0.8,0.3|all:K|memory:Q/m=share,...", defaultValue = "empty",
            description = "Initial state (default: ${DEFAULT-VALUE}); a tail lists x_0 = 1, x_1, ... and is rounded"
                    + " to floor(N x_i + 1/2) servers with >= i jobs. --policy memory also takes (queue,"
                    + " observation) pairs, e.g. memory:0/3=1 (idle servers believed to hold 3 jobs), rounded to"
                    + " whole servers by largest remainders.")
    String init;

    @Option(names = "--t-end", required = true, paramLabel = "T", description = "Simulated time horizon.")
    double tEnd;

    @Option(names = "--warmup", paramLabel = "W",
            description = "Time discarded before the time averages (default: T/10, or 0 with --dt).")
    Double warmup;

    @Option(names = "--dt", paramLabel = "STEP",
            description = "Also record the tail vector at 0, STEP, 2 STEP, ... <= T (a transient run: any load allowed).")
    Double dt;

    @Option(names = "--replications", paramLabel = "R", defaultValue = "1",
            description = "Independent replications (default: ${DEFAULT-VALUE}; with 1, batch means give the intervals).")
    int replications;

    @Mixin
    RandomStreamOptions streams;

    @Option(names = "--batches", paramLabel = "B", defaultValue = "20",
            description = "Batches for batch means with one replication (default: ${DEFAULT-VALUE}).")
    int batches;

    @Option(names = "--covariance-levels", paramLabel = "K", defaultValue = "0",
            description = "Also estimate the stationary N Cov(X_i, X_j), 1 <= i, j <= K (default: none).")
    int covarianceLevels;

    @Option(names = "--event-calendar",
            description = "Use the general-service event calendar even for exponential service (a cross-check).")
    boolean eventCalendar;

    @Option(names = "--engine", paramLabel = "auto|agent|occupancy|workload", defaultValue = "auto",
            description = "Simulation engine (default: ${DEFAULT-VALUE}): agent keeps every server and job (any service"
                    + " law, every policy but ll); occupancy keeps only the counts per level (exponential service, every"
                    + " policy but memory and ll); workload keeps the epoch at which each server empties (policy ll"
                    + " only, any service law, O(d) per job); auto takes workload for ll, else occupancy where it is"
                    + " exact, else agent.")
    String engine;

    @Option(names = "--percentiles", split = ",", paramLabel = "P", defaultValue = "50,90,99,99.9",
            description = "Response-time percentiles in (0, 100) to estimate, single-server queues"
                    + " (default: ${DEFAULT-VALUE}). Exponential service: the conditional estimator, and in a"
                    + " steady-state run (no --dt) also the same with the busy fraction x_1 as control variate"
                    + " (its stationary mean lambda E[S] is exact): several times narrower intervals.")
    double[] percentiles;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
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

    /** @return the scenario the options describe, validated */
    SimulationScenario scenario() {
        ScenarioBuilder b = SimulationScenario.builder().model(model.model()).servers(model.servers())
                .eventCalendar(eventCalendar).tEnd(tEnd).replications(replications).seed(streams.seed())
                .threads(streams.threads()).batches(batches).covarianceLevels(covarianceLevels)
                .engine(Engine.parse(engine)).percentiles(percentiles);
        if (MemoryState.isMemoryForm(init)) {
            b.initialMemory(MemoryState.parse(init));
        } else {
            b.initialState(InitialState.parse(init));
        }
        if (warmup != null) {
            b.warmup(warmup);
        }
        if (dt != null) {
            if (!(dt > 0)) {
                throw MflbException.invalid("dt", dt, "a number > 0");
            }
            b.dt(dt);
        }
        return b.build();
    }

    /** @return {@code value} if it is one of {@code names}, else an error naming {@code parameter} and the names */
    private static String oneOf(String parameter, String value, String... names) {
        if (!java.util.Arrays.asList(names).contains(value)) {
            throw MflbException.invalid(parameter, value, "one of " + String.join("|", names));
        }
        return value;
    }

    private WorkEstimate estimate(org.mflb.core.modelfile.ModelFile file) {
        int n = model.servers();
        return WorkLimits.modelFileSimulation("simulating " + file.name() + " with N = " + n, file, n, tEnd,
                replications, streams.threads());
    }

    private static WorkEstimate estimate(SimulationScenario sc) {
        return WorkLimits.simulation("simulating N = " + sc.run().servers() + " up to t = "
                + Printer.number(sc.run().tEnd()), sc.expectedEvents(), sc.run().tEnd(), sc.run().replications(),
                sc.run().threads());
    }

    @Override
    public WorkEstimate estimate() {
        return modelFile.given(spec) ? estimate(modelFile.load()) : estimate(scenario());
    }

    @Override
    public Integer call() {
        if (replications > 1 && spec.commandLine().getParseResult().hasMatchedOption("--batches")) {
            throw new ParameterException(spec.commandLine(), "--batches cannot be used with --replications "
                    + replications + ": batch means split one replication; R > 1 replications give the intervals");
        }
        if (modelFile.given(spec)) {
            ModelFileOptions.allowOnly(spec, "--n", "--t-end", "--warmup", "--dt", "--replications", "--seed",
                    "--threads", "--batches", "--format", "--quiet");
            double w = warmup != null ? warmup : dt != null ? 0.0 : tEnd / 10;
            int n = model.servers();
            var file = modelFile.load();
            limits.check(spec, estimate(file));
            var settings = new org.mflb.simulation.population.PopulationSimulation.Settings(n, tEnd, w,
                    dt != null ? dt : Double.NaN, replications, batches, streams.seed(), streams.threads());
            return progress.step(spec, "simulating " + file.name() + " with N = " + n,
                    () -> ModelFileSimulation.simulate(file, settings, format, spec.commandLine().getOut()));
        }
        SimulationScenario sc = scenario();
        if (sc.model().system().kind() != ServerSystem.Kind.SUPERMARKET
                && spec.commandLine().getParseResult().hasMatchedOption("--percentiles")) {
            throw new ParameterException(spec.commandLine(), "--percentiles cannot be used with --system "
                    + sc.model().system().name() + ": response-time percentiles are estimated for single-server queues"
                    + " (a pool serves each job at once: its response time is the service time)");
        }
        if (dt == null) {
            LeastLoadedAnalysis.requireFiniteMeanInSteadyState(sc.model());
        }
        limits.check(spec, estimate(sc));
        PrintWriter err = spec.commandLine().getErr();
        SimulationResult r = progress.simulate(spec, sc);
        PrintWriter out = spec.commandLine().getOut();
        List<String> warnings = IntervalDiagnostics.warnings(r);
        for (String w : warnings) {
            err.println("mflb: warning: " + w);
        }
        switch (format) {
            case json -> {
                ObjectNode json = json(sc, r);
                ArrayNode list = json.putArray("warnings");
                warnings.forEach(list::add);
                Printer.printJson(out, json);
            }
            case csv -> csv(out, sc, r);
            case table -> table(out, sc, r);
        }
        return 0;
    }

    private static ObjectNode estimate(Estimate e) {
        ObjectNode node = Printer.object();
        Printer.put(node, "mean", e.mean());
        node.set("ci95", Printer.array(new double[] {e.ci95Low(), e.ci95High()}));
        return node;
    }

    private static ObjectNode vector(VectorEstimate v) {
        ObjectNode node = Printer.object();
        node.set("mean", Printer.array(v.mean()));
        node.set("ci95Low", Printer.array(v.ci95Low()));
        node.set("ci95High", Printer.array(v.ci95High()));
        return node;
    }

    private static ArrayNode quantiles(List<QuantileEstimate> qs) {
        ArrayNode array = Printer.object().arrayNode();
        for (QuantileEstimate q : qs) {
            ObjectNode o = array.addObject();
            Printer.put(o, "p", q.p());
            Printer.put(o, "mean", q.estimate().mean());
            Printer.put(o, "ci95Low", q.estimate().ci95Low());
            Printer.put(o, "ci95High", q.estimate().ci95High());
        }
        return array;
    }

    private ObjectNode json(SimulationScenario sc, SimulationResult r) {
        ObjectNode json = Printer.object();
        LoadBalancingModel simulated = sc.model();
        json.put("system", simulated.system().name());
        json.put("policy", simulated.policy().id());
        if (simulated.policy().samples()) {
            json.put("d", simulated.policy().d());
            json.put("sampling", simulated.policy().sampling().id());
        }
        if (simulated.system().isLossy()) {
            json.put("capacity", simulated.system().capacity());
        }
        if (model.lambdaProfile != null) {
            json.put("lambdaProfile", model.lambdaProfile.toString());
        } else {
            json.put("lambda", model.lambda);
        }
        json.put("n", sc.run().servers());
        json.put("service", simulated.service().spec());
        json.put("init", sc.run().initialMemory() != null ? sc.run().initialMemory().toString()
                : sc.run().initialState().toString());
        json.put("tEnd", sc.run().tEnd());
        json.put("warmup", sc.run().warmup());
        json.put("replications", sc.run().replications());
        json.put("seed", sc.run().seed());
        json.put("engine", r.engine().cliName());
        json.put("generator", r.generator());
        json.put("confidenceMethod", r.confidenceMethod());
        json.set("meanQueueLength", estimate(r.meanQueueLength()));
        if (!r.classes().isEmpty()) {
            com.fasterxml.jackson.databind.node.ArrayNode perClass = json.putArray("classes");
            for (org.mflb.simulation.ClassEstimate c : r.classes()) {
                ObjectNode o = perClass.addObject();
                o.put("fraction", c.fraction());
                o.put("speed", c.speed());
                o.put("servers", c.servers());
                o.set("meanQueueLength", estimate(c.meanQueueLength()));
                o.set("meanResponseTime", estimate(c.meanResponseTime()));
            }
        }
        json.set("tail", vector(r.tail().asFractions()));
        r.meanResponseTime().ifPresent(e -> json.set("meanResponseTime", estimate(e)));
        r.meanWaitingTime().ifPresent(e -> json.set("meanWaitingTime", estimate(e)));
        if (!r.responseTimeQuantiles().isEmpty()) {
            json.set("responseTimeQuantiles", quantiles(r.responseTimeQuantiles()));
            json.put("responseTimeQuantileMethod", r.responseTimeQuantileMethod());
            r.controlVariateResponseTimeQuantiles()
                    .ifPresent(q -> json.set("controlVariateResponseTimeQuantiles", quantiles(q)));
            if (r.conditionalResponseTimeQuantiles().isPresent()) {
                r.perJobResponseTimeQuantiles().ifPresent(q -> json.set("perJobResponseTimeQuantiles", quantiles(q)));
            }
        }
        r.blocking().ifPresent(e -> json.set("blocking", estimate(e.asFraction())));
        json.set("idleArrivalFraction", estimate(r.idleArrivalFraction().asFraction()));
        json.set("arrivalRate", estimate(r.arrivalRate()));
        if (sc.observation().hasGrid()) {
            json.set("t", Printer.array(r.times()));
            List<VectorEstimate> traj = r.tailTrajectory();
            double[][] mean = new double[traj.size()][];
            double[][] lo = new double[traj.size()][];
            double[][] hi = new double[traj.size()][];
            for (int k = 0; k < traj.size(); k++) {
                mean[k] = traj.get(k).mean();
                lo[k] = traj.get(k).asFractions().ci95Low();
                hi[k] = traj.get(k).asFractions().ci95High();
            }
            ObjectNode t = Printer.object();
            t.set("mean", Printer.matrix(mean));
            t.set("ci95Low", Printer.matrix(lo));
            t.set("ci95High", Printer.matrix(hi));
            json.set("tailTrajectory", t);
        }
        r.covariance().ifPresent(c -> {
            ObjectNode cov = Printer.object();
            cov.set("mean", Printer.matrix(c.mean()));
            cov.set("ci95HalfWidth", Printer.matrix(c.halfWidth()));
            json.set("covariance", cov);
        });
        boolean thresholdPolicy = simulated.policy() instanceof Policy.Threshold
                || simulated.policy() instanceof Policy.AdaptiveThreshold;
        if (thresholdPolicy || !r.jumps().isEmpty()) {
            ArrayNode jumps = json.putArray("thresholdJumps");
            for (LevelJump j : r.jumps()) {
                ObjectNode o = jumps.addObject();
                o.put("t", j.t());
                o.put("from", j.from());
                o.put("to", j.to());
            }
        }
        Map<String, Estimate> stats = r.policyStatistics();
        if (stats.containsKey("meanThreshold")) {
            json.set("meanThreshold", estimate(stats.get("meanThreshold")));
        }
        if (!stats.isEmpty()) {
            ObjectNode ps = json.putObject("policyStatistics");
            stats.forEach((name, e) -> ps.set(name, estimate(e)));
        }
        json.put("events", r.events());
        Printer.put(json, "eventsPerSecond", r.eventsPerSecond());
        return json;
    }

    private static void csv(PrintWriter out, SimulationScenario sc, SimulationResult r) {
        if (sc.observation().hasGrid()) {
            // the trajectory, one row per (time, level)
            out.println("t,level,mean,ci95Low,ci95High");
            double[] times = r.times();
            for (int k = 0; k < times.length; k++) {
                VectorEstimate v = r.tailTrajectory().get(k).asFractions();
                for (int i = 0; i < v.size(); i++) {
                    Estimate e = v.get(i);
                    out.println(Printer.csv(times[k]) + "," + i + "," + Printer.csv(e.mean()) + ","
                            + Printer.csv(e.ci95Low()) + "," + Printer.csv(e.ci95High()));
                }
            }
            return;
        }
        out.println("quantity,mean,ci95Low,ci95High");
        row(out, "meanQueueLength", r.meanQueueLength());
        r.meanResponseTime().ifPresent(e -> row(out, "meanResponseTime", e));
        r.meanWaitingTime().ifPresent(e -> row(out, "meanWaitingTime", e));
        for (QuantileEstimate q : r.responseTimeQuantiles()) {
            row(out, "responseTimeP" + Printer.number(q.p()), q.estimate());
        }
        r.controlVariateResponseTimeQuantiles().ifPresent(qs -> qs.forEach(q -> row(out,
                "controlVariateResponseTimeP" + Printer.number(q.p()), q.estimate())));
        r.blocking().ifPresent(e -> row(out, "blocking", e.asFraction()));
        row(out, "idleArrivalFraction", r.idleArrivalFraction().asFraction());
        row(out, "arrivalRate", r.arrivalRate());
        r.policyStatistics().forEach((name, e) -> row(out, name, e));
        for (int i = 0; i < r.tail().size(); i++) {
            row(out, "x" + i, r.tail().get(i).asFraction());
        }
    }

    private static void row(PrintWriter out, String name, Estimate e) {
        out.println(name + "," + Printer.csv(e.mean()) + "," + Printer.csv(e.ci95Low()) + "," + Printer.csv(e.ci95High()));
    }

    private static String interval(Estimate e) {
        if (Double.isNaN(e.mean())) {
            return "none  (nothing observed in the measured window: no job completed, or no arrival)";
        }
        if (Double.isNaN(e.ci95Low())) {
            return Printer.number(e.mean()) + "  (no interval: one observation)";
        }
        return Printer.number(e.mean()) + "  95% CI [" + Printer.number(e.ci95Low()) + ", "
                + Printer.number(e.ci95High()) + "]";
    }

    private static void table(PrintWriter out, SimulationScenario sc, SimulationResult r) {
        Policy policy = sc.model().policy();
        out.println("Simulation of " + sc.run().servers() + " " + sc.model().system().name() + " servers, policy "
                + policy.id() + (policy.samples() ? " (d = " + policy.d() + ", sampling " + samplingLabel(sc)
                        + ")" : "") + ", service " + sc.model().service().spec());
        out.println("  t-end " + Printer.number(sc.run().tEnd()) + ", warm-up " + Printer.number(sc.run().warmup()) + ", "
                + sc.run().replications() + " replication(s), intervals by " + r.confidenceMethod() + ", seed "
                + sc.run().seed()
                + ", " + r.engine().cliName() + " engine");
        out.println(String.format(java.util.Locale.ROOT, "  %d events, %.2f million events/s", r.events(), r.eventsPerSecond() / 1e6));
        out.println();
        out.println("mean queue length      " + interval(r.meanQueueLength()));
        for (org.mflb.simulation.ClassEstimate c : r.classes()) {
            out.println("  class " + Printer.number(c.fraction()) + ":" + Printer.number(c.speed()) + " (" + c.servers()
                    + " servers)  E[Q_k] " + interval(c.meanQueueLength()) + ", E[R_k] " + interval(c.meanResponseTime()));
        }
        r.meanResponseTime().ifPresent(e -> out.println("mean response time     " + interval(e)));
        r.meanWaitingTime().ifPresent(e -> out.println("mean waiting time      " + interval(e)));
        for (QuantileEstimate q : r.responseTimeQuantiles()) {
            out.println(String.format("%-22s %s", "response time p" + Printer.number(q.p()), interval(q.estimate())));
        }
        if (!r.responseTimeQuantiles().isEmpty()) {
            out.println("  (quantiles by the " + r.responseTimeQuantileMethod() + " estimator)");
            r.controlVariateResponseTimeQuantiles().ifPresent(qs -> {
                qs.forEach(q -> out.println(String.format("%-22s %s", "  x_1 control p" + Printer.number(q.p()),
                        interval(q.estimate()))));
                out.println("  (the conditional estimator with the busy fraction x_1 as control variate, E[x_1] = "
                        + Printer.number(sc.stationaryBusyFraction().orElseThrow()) + ")");
            });
            if (r.conditionalResponseTimeQuantiles().isPresent()) {
                r.perJobResponseTimeQuantiles().ifPresent(qs -> qs.forEach(q -> out.println(String.format("%-22s %s",
                        "  per job p" + Printer.number(q.p()), interval(q.estimate())))));
            }
        }
        r.blocking().ifPresent(e -> out.println("blocking probability   " + interval(e.asFraction())));
        out.println("sent to idle servers   " + interval(r.idleArrivalFraction().asFraction()));
        r.policyStatistics().forEach((name, e) -> out.println(String.format("%-22s %s", name, interval(e))));
        out.println();
        int levels = Math.min(TABLE_LEVELS, r.tail().size() - 1);
        Printer.Table tail = new Printer.Table("i", "x_i", "95% low", "95% high");
        for (int i = 1; i <= levels; i++) {
            Estimate e = r.tail().get(i).asFraction();
            tail.row(Integer.toString(i), Printer.number(e.mean()), Printer.number(e.ci95Low()),
                    Printer.number(e.ci95High()));
        }
        tail.print(out);
        if (levels < r.tail().size() - 1) {
            out.println("  (levels beyond x_" + levels + " with --format csv or json)");
        }
        if (sc.observation().hasGrid()) {
            out.println();
            int cols = Math.min(6, r.tailTrajectory().get(0).size() - 1);
            String[] header = new String[2 + cols];
            header[0] = "t";
            header[1] = "mean queue";
            for (int i = 1; i <= cols; i++) {
                header[1 + i] = "x_" + i;
            }
            Printer.Table traj = new Printer.Table(header);
            double[] times = r.times();
            for (int k = 0; k < times.length; k++) {
                double[] x = r.tailTrajectory().get(k).mean();
                double q = 0;
                for (int i = 1; i < x.length; i++) {
                    q += x[i];
                }
                String[] row = new String[header.length];
                row[0] = Printer.number(times[k]);
                row[1] = Printer.number(q);
                for (int i = 1; i <= cols; i++) {
                    row[1 + i] = Printer.number(x[i]);
                }
                traj.row(row);
            }
            traj.print(out);
        }
        r.covariance().ifPresent(c -> printCovariance(out, c));
    }

    /** @return {@code with replacement} or {@code distinct}, as the headers of every command name the sampling */
    static String samplingLabel(SimulationScenario sc) {
        return sc.model().policy().sampling() == Sampling.REPLACEMENT ? "with replacement" : "distinct servers";
    }

    private static void printCovariance(PrintWriter out, MatrixEstimate c) {
        out.println();
        out.println("N Cov(X_i, X_j), i, j = 1.." + c.dimension());
        double[][] m = c.mean();
        for (double[] row : m) {
            StringBuilder line = new StringBuilder(" ");
            for (double v : row) {
                line.append(' ').append(Printer.number(v));
            }
            out.println(line);
        }
    }
}
