package org.mflb.cli;

import java.io.PrintWriter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerClasses;
import org.mflb.fluid.heterogeneous.ClassFixedPoint;
import org.mflb.fluid.heterogeneous.ClassResponseTime;
import org.mflb.fluid.heterogeneous.ClassStability;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;
import org.mflb.fluid.heterogeneous.HeterogeneousModel;

/**
 * {@code transient --classes}: the fluid trajectory of servers in classes of speeds (docs/models.md
 * §10) from an empty system or the fixed point at {@code λ(0)}, under a constant rate or a profile,
 * with per-class tails {@code u_{k,i}(t)}, means and the response time of a job arriving at {@code t}
 * (a job joining a class-{@code k} server with {@code q} jobs stays {@code Erlang(q+1)} at rate
 * {@code s_k}, §7).
 *
 * <p>Levels kept per class: those of the fixed point at the largest rate of the run when it is below
 * {@code λ*} (SQ(d), SED(d) and random routing are monotone: a trajectory from below stays below that
 * fixed point), else enough for the overloaded classes to grow at their rate over the horizon; the
 * largest mass left at the top level is reported ({@code cutOffMass}).
 */
final class ClassesTransient {

    /** Extra levels beyond the growth of the overloaded classes over the horizon. */
    private static final int GROWTH_MARGIN = 64;

    private ClassesTransient() {
    }

    /**
     * JSON: {@code t}, {@code meanQueueLength}, {@code meanResponseTime} and {@code responseTimeQuantiles}
     * per time (overall), {@code lambdaStar}, {@code stable} (at the largest rate), {@code levels},
     * {@code cutOffMass}, and {@code classes} [{@code fraction}, {@code speed}, {@code meanQueueLength},
     * {@code meanResponseTime}, {@code busyFraction} ({@code u_{k,1}}) per time, {@code tail} (a row
     * {@code u_{k,0..L}} per time)]. CSV: a row per time, {@code t,meanQueueLength,meanResponseTime},
     * then {@code class<k>_meanQueueLength,class<k>_meanResponseTime,class<k>_busyFraction} per class.
     */
    static int print(LoadBalancingModel lbm, String init, TimeGrid grid, PercentileOptions latency, OutputFormat format,
            String loadLabel, PrintWriter out) {
        ArrivalRate rate = lbm.arrivalRate();
        double highest = rate.supremum(grid.start(), grid.end());
        if (!(highest > 0)) {
            throw MflbException.invalid("lambda", highest, "> 0 somewhere in the run");
        }
        HeterogeneousFluid atHighest = HeterogeneousFluid.of(lbm.withArrivalRate(ArrivalRate.constant(highest)));
        ClassStability stability = atHighest.stability();
        double[] start;
        ClassFixedPoint initialFixedPoint = null;
        switch (init) {
            case "empty" -> start = null;
            case "fixed-point" -> {
                double lambda0 = rate.at(grid.start());
                initialFixedPoint = HeterogeneousFluid.of(lbm.withArrivalRate(ArrivalRate.constant(lambda0))).fixedPoint();
                start = initialFixedPoint.state();
            }
            default -> throw MflbException.invalid("init", init, "empty or fixed-point (the fixed point at lambda(0))"
                    + " with --classes");
        }
        int levels = levels(atHighest, stability, grid);
        if (initialFixedPoint != null) {
            levels = Math.max(levels, initialFixedPoint.model().levels());
        }
        ServerClasses classes = lbm.classes();
        int k = classes.count();
        HeterogeneousModel model = atHighest.model(levels);
        double[] y0 = new double[model.getDimension()];
        if (initialFixedPoint != null) {
            HeterogeneousModel from = initialFixedPoint.model();
            for (int c = 0; c < k; c++) {
                for (int i = 1; i <= from.levels(); i++) {
                    y0[model.index(c, i)] = start[from.index(c, i)];
                }
            }
        }
        Trajectory tr = atHighest.transientFrom(levels, rate, y0, grid);
        latency.percentiles();
        int steps = grid.size();
        double[] meanQueue = new double[steps];
        double[][] classQueue = new double[k][steps];
        double[][] classResponse = new double[k][steps];
        double[][] busy = new double[k][steps];
        double[][][] tails = new double[k][steps][];
        ClassResponseTime[] laws = new ClassResponseTime[steps];
        double cutOff = 0;
        for (int t = 0; t < steps; t++) {
            // the arrival shares r_{k,q} = β/λ do not depend on λ (every arrival rate is λ times a share):
            // the law of a job arriving at t is defined by the state alone, also where λ(t) = 0
            double lambda = rate.at(grid.time(t));
            ClassFixedPoint state = new ClassFixedPoint(model.withArrivalRate(ArrivalRate.constant(lambda > 0 ? lambda
                    : 1)), tr.state(t), Double.NaN);
            meanQueue[t] = state.meanQueueLength();
            laws[t] = state.responseTime();
            for (int c = 0; c < k; c++) {
                tails[c][t] = state.tail(c);
                classQueue[c][t] = state.meanQueueLength(c);
                busy[c][t] = tails[c][t][1];
                classResponse[c][t] = laws[t].ofClass(c).mean();
                cutOff = Math.max(cutOff, tails[c][t][levels]);
            }
        }
        PercentileOptions.Series response = latency.series(steps, t -> laws[t]);
        switch (format) {
            case json -> {
                ObjectNode j = Printer.object();
                j.put("system", lbm.system().name());
                j.put("policy", lbm.policy().id());
                j.put("lambda", rate.at(grid.start()));
                j.put("init", init);
                j.put("lambdaStar", stability.lambdaStar());
                j.put("stable", stability.stable());
                j.put("levels", levels);
                j.put("cutOffMass", cutOff);
                j.set("t", Printer.array(grid.toArray()));
                j.set("meanQueueLength", Printer.array(meanQueue));
                j.set("meanResponseTime", Printer.array(response.mean()));
                response.putJson(j, "responseTimeQuantiles");
                ArrayNode perClass = j.putArray("classes");
                for (int c = 0; c < k; c++) {
                    ObjectNode o = perClass.addObject();
                    o.put("fraction", classes.fraction(c));
                    o.put("speed", classes.speed(c));
                    o.set("meanQueueLength", Printer.array(classQueue[c]));
                    o.set("meanResponseTime", Printer.array(classResponse[c]));
                    o.set("busyFraction", Printer.array(busy[c]));
                    o.set("tail", Printer.matrix(tails[c]));
                }
                Printer.printJson(out, j);
            }
            case csv -> {
                StringBuilder header = new StringBuilder("t,meanQueueLength,meanResponseTime");
                for (int c = 1; c <= k; c++) {
                    header.append(",class").append(c).append("_meanQueueLength,class").append(c)
                            .append("_meanResponseTime,class").append(c).append("_busyFraction");
                }
                out.println(header);
                for (int t = 0; t < steps; t++) {
                    StringBuilder row = new StringBuilder(Printer.csv(grid.time(t))).append(',')
                            .append(Printer.csv(meanQueue[t])).append(',').append(Printer.csv(response.mean()[t]));
                    for (int c = 0; c < k; c++) {
                        row.append(',').append(Printer.csv(classQueue[c][t])).append(',')
                                .append(Printer.csv(classResponse[c][t])).append(',').append(Printer.csv(busy[c][t]));
                    }
                    out.println(row);
                }
            }
            case table -> {
                out.println("Transient of " + lbm.policy().id() + " (d = " + lbm.policy().d() + ") on single-server"
                        + " queues in " + k + " classes of speeds " + classes.spec() + ", " + loadLabel + ", from "
                        + init + " (lambda* = " + Printer.number(stability.lambdaStar()) + ")");
                out.println("  levels kept per class " + levels + " (largest cut-off mass " + Printer.number(cutOff) + ")");
                out.println();
                String[] header = new String[3 + k];
                header[0] = "t";
                header[1] = "E[Q]";
                header[2] = "E[R]";
                for (int c = 0; c < k; c++) {
                    header[3 + c] = "E[Q_" + (c + 1) + "]";
                }
                Printer.Table table = new Printer.Table(header);
                for (int t = 0; t < steps; t++) {
                    String[] row = new String[header.length];
                    row[0] = Printer.number(grid.time(t));
                    row[1] = Printer.number(meanQueue[t]);
                    row[2] = Printer.number(response.mean()[t]);
                    for (int c = 0; c < k; c++) {
                        row[3 + c] = Printer.number(classQueue[c][t]);
                    }
                    table.row(row);
                }
                table.print(out);
                out.println("  (per-class response times and tails with --format csv or json)");
            }
        }
        return 0;
    }

    /** @return the levels per class: the fixed point's at the largest rate, or room for the growth beyond λ* */
    private static int levels(HeterogeneousFluid atHighest, ClassStability stability, TimeGrid grid) {
        if (stability.stable()) {
            return atHighest.fixedPoint().model().levels();
        }
        double growth = 0;
        for (double g : stability.growthRates()) {
            growth = Math.max(growth, g);
        }
        double needed = GROWTH_MARGIN + 2 * growth * (grid.end() - grid.start());
        if (needed > HeterogeneousFluid.MAX_LEVELS) {
            throw MflbException.invalid("t-end", grid.end(), String.format(java.util.Locale.ROOT, "at most %.4g beyond"
                    + " lambda* = %.6g: the overloaded classes grow by %.4g jobs per unit time, more than %d levels",
                    (HeterogeneousFluid.MAX_LEVELS - GROWTH_MARGIN) / (2 * growth), stability.lambdaStar(), growth,
                    HeterogeneousFluid.MAX_LEVELS));
        }
        return (int) Math.ceil(needed);
    }
}
