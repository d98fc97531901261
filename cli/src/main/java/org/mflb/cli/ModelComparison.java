package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.sojourn.SojournLaw;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerClasses;
import org.mflb.fluid.heterogeneous.ClassFixedPoint;
import org.mflb.fluid.heterogeneous.ClassResponseTime;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;
import org.mflb.pde.workload.LeastLoaded;
import org.mflb.pde.workload.WorkloadEquilibrium;
import org.mflb.simulation.ClassEstimate;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.QuantileEstimate;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.validation.Check;
import org.mflb.validation.Comparisons;

/**
 * {@code compare --policy ll} and {@code compare --classes}, in a steady state: the mean-field
 * prediction next to the simulated N-server system, as the usual checks (predicted, simulated with its
 * 95% CI, tolerance 3 CI half-widths + the O(1/N) allowance of the limit).
 * <ul>
 * <li>LL(d) (docs/models.md §11): the workload equilibrium's {@code E[R]}, {@code E[W]}, the share of
 *     jobs that wait not at all {@code 1 − λ^d}, and the response-time quantiles; allowance
 *     {@code 5/N} relative to the predicted value (probability: absolute).</li>
 * <li>Server classes (§10): the fluid fixed point's tail, mean queue length and {@code E[R]} (as for
 *     one class), each class's {@code E[Q_k]} and {@code E[R_k]} with the allowance divided by the
 *     class's fraction {@code a_k} (a class of {@code a_k N} servers), the response-time quantiles;
 *     with {@code --refined} the refined {@code E[Q] + V/N (+ A/N²)}, overall and per class, within
 *     3 CI half-widths + {@code 5/N²} ({@code 5/N³} at order 2).</li>
 * </ul>
 */
final class ModelComparison {

    private ModelComparison() {
    }

    /** The simulated side: the command's run options on the model. */
    private static ScenarioBuilder scenario(CompareCommand c, LoadBalancingModel lbm, int servers) {
        ScenarioBuilder b = SimulationScenario.builder().model(lbm).servers(servers)
                .tEnd(c.tEnd != null ? c.tEnd : 1000).replications(c.replications).seed(c.streams.seed())
                .threads(c.streams.threads()).percentiles(c.latency.percentiles().values());
        if (c.warmup != null) {
            b.warmup(c.warmup);
        }
        return b;
    }

    /** Refuses what these comparisons do not have: a transient (--dt), an initial state, a figure. */
    private static void requireSteadyState(CompareCommand c, String with) {
        if (c.dt != null) {
            throw MflbException.invalid("dt", c.dt, "omitted with " + with + " (a steady-state comparison; transients:"
                    + " mflb transient and mflb simulate --dt)");
        }
        if (!"empty".equals(c.init)) {
            throw MflbException.invalid("init", c.init, "omitted with " + with + " (the steady state does not depend"
                    + " on it)");
        }
        if (c.plot != null) {
            throw MflbException.invalid("plot", c.plot, "omitted with " + with + " (no figure: the checks are the"
                    + " comparison)");
        }
        if (c.format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table for compare");
        }
    }

    /** @return the check of a predicted value against an estimate, within 3 half-widths + {@code allowance} */
    private static Check check(String quantity, double predicted, Estimate e, double halfWidths, double allowance) {
        return Check.of(quantity, predicted, e.mean(), e.ci95Low(), e.ci95High(), halfWidths * e.halfWidth(), allowance);
    }

    /** Adds the checks of the response-time quantiles, allowance {@code bias} relative to the prediction. */
    private static void quantileChecks(List<Check> checks, String label, SojournLaw law, SimulationResult sim,
            Comparisons.Tolerance tolerance) {
        for (QuantileEstimate q : sim.responseTimeQuantiles()) {
            double predicted = law.quantile(q.p() / 100);
            checks.add(check(label + "R p" + PercentileOptions.label(q.p()), predicted, q.estimate(),
                    tolerance.halfWidths(), tolerance.bias() * predicted));
        }
    }

    /** {@code compare --policy ll}: the workload equilibrium against the workload engine. */
    static int leastLoaded(CompareCommand c, LoadBalancingModel lbm) {
        String with = "--policy ll";
        requireSteadyState(c, with);
        LeastLoadedAnalysis.refuse(c.refinedRequested, "refined", true, with + " (no refined terms of the workload"
                + " equation)");
        double tolerance = c.workload.tolerance(lbm.policy());
        LeastLoaded ll = LeastLoadedAnalysis.equilibriumModel(lbm, "a steady-state comparison");
        int servers = c.model.servers();
        WorkloadEquilibrium eq = ll.equilibrium(tolerance, c.latency.percentiles());
        SimulationResult sim = c.progress.simulate(c.spec, scenario(c, lbm, servers).build());
        Comparisons.Tolerance allowance = new Comparisons.Tolerance(3, 5.0 / servers);
        List<Check> checks = new ArrayList<>();
        sim.meanResponseTime().ifPresent(e -> checks.add(check("E[R]", eq.meanResponseTime(), e, 3,
                allowance.bias() * eq.meanResponseTime())));
        sim.meanWaitingTime().ifPresent(e -> checks.add(check("E[W]", eq.meanWaitingTime(), e, 3,
                allowance.bias() * eq.meanResponseTime())));
        checks.add(check("P(W = 0)", eq.idleShare(), sim.idleArrivalFraction().asFraction(), 3, allowance.bias()));
        quantileChecks(checks, "", eq.responseTime(), sim, allowance);
        String title = "LL(" + ll.d() + ") workload equilibrium, lambda = " + ll.lambda() + ", job sizes "
                + ll.service().spec() + ", N = " + servers + ", sampling " + lbm.policy().sampling().id();
        ObjectNode extra = Printer.object();
        extra.put("meanResponseTime", eq.meanResponseTime());
        extra.put("meanWaitingTime", eq.meanWaitingTime());
        extra.set("responseTimeQuantiles", LeastLoadedAnalysis.quantiles(eq.responseQuantiles()));
        extra.put("equilibriumTolerance", eq.tolerance());
        Printer.put(extra, "equilibriumErrorEstimate", eq.errorEstimate());
        print(c, title, checks, sim, allowance.toString() + " (relative to the predicted value)", null, extra);
        return 0;
    }

    /** {@code compare --classes}: the fluid fixed point of the server classes (and its refined terms) against simulation. */
    static int classes(CompareCommand c, LoadBalancingModel lbm) {
        String with = "--classes";
        requireSteadyState(c, with);
        c.model.requireConstantRate("a steady-state comparison");
        HeterogeneousFluid fluid = HeterogeneousFluid.of(lbm);
        int servers = c.model.servers();
        ServerClasses classes = lbm.classes();
        classes.sizes(servers); // whole servers per class, before any long work
        int order = c.order == null ? 1 : c.order;
        if (c.order != null && !c.refinedRequested) {
            throw MflbException.invalid("order", c.order, "omitted unless --refined is given");
        }
        if (c.refinedRequested && (order < 1 || order > RefinedMeanField.MAX_ORDER)) {
            throw MflbException.invalid("order", order, "1 or " + RefinedMeanField.MAX_ORDER);
        }
        ClassFixedPoint fp = fluid.fixedPoint();
        // order 2 always: its 1/N^2 term tells whether the series is usable at this N (docs/models.md §4)
        SteadyStateExpansion expansion = c.refinedRequested ? fluid.refined(2) : null;
        ClassResponseTime law = fp.responseTime();
        SimulationResult sim = c.progress.simulate(c.spec, scenario(c, lbm, servers).build());
        double lambda = lbm.arrivalRate().at(0);
        Comparisons.Tolerance tolerance = new Comparisons.Tolerance(3, 5.0 / servers);
        Comparisons.Tolerance refinedTolerance = new Comparisons.Tolerance(3, 5.0 / Math.pow(servers, order + 1));
        int k = classes.count();
        double[] tail = new double[fp.model().levels() + 1];
        for (int cl = 0; cl < k; cl++) {
            double[] u = fp.tail(cl);
            for (int i = 0; i < tail.length; i++) {
                tail[i] += classes.fraction(cl) * u[i];
            }
        }
        List<Check> checks = new ArrayList<>(Comparisons.steadyState("", tail, fp.meanQueueLength(), sim, tolerance));
        sim.meanResponseTime().ifPresent(e -> checks.add(check("E[R]", fp.meanResponseTime(), e, 3,
                tolerance.bias() / lambda)));
        List<ClassEstimate> simulated = sim.classes();
        for (int cl = 0; cl < k && cl < simulated.size(); cl++) {
            double a = classes.fraction(cl);
            ClassEstimate e = simulated.get(cl);
            String label = "class " + (cl + 1) + " ";
            checks.add(check(label + "E[Q_k]", fp.meanQueueLength(cl), e.meanQueueLength(), 3, tolerance.bias() / a));
            checks.add(check(label + "E[R_k]", fp.meanResponseTime(cl), e.meanResponseTime(), 3,
                    tolerance.bias() / (a * lambda)));
        }
        quantileChecks(checks, "", law, sim, tolerance);
        if (expansion != null) {
            String r = order == 1 ? "refined 1/N: " : "refined 1/N^2: ";
            checks.add(check(r + "mean queue length", ClassesFixedPoint.refinedMean(fp, expansion, -1, servers, order),
                    sim.meanQueueLength(), 3, refinedTolerance.bias())
                    .unless(ClassesFixedPoint.seriesTerms(fp, expansion, -1, servers).notUsable()));
            for (int cl = 0; cl < k && cl < simulated.size(); cl++) {
                checks.add(check(r + "class " + (cl + 1) + " E[Q_k]", ClassesFixedPoint.refinedMean(fp, expansion, cl,
                        servers, order), simulated.get(cl).meanQueueLength(), 3,
                        refinedTolerance.bias() / classes.fraction(cl))
                        .unless(ClassesFixedPoint.seriesTerms(fp, expansion, cl, servers).notUsable()));
            }
        }
        String title = lbm.policy().id() + " (d = " + lbm.policy().d() + ", sampling " + lbm.policy().sampling().id()
                + ") on " + k + " classes " + classes.spec() + ", lambda = " + lambda + " (lambda* = "
                + Printer.number(fluid.stability().lambdaStar()) + "), N = " + servers;
        ObjectNode extra = Printer.object();
        extra.put("lambdaStar", fluid.stability().lambdaStar());
        extra.put("meanQueueLength", fp.meanQueueLength());
        extra.put("meanResponseTime", fp.meanResponseTime());
        ArrayNode perClass = extra.putArray("classes");
        for (int cl = 0; cl < k; cl++) {
            ObjectNode o = perClass.addObject();
            o.put("fraction", classes.fraction(cl));
            o.put("speed", classes.speed(cl));
            o.put("meanQueueLength", fp.meanQueueLength(cl));
            o.put("meanResponseTime", fp.meanResponseTime(cl));
        }
        print(c, title, checks, sim, tolerance + " (per class: the allowance over a_k)",
                expansion == null ? null : refinedTolerance + " (order " + order + ")", extra);
        return 0;
    }

    /** Prints the checks as compare does: JSON {@code title}, {@code tolerance}, the fluid's keys, the checks' keys. */
    private static void print(CompareCommand c, String title, List<Check> checks, SimulationResult sim,
            String tolerance, String refinedTolerance, ObjectNode extra) {
        PrintWriter out = c.spec.commandLine().getOut();
        if (c.format == OutputFormat.json) {
            ObjectNode json = Printer.object();
            json.put("title", title);
            json.put("tolerance", tolerance);
            if (refinedTolerance != null) {
                json.put("refinedTolerance", refinedTolerance);
            }
            json.put("engine", sim.engine().cliName());
            json.put("events", sim.events());
            json.put("eventsPerSecond", sim.eventsPerSecond());
            json.setAll(extra);
            json.setAll(CheckPrinter.json(checks));
            Printer.printJson(out, json);
            return;
        }
        out.println("Compare: " + title);
        out.println(String.format(Locale.ROOT, "  simulation: %d replications, %,d events (%.3g events/s), %s engine",
                c.replications, sim.events(), sim.eventsPerSecond(), sim.engine().cliName()));
        out.println("  tolerance per check: " + tolerance + (refinedTolerance == null ? ""
                : "; refined mean field: " + refinedTolerance));
        out.println();
        CheckPrinter.table(out, checks);
    }
}
