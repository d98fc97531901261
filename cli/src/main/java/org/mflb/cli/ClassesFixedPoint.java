package org.mflb.cli;

import java.io.PrintWriter;
import java.util.Arrays;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

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
        SteadyStateExpansion expansion = refine ? fluid.refined(refined.order()) : null;
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
                        r.put("meanQueueLength", refinedMean(fp, expansion, -1, n, order));
                        ArrayNode rc = r.putArray("classes");
                        for (int c = 0; c < k; c++) {
                            rc.addObject().put("meanQueueLength", refinedMean(fp, expansion, c, n, order));
                        }
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
            }
        }
        return 0;
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
