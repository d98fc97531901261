package org.mflb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.fluid.diffusion.HalfinWhittJsq;
import org.mflb.fluid.diffusion.HalfinWhittStatistics;
import org.mflb.fluid.diffusion.HalfinWhittTransient;
import org.mflb.simulation.Estimate;
import org.mflb.validation.HalfinWhittStudy;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code mflb diffusion --policy jsq --regime halfin-whitt}: the Halfin–Whitt diffusion of JSQ, its
 * exact prelimits and the simulated system (docs/models.md §9). A mode of {@link DiffusionCommand}:
 * these are its own options (a mixin), the common ones ({@code --n N,N,...}, {@code --seed},
 * {@code --threads}, {@code --long}, {@code --plot}, {@code --format}, {@code --quiet}) are the
 * command's.
 */
public final class HalfinWhittMode {

    /** The regime of {@code --regime}. */
    static final String HALFIN_WHITT = "halfin-whitt";

    /** The figure of E[X2^N] against N without {@code --plot}. */
    static final String DEFAULT_PLOT = "halfin-whitt.png";

    /** The options of the common ones that this mode uses, besides its own. */
    private static final List<String> COMMON = List.of("--policy", "--system", "--n", "--seed", "--threads", "--long",
            "--plot", "--format", "--quiet", "--debug");

    @Option(names = "--regime", paramLabel = "halfin-whitt",
            description = "Scaling regime: halfin-whitt (JSQ, lambda_N = 1 - beta/sqrt(N), supermarket, exp(1) service),"
                    + " with the options below and --n N,N,...")
    String regime;

    @Option(names = "--beta", paramLabel = "B", description = "--regime halfin-whitt: beta in [0.05, 50] (required).")
    Double beta;

    @Option(names = "--tolerance", defaultValue = "1e-6", paramLabel = "EPS",
            description = "--regime halfin-whitt: target error of the limit's moments, in [1e-9, 0.1]"
                    + " (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--tail-points", split = ",", paramLabel = "X,X,...", defaultValue = "0.5,1,2,3,4,6,8,10",
            description = "--regime halfin-whitt: points x of the tails P(X2 > x), P(X1 < -x), rounded to multiples"
                    + " of 0.05 (default: ${DEFAULT-VALUE}).")
    double[] tailPoints;

    @Option(names = "--events", defaultValue = "2e7", paramLabel = "E",
            description = "--regime halfin-whitt: simulated events per N (about: each replication runs at least 50"
                    + " time units after its warm-up), 0 for no simulation (default: ${DEFAULT-VALUE}; --long: 10x).")
    double events;

    @Option(names = "--replications", defaultValue = "8", paramLabel = "R",
            description = "--regime halfin-whitt: replications per N, each from one job per server, warm-up"
                    + " 20/min(1, beta)^2 (default: ${DEFAULT-VALUE}).")
    int replications;

    @Option(names = "--transient", split = ",", paramLabel = "X1,X2",
            description = "--regime halfin-whitt: also the transient E X1(t), E X2(t) from X(0) = (X1, X2): the"
                    + " diffusion (lattice forward equations extrapolated in h) and the exact chain for each N <= 1600.")
    double[] transientStart;

    @Option(names = "--t-end", defaultValue = "5", paramLabel = "T",
            description = "--regime halfin-whitt: horizon of --transient, in (0, 20] (default: ${DEFAULT-VALUE}).")
    double tEnd;

    @Option(names = "--dt", defaultValue = "0.5", paramLabel = "DT",
            description = "--regime halfin-whitt: output step of --transient (default: ${DEFAULT-VALUE}).")
    double dt;

    /** This mixin's own model: its options. */
    @Spec
    CommandSpec options;

    /** Largest N of the transient chain. */
    static final int TRANSIENT_MAX_N = 1600;

    /** @return whether the command line asks for this mode ({@code --regime}) */
    boolean requested() {
        return regime != null;
    }

    /**
     * Without {@code --regime}: refuses the options of this mode.
     *
     * @param spec the diffusion command
     */
    void refuseOptions(CommandSpec spec) {
        Set<String> own = new TreeSet<>();
        options.options().forEach(o -> own.add(o.longestName()));
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (own.contains(o.longestName())) {
                throw new ParameterException(spec.commandLine(), o.longestName() + " is used only with --regime "
                        + HALFIN_WHITT);
            }
        }
    }

    /**
     * Runs the study.
     *
     * @param diffusion the command, with the common options
     * @return the exit code
     */
    int run(DiffusionCommand diffusion) {
        CommandSpec spec = diffusion.spec;
        Set<String> allowed = new TreeSet<>(COMMON);
        options.options().forEach(o -> allowed.add(o.longestName()));
        OptionRules.allowOnly(spec, "--regime " + HALFIN_WHITT, allowed);
        if (!regime.equals(HALFIN_WHITT)) {
            throw MflbException.invalid("regime", regime, HALFIN_WHITT);
        }
        ModelOptions modelOptions = diffusion.model;
        if (modelOptions.policy == null) {
            throw MflbException.missing("policy", "(jsq) with --regime halfin-whitt");
        }
        if (modelOptions.policy != ModelOptions.PolicyName.jsq) {
            throw MflbException.invalid("policy", modelOptions.policy.cliName(), "jsq with --regime halfin-whitt");
        }
        if (modelOptions.system != null && modelOptions.system != ModelOptions.SystemName.supermarket) {
            throw MflbException.invalid("system", modelOptions.system, "supermarket with --regime halfin-whitt");
        }
        int[] servers = modelOptions.sizes();
        if (servers == null) {
            throw MflbException.missing("n", "(N,N,...) with --regime halfin-whitt");
        }
        if (beta == null) {
            throw MflbException.missing("beta", "(a number in [0.05, 50]) with --regime halfin-whitt");
        }
        OutputFormat format = diffusion.format;
        if (format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table for diffusion");
        }
        Path plot = diffusion.plot != null ? diffusion.plot : Path.of(DEFAULT_PLOT);
        String name = plot.getFileName().toString();
        if (!name.endsWith(".png")) {
            throw MflbException.invalid("plot", plot, "a file name ending in .png");
        }
        Path tails = plot.resolveSibling(name.substring(0, name.length() - 4) + "-tails.png");
        OutputPaths.requireWritableFile("plot", plot); // before the lattices and the chains, not after
        OutputPaths.requireWritableFile("plot", tails);
        double[] times = null;
        if (transientStart != null) {
            if (transientStart.length != 2) {
                throw MflbException.invalid("transient", transientStart.length + " values", "two values X1,X2");
            }
            if (!(tEnd > 0 && tEnd <= 20)) {
                throw MflbException.invalid("t-end", tEnd, "in (0, 20]");
            }
            if (!(dt > 0 && dt <= tEnd && tEnd / dt <= 1000)) {
                throw MflbException.invalid("dt", dt, "in [t-end/1000, t-end]");
            }
            int count = (int) Math.floor(tEnd / dt * (1 + 1e-12)) + 1;
            times = new double[count];
            for (int k = 0; k < count; k++) {
                times[k] = Math.min(k * dt, tEnd);
            }
            // validates X(0) before the long work
            HalfinWhittTransient.diffusion(new HalfinWhittJsq(beta), transientStart[0], transientStart[1], new double[0]);
        }
        if (!(events >= 0 && events <= 1e11)) {
            throw MflbException.invalid("events", events, "in [0, 1e11]");
        }
        HalfinWhittStudy.Settings settings = new HalfinWhittStudy.Settings(beta, servers, tolerance, tailPoints,
                diffusion.longRun ? 10 * events : events, replications, diffusion.streams.seed(),
                diffusion.streams.threads(), Integer.MAX_VALUE);
        PrintWriter out = spec.commandLine().getOut();
        HalfinWhittStudy.Result result;
        List<HalfinWhittTransient> transients = new ArrayList<>();
        List<Integer> transientN = new ArrayList<>();
        try (Progress progress = diffusion.progress.open(spec)) {
            result = HalfinWhittStudy.run(settings, progress);
            if (times != null) {
                HalfinWhittJsq model = new HalfinWhittJsq(beta);
                progress.accept("transient: diffusion");
                transients.add(HalfinWhittTransient.diffusion(model, transientStart[0], transientStart[1], times));
                for (int n : servers) {
                    if (n <= TRANSIENT_MAX_N) {
                        progress.accept("transient: N = " + n);
                        transients.add(HalfinWhittTransient.prelimit(model, n, transientStart[0], transientStart[1],
                                times));
                        transientN.add(n);
                    }
                }
            }
        }
        String title = String.format(Locale.ROOT, "JSQ, Halfin-Whitt regime, beta = %s", beta);
        HalfinWhittStudy.rateFigure(result, title + ": E[X2^N] against N", plot);
        HalfinWhittStudy.tailFigure(result, title + ": stationary tails", tails);
        if (format == OutputFormat.json) {
            ObjectNode json = json(result, transients, transientN);
            json.put("plot", plot.toString());
            json.put("tailPlot", tails.toString());
            Printer.printJson(out, json);
        } else {
            table(out, result, transients, transientN, transientStart);
            out.println("figures: " + plot + ", " + tails);
        }
        return 0;
    }

    private static ObjectNode json(HalfinWhittStudy.Result r, List<HalfinWhittTransient> transients,
            List<Integer> transientN) {
        ObjectNode json = Printer.object();
        json.put("beta", r.settings().beta());
        HalfinWhittStatistics v = r.limit().value();
        HalfinWhittStatistics e = r.limit().error();
        ObjectNode limit = json.putObject("limit");
        Printer.put(limit, "EX1", v.meanX1());
        Printer.put(limit, "EX2", v.meanX2());
        Printer.put(limit, "varX1", v.varX1());
        Printer.put(limit, "varX2", v.varX2());
        Printer.put(limit, "covX1X2", v.covX1X2());
        Printer.put(limit, "localTimeRate", v.localTimeRate());
        ArrayNode tailX2 = limit.putArray("tailX2");
        ArrayNode tailX1 = limit.putArray("tailX1");
        double[] x = v.tailPoints();
        for (int i = 0; i < x.length; i++) {
            ObjectNode p = tailX2.addObject();
            Printer.put(p, "x", x[i]);
            Printer.put(p, "p", v.tailX2()[i]);
            ObjectNode q = tailX1.addObject();
            Printer.put(q, "x", x[i]);
            Printer.put(q, "p", v.tailX1()[i]);
        }
        ObjectNode error = limit.putObject("errorEstimate");
        Printer.put(error, "EX2", e.meanX2());
        Printer.put(error, "varX1", e.varX1());
        Printer.put(error, "varX2", e.varX2());
        Printer.put(error, "covX1X2", e.covX1X2());
        limit.set("latticeSteps", Printer.array(r.limit().steps()));
        Printer.put(limit, "seconds", r.limitSeconds());
        ArrayNode pre = json.putArray("prelimit");
        for (HalfinWhittStudy.PrelimitRow p : r.prelimit()) {
            ObjectNode row = pre.addObject();
            row.put("N", p.n());
            Printer.put(row, "EX2", p.statistics().meanX2());
            Printer.put(row, "varX1", p.statistics().varX1());
            Printer.put(row, "P_Q3_positive", p.pQ3Positive());
            Printer.put(row, "EX1", p.statistics().meanX1());
            Printer.put(row, "varX2", p.statistics().varX2());
            Printer.put(row, "covX1X2", p.statistics().covX1X2());
            Printer.put(row, "errorEX2", p.errorX2());
            Printer.put(row, "sqrtNTimesErrorEX2", Math.sqrt(p.n()) * p.errorX2());
            Printer.put(row, "seconds", p.seconds());
        }
        ArrayNode sim = json.putArray("simulated");
        for (HalfinWhittStudy.SimulatedRow s : r.simulated()) {
            ObjectNode row = sim.addObject();
            row.put("N", s.n());
            row.set("EX2", estimate(s.meanX2()));
            row.set("varX1", estimate(s.varX1()));
            row.set("covX1X2", estimate(s.covX1X2()));
            row.put("events", s.events());
        }
        ObjectNode rate = json.putObject("rate");
        Printer.put(rate, "slope", r.rate().slope());
        Printer.put(rate, "c1", r.rate().c1());
        Printer.put(rate, "c2", r.rate().c2());
        ArrayNode fitted = rate.putArray("fittedN");
        for (int n : r.rate().fitted()) {
            fitted.add(n);
        }
        if (!transients.isEmpty()) {
            ObjectNode tr = json.putObject("transient");
            HalfinWhittTransient d = transients.get(0);
            tr.set("t", Printer.array(d.times()));
            ObjectNode lim = tr.putObject("limit");
            lim.set("EX1", Printer.array(d.meanX1()));
            lim.set("EX2", Printer.array(d.meanX2()));
            lim.set("errorEX1", Printer.array(d.errorX1()));
            lim.set("errorEX2", Printer.array(d.errorX2()));
            ArrayNode rows = tr.putArray("prelimit");
            for (int i = 0; i < transientN.size(); i++) {
                ObjectNode row = rows.addObject();
                row.put("N", transientN.get(i));
                row.set("EX1", Printer.array(transients.get(i + 1).meanX1()));
                row.set("EX2", Printer.array(transients.get(i + 1).meanX2()));
            }
        }
        return json;
    }

    private static ObjectNode estimate(Estimate e) {
        ObjectNode node = Printer.object();
        Printer.put(node, "mean", e.mean());
        node.set("ci95", Printer.array(new double[] {e.ci95Low(), e.ci95High()}));
        return node;
    }

    private static void table(PrintWriter out, HalfinWhittStudy.Result r, List<HalfinWhittTransient> transients,
            List<Integer> transientN, double[] start) {
        HalfinWhittStatistics v = r.limit().value();
        HalfinWhittStatistics e = r.limit().error();
        out.println(String.format(Locale.ROOT, "Diffusion limit, beta = %s (lattices h = %s ... %s extrapolated, %.1f s):",
                r.settings().beta(), Printer.number(r.limit().steps()[0]),
                Printer.number(r.limit().steps()[r.limit().steps().length - 1]), r.limitSeconds()));
        out.println(String.format(Locale.ROOT,
                "  E X2 = %.8f (+- %.1e)   Var X1 = %.8f (+- %.1e)   Var X2 = %.8f (+- %.1e)   Cov = %.8f (+- %.1e)",
                v.meanX2(), e.meanX2(), v.varX1(), e.varX1(), v.varX2(), e.varX2(), v.covX1X2(), e.covX1X2()));
        out.println(String.format(Locale.ROOT,
                "  E X1 = %.8f (exactly -beta)   E[dU/dt] = %.8f (exactly E X2)   1 - beta E X2/2 = %.8f (= Var X1)",
                v.meanX1(), v.localTimeRate(), 1 - r.settings().beta() * v.meanX2() / 2));
        Printer.Table tails = new Printer.Table("x", "P(X2 > x)", "P(X1 < -x)");
        double[] x = v.tailPoints();
        for (int i = 0; i < x.length; i++) {
            tails.row(Printer.number(x[i]), Printer.number(v.tailX2()[i]), Printer.number(v.tailX1()[i]));
        }
        tails.print(out);
        out.println();
        out.println("Exact N-server chain (capacity 2) and simulation:");
        Printer.Table t = new Printer.Table("N", "E X2^N", "E X2^N - E X2", "sqrt(N) x error", "Var X1^N", "Cov^N",
                "P(Q3 > 0)", "simulated E X2 [95% CI]", "simulated Var X1 [95% CI]", "solve s");
        for (int i = 0; i < r.prelimit().size(); i++) {
            HalfinWhittStudy.PrelimitRow p = r.prelimit().get(i);
            String simX2 = "-";
            String simV1 = "-";
            if (i < r.simulated().size()) {
                HalfinWhittStudy.SimulatedRow s = r.simulated().get(i);
                simX2 = interval(s.meanX2());
                simV1 = interval(s.varX1());
            }
            t.row(Integer.toString(p.n()), String.format(Locale.ROOT, "%.8f", p.statistics().meanX2()),
                    Printer.number(p.errorX2()), String.format(Locale.ROOT, "%.4f", Math.sqrt(p.n()) * p.errorX2()),
                    String.format(Locale.ROOT, "%.6f", p.statistics().varX1()),
                    String.format(Locale.ROOT, "%.6f", p.statistics().covX1X2()), Printer.number(p.pQ3Positive()),
                    simX2, simV1, String.format(Locale.ROOT, "%.2f", p.seconds()));
        }
        t.print(out);
        out.println(String.format(Locale.ROOT, "Rate over N in %s: slope of log|E X2^N - E X2| vs log N = %.4f;"
                + " E X2^N - E X2 ~ c1/sqrt(N) + c2/N with c1 = %.4f, c2 = %.3f",
                java.util.Arrays.toString(r.rate().fitted()), r.rate().slope(), r.rate().c1(), r.rate().c2()));
        if (!transients.isEmpty()) {
            out.println();
            out.println(String.format(Locale.ROOT, "Transient from X(0) = (%s, %s): diffusion (lattices h = 0.2, 0.1,"
                    + " 0.05 extrapolated; error estimate of E X2) and exact chains:", Printer.number(start[0]),
                    Printer.number(start[1])));
            List<String> header = new ArrayList<>(List.of("t", "limit E X1", "limit E X2", "+-"));
            for (int n : transientN) {
                header.add("N=" + n + " E X1");
                header.add("N=" + n + " E X2");
            }
            Printer.Table tt = new Printer.Table(header.toArray(new String[0]));
            HalfinWhittTransient d = transients.get(0);
            for (int k = 0; k < d.times().length; k++) {
                List<String> row = new ArrayList<>(List.of(Printer.number(d.times()[k]),
                        String.format(Locale.ROOT, "%.5f", d.meanX1()[k]), String.format(Locale.ROOT, "%.5f", d.meanX2()[k]),
                        String.format(Locale.ROOT, "%.1e", d.errorX2()[k])));
                for (int i = 0; i < transientN.size(); i++) {
                    row.add(String.format(Locale.ROOT, "%.5f", transients.get(i + 1).meanX1()[k]));
                    row.add(String.format(Locale.ROOT, "%.5f", transients.get(i + 1).meanX2()[k]));
                }
                tt.row(row.toArray(new String[0]));
            }
            tt.print(out);
        }
    }

    private static String interval(Estimate e) {
        return String.format(Locale.ROOT, "%.4f [%.4f, %.4f]", e.mean(), e.ci95Low(), e.ci95High());
    }
}
