package org.mflb.cli;

import java.io.PrintWriter;
import java.util.Arrays;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.refined.SeriesTerms;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerClasses;
import org.mflb.fluid.heterogeneous.ClassFixedPoint;
import org.mflb.fluid.heterogeneous.ClassStability;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;

/**
 * {@code fixed-point --classes}: the fixed point of servers in classes of speeds (docs/models.md §10)
 * with per-class tails and means, {@code λ*}, the response-time quantiles ({@code responseTimeQuantiles},
 * docs/models.md §7), and with {@code --refined} the 1/N (and 1/N²) terms of
 * the mean jobs per server, overall and per class. Beyond {@code λ*} the library's one line names the
 * overloaded classes (exit 1).
 */
final class ClassesFixedPoint {

    private ClassesFixedPoint() {
    }

    static int print(LoadBalancingModel model, RefinedOptions refined, PercentileOptions latency, OutputFormat format,
            PrintWriter out) {
        if (format == OutputFormat.csv) {
            throw org.mflb.core.MflbException.invalid("format", "csv", "json or table with --classes");
        }
        HeterogeneousFluid fluid = HeterogeneousFluid.of(model);
        ClassStability stability = fluid.stability();
        ClassFixedPoint fp = fluid.fixedPoint();
        ServerClasses classes = model.classes();
        int k = classes.count();
        boolean refine = refined.requested();
        // order 2 always: its 1/N^2 term tells whether the series is usable at each N (docs/models.md §4)
        SteadyStateExpansion expansion = refine ? fluid.refined(2) : null;
        double lambda = model.arrivalRate().at(0);
        if (format == OutputFormat.json) {
            ObjectNode j = Printer.object();
            j.put("system", model.system().name());
            j.put("policy", model.policy().id());
            j.put("lambda", lambda);
            j.put("meanQueueLength", fp.meanQueueLength());
            j.put("meanResponseTime", fp.meanResponseTime());
            j.put("stable", stability.stable());
            j.put("lambdaStar", stability.lambdaStar());
            j.put("residual", fp.residual());
            j.set("responseTimeQuantiles", latency.quantiles(fp.responseTime()));
            ArrayNode perClass = j.putArray("classes");
            for (int c = 0; c < k; c++) {
                ObjectNode o = perClass.addObject();
                o.put("fraction", classes.fraction(c));
                o.put("speed", classes.speed(c));
                ArrayNode tail = o.putArray("tail");
                Arrays.stream(fp.tail(c)).forEach(tail::add);
                o.put("meanQueueLength", fp.meanQueueLength(c));
                o.put("meanResponseTime", fp.meanResponseTime(c));
            }
            if (refine) {
                ArrayNode rows = j.putArray("refined");
                for (int n : refined.sizes()) {
                    for (int order = 1; order <= refined.order(); order++) {
                        ObjectNode r = rows.addObject();
                        r.put("N", n);
                        r.put("order", order);
                        double mean = refinedMean(fp, expansion, -1, n, order);
                        r.put("meanQueueLength", mean);
                        r.put("meanResponseTime", mean / lambda); // Little's law over all servers
                        ArrayNode rc = r.putArray("classes");
                        for (int c = 0; c < k; c++) {
                            rc.addObject().put("meanQueueLength", refinedMean(fp, expansion, c, n, order));
                        }
                        java.util.Optional<String> warning = notUsable(fp, expansion, n);
                        r.put("usable", warning.isEmpty());
                        warning.ifPresent(w -> r.put("warning", w));
                    }
                }
            }
            Printer.printJson(out, j);
            return 0;
        }
        out.println("Fixed point of " + model.policy().id() + " (d = " + model.policy().d() + ") on single-server queues"
                + " in " + k + " classes of speeds, lambda = " + Printer.number(lambda) + " (lambda* = "
                + Printer.number(stability.lambdaStar()) + ")");
        out.println("  mean queue length   " + Printer.number(fp.meanQueueLength()));
        out.println("  mean response time  " + Printer.number(fp.meanResponseTime()));
        out.println("  response time       " + latency.summary(fp.responseTime()));
        out.println("  residual            " + Printer.number(fp.residual()));
        out.println(String.format(java.util.Locale.ROOT, "%8s %8s %14s %14s %12s", "fraction", "speed", "E[Q_k]",
                "E[R_k]", "u_k1"));
        for (int c = 0; c < k; c++) {
            out.println(String.format(java.util.Locale.ROOT, "%8s %8s %14s %14s %12s", Printer.number(classes.fraction(c)),
                    Printer.number(classes.speed(c)), Printer.number(fp.meanQueueLength(c)),
                    Printer.number(fp.meanResponseTime(c)), Printer.number(fp.tail(c)[1])));
        }
        if (refine) {
            for (int n : refined.sizes()) {
                for (int order = 1; order <= refined.order(); order++) {
                    out.println("  refined N = " + n + ", order " + order + ": E[Q] = "
                            + Printer.number(refinedMean(fp, expansion, -1, n, order)));
                }
                notUsable(fp, expansion, n).ifPresent(w -> out.println("  warning: " + w));
            }
        }
        return 0;
    }

    /** @return the series {@code E[Q] + t₁ + t₂} of a class ({@code −1}: all servers) at {@code n}, from an order-2 expansion */
    static SeriesTerms seriesTerms(ClassFixedPoint fp, SteadyStateExpansion e, int c, int n) {
        double limit = c < 0 ? fp.meanQueueLength() : fp.meanQueueLength(c);
        double v = refinedMean(fp, e, c, 1, 1) - limit;
        double a = refinedMean(fp, e, c, 1, 2) - limit - v;
        return SeriesTerms.of(n, limit, v, a);
    }

    /** @return why the expansion is not usable at {@code n}, overall or for some class, if it is not */
    private static java.util.Optional<String> notUsable(ClassFixedPoint fp, SteadyStateExpansion e, int n) {
        for (int c = -1; c < fp.model().classes().count(); c++) {
            java.util.Optional<String> reason = seriesTerms(fp, e, c, n).notUsable();
            if (reason.isPresent()) {
                String what = c < 0 ? "mean queue length: " : "class " + (c + 1) + ": ";
                return reason.map(r -> what + r);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * @param c a class, or −1 for the mean jobs per server of the whole system
     * @return {@code E[Q] + V/N (+ A/N²)} from the expansion's terms over the class's coordinates
     *         (per class divided by {@code a_k})
     */
    static double refinedMean(ClassFixedPoint fp, SteadyStateExpansion e, int c, int n, int order) {
        int k = fp.model().classes().count();
        double[] v = e.firstOrderTerm();
        double[] a = order >= 2 ? e.secondOrderTerm() : null;
        double sum = 0;
        for (int x = 0; x < v.length; x++) {
            if (c < 0 || x % k == c) {
                sum += v[x] / n + (a == null ? 0 : a[x] / ((double) n * n));
            }
        }
        return c < 0 ? fp.meanQueueLength() + sum : fp.meanQueueLength(c) + sum / fp.model().classes().fraction(c);
    }
}
