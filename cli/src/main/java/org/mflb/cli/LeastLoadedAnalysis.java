package org.mflb.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.pde.workload.LeastLoaded;
import org.mflb.pde.workload.WorkloadEquilibrium;
import org.mflb.pde.workload.WorkloadInitialState;
import org.mflb.pde.workload.WorkloadTransient;
import org.mflb.pde.workload.WorkloadTransport;

/**
 * {@code --policy ll} in {@code fixed-point} and {@code transient}: the mean-field limit of LL(d), the
 * least loaded of {@code d} sampled servers with any job-size law (docs/models.md §11). The fixed
 * point is the equilibrium of the workload equation (E2), marched to a requested accuracy; the
 * transient is the workload transport equation from an empty system or an equilibrium. Bad input
 * (pools, {@code λ ≥ 1}, a job-size law of mean other than 1, an infinite mean waiting time) is one
 * line naming the parameter, before any long work.
 */
final class LeastLoadedAnalysis {

    /** Samples of the workload ccdf {@code F̄} in the fixed point's JSON ({@code workloadSurvival}). */
    static final int SURVIVAL_SAMPLES = 101;
    /** The samples of {@code F̄} reach the workload where it falls below this (or the grid's reach). */
    static final double SURVIVAL_FLOOR = 1e-6;

    private LeastLoadedAnalysis() {
    }

    /**
     * The equilibrium model of an LL(d) command line: a constant {@code λ < 1}, sampling with
     * replacement (the law the workload equation is written for), a job-size law of mean 1 and a
     * finite mean waiting time.
     *
     * @param lbm the model, with policy ll
     * @param what the command, for the messages
     * @return the LL(d) model of the workload equation
     */
    static LeastLoaded equilibriumModel(LoadBalancingModel lbm, String what) {
        Policy policy = lbm.policy();
        if (!lbm.arrivalRate().isConstant()) {
            throw MflbException.invalid("lambda-profile", "a profile", "omitted for " + what + " with --policy ll (a"
                    + " constant --lambda)");
        }
        LeastLoaded ll = LeastLoaded.of(policy.d(), lbm.arrivalRate().at(0), lbm.service());
        ll.infiniteMeanReason().ifPresent(reason -> {
            throw MflbException.invalid("service", lbm.service().spec(), "a job-size law with a finite mean waiting"
                    + " time for ll with d = " + policy.d() + ": " + reason);
        });
        return ll;
    }

    /**
     * Refuses a steady-state simulation of LL(d) whose mean waiting time is infinite (docs/models.md
     * §11.3): its time averages do not converge, and an interval around one would be misleading. The
     * condition is read from the law of mean 1 at a constant rate below 1; other runs are left to the
     * simulator.
     *
     * @param lbm the simulated model
     */
    static void requireFiniteMeanInSteadyState(LoadBalancingModel lbm) {
        if (!(lbm.policy() instanceof Policy.LeastLoaded) || !lbm.arrivalRate().isConstant()
                || !(lbm.arrivalRate().at(0) < 1) || !(Math.abs(lbm.service().mean() - 1) <= 1e-9)) {
            return;
        }
        equilibriumModel(lbm, "a steady-state simulation");
    }

    /**
     * Refuses an option that the workload equation does not use.
     *
     * @param given whether it was given
     * @param option its name, without dashes
     * @param value its value
     * @param with what excludes it, for the message ({@code --policy ll})
     */
    static void refuse(boolean given, String option, Object value, String with) {
        if (given) {
            throw MflbException.invalid(option, value, "omitted with " + with);
        }
    }

    /**
     * Refuses {@code --sampling distinct} in the commands that compute the limit only (the workload
     * equation samples with replacement).
     */
    static void requireReplacement(LoadBalancingModel lbm, String command) {
        if (lbm.policy().sampling() == Sampling.DISTINCT) {
            throw MflbException.invalid("sampling", "distinct", "replacement for " + command + " --policy ll (the"
                    + " workload equation is the limit N -> infinity, where both samplings agree; simulate and compare"
                    + " take distinct)");
        }
    }

    /**
     * {@code fixed-point --policy ll}: JSON {@code meanResponseTime}, {@code meanWaitingTime},
     * {@code responseTimeQuantiles} and {@code waitingTimeQuantiles} [{@code p}, {@code value},
     * {@code errorEstimate}], {@code workloadSurvival} [{@code w}, {@code value}] ({@code F̄(w) = P(V > w)}
     * on {@value #SURVIVAL_SAMPLES} equally spaced workloads), {@code meanQueueLength} ({@code λ E[R]}, Little's
     * law), {@code meanWorkload}, {@code idleShare}
     * ({@code 1 − λ^d}, the jobs that wait not at all), and the accuracy: {@code tolerance} (requested,
     * relative on {@code E[R]}), {@code errorEstimate}, {@code relativeErrorEstimate}, {@code finestStep},
     * {@code reach}.
     */
    static int fixedPoint(LoadBalancingModel lbm, double tolerance, PercentileOptions latency, OutputFormat format,
            PrintWriter out) {
        if (format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table with --policy ll");
        }
        requireReplacement(lbm, "fixed-point");
        LeastLoaded ll = equilibriumModel(lbm, "a fixed point");
        Percentiles percentiles = latency.percentiles();
        WorkloadEquilibrium eq = ll.equilibrium(tolerance, percentiles);
        if (format == OutputFormat.json) {
            ObjectNode j = Printer.object();
            j.put("system", lbm.system().name());
            j.put("policy", lbm.policy().id());
            j.put("d", ll.d());
            j.put("lambda", ll.lambda());
            j.put("service", ll.service().spec());
            j.put("meanResponseTime", eq.meanResponseTime());
            j.put("meanWaitingTime", eq.meanWaitingTime());
            j.put("meanQueueLength", ll.lambda() * eq.meanResponseTime()); // Little's law: jobs per server
            Printer.put(j, "meanWorkload", eq.meanWorkload()); // null when infinite (E[X^2] = infinity)
            j.put("idleShare", eq.idleShare());
            j.set("responseTimeQuantiles", quantiles(eq.responseQuantiles()));
            j.set("waitingTimeQuantiles", quantiles(eq.waitingQuantiles()));
            ArrayNode survival = j.putArray("workloadSurvival");
            double wMax = survivalReach(eq);
            for (int k = 0; k < SURVIVAL_SAMPLES; k++) {
                double w = wMax * k / (SURVIVAL_SAMPLES - 1);
                ObjectNode o = survival.addObject();
                o.put("w", w);
                o.put("value", eq.workloadSurvival(w));
            }
            j.put("tolerance", eq.tolerance());
            Printer.put(j, "errorEstimate", eq.errorEstimate());
            Printer.put(j, "relativeErrorEstimate", eq.relativeErrorEstimate());
            j.put("finestStep", eq.finestStep());
            j.put("reach", eq.reach());
            Printer.printJson(out, j);
            return 0;
        }
        out.println("Equilibrium of LL(" + ll.d() + ") (least loaded of " + ll.d() + " sampled with replacement) on"
                + " single-server queues, lambda = " + ll.lambda() + ", job sizes " + ll.service().spec()
                + " (workload equation, docs/models.md §11)");
        line(out, "mean response time", Printer.number(eq.meanResponseTime()));
        line(out, "mean waiting time", Printer.number(eq.meanWaitingTime()));
        line(out, "mean workload", Printer.number(eq.meanWorkload()) + " (= lambda (E[W] + E[X^2]/2))");
        line(out, "P(W = 0)", Printer.number(eq.idleShare()) + " (= 1 - lambda^d)");
        line(out, "response time", summary(eq.responseQuantiles()));
        line(out, "waiting time", summary(eq.waitingQuantiles()));
        line(out, "accuracy", String.format(Locale.ROOT, "requested %.3g relative on E[R] and the quantiles;"
                + " estimated error of E[R] %.3g (relative %.3g); finest step %s, reach %s", eq.tolerance(),
                eq.errorEstimate(), eq.relativeErrorEstimate(), Printer.number(eq.finestStep()),
                Printer.number(eq.reach())));
        out.println();
        Printer.Table table = new Printer.Table("w", "P(V > w)");
        double wMax = survivalReach(eq);
        for (int k = 0; k <= 20; k++) {
            double w = wMax * k / 20;
            table.row(Printer.number(w), Printer.number(eq.workloadSurvival(w)));
        }
        table.print(out);
        out.println("  (" + SURVIVAL_SAMPLES + " samples of the workload ccdf with --format json)");
        return 0;
    }

    /** @return the workload where {@code F̄} first falls below {@link #SURVIVAL_FLOOR} on the grid, at most its reach */
    private static double survivalReach(WorkloadEquilibrium eq) {
        double[] nodes = eq.workloadNodes();
        double h = eq.gridStep();
        for (int k = 0; k < nodes.length; k++) {
            if (nodes[k] < SURVIVAL_FLOOR) {
                return Math.max(h, k * h);
            }
        }
        return (nodes.length - 1) * h;
    }

    /** @return [{p, value, errorEstimate}] */
    static ArrayNode quantiles(List<WorkloadEquilibrium.Quantile> quantiles) {
        ArrayNode array = Printer.object().arrayNode();
        for (WorkloadEquilibrium.Quantile q : quantiles) {
            ObjectNode o = array.addObject();
            o.put("p", q.percentile());
            Printer.put(o, "value", q.value());
            Printer.put(o, "errorEstimate", q.errorEstimate());
        }
        return array;
    }

    private static String summary(List<WorkloadEquilibrium.Quantile> quantiles) {
        StringBuilder b = new StringBuilder();
        for (WorkloadEquilibrium.Quantile q : quantiles) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append('p').append(PercentileOptions.label(q.percentile())).append(' ')
                    .append(String.format(Locale.ROOT, "%.8g", q.value()));
        }
        return b.toString();
    }

    private static void line(PrintWriter out, String label, String value) {
        out.println("  " + label + " ".repeat(Math.max(1, 20 - label.length())) + value);
    }

    /**
     * {@code transient --policy ll}: the workload transport equation from an empty system ({@code --init
     * empty}) or the equilibrium at {@code λ(0)} ({@code --init fixed-point}), under a constant rate or
     * {@code --lambda-profile}; second order in the step {@code h = 1/16}, Richardson-extrapolated over
     * {@code h} and {@code h/2}. JSON: {@code t}, and per time {@code meanWaitingTime},
     * {@code meanResponseTime} (of a job arriving at {@code t}), {@code busyFraction} ({@code F̄(t, 0+)}),
     * {@code meanWorkload}, {@code responseTimeQuantiles} (an array per time); {@code step}, {@code reach}.
     * CSV: a row per time with those columns and {@code responseTime_pP}.
     */
    static int transientRun(LoadBalancingModel lbm, String init, TimeGrid grid, PercentileOptions latency,
            OutputFormat format, String loadLabel, PrintWriter out) {
        requireReplacement(lbm, "transient");
        Policy policy = lbm.policy();
        ArrivalRate rate = lbm.arrivalRate();
        WorkloadInitialState start = switch (init) {
            case "empty" -> WorkloadInitialState.empty();
            case "fixed-point" -> {
                double lambda0 = rate.at(grid.start());
                if (!(lambda0 < 1)) {
                    throw MflbException.invalid("init", init, "empty when lambda(0) = " + lambda0 + " >= 1 (no"
                            + " equilibrium to start from)");
                }
                yield WorkloadInitialState.equilibrium(lambda0);
            }
            default -> throw MflbException.invalid("init", init, "empty or fixed-point (the equilibrium at lambda(0))"
                    + " with --policy ll");
        };
        latency.percentiles();
        WorkloadTransient tr = WorkloadTransport.of(policy.d(), rate, lbm.service()).withRichardson(true)
                .transientFrom(start, grid);
        int steps = grid.size();
        double[] wait = new double[steps];
        double[] response = new double[steps];
        double[] busy = new double[steps];
        double[] work = new double[steps];
        for (int k = 0; k < steps; k++) {
            wait[k] = tr.meanWaitingTime(k);
            response[k] = tr.meanResponseTime(k);
            busy[k] = tr.busyFraction(k);
            work[k] = tr.meanWorkload(k);
        }
        PercentileOptions.Series quantiles = latency.series(steps, tr::responseTime);
        double[] p = quantiles.percentiles();
        switch (format) {
            case json -> {
                ObjectNode j = Printer.object();
                j.put("system", lbm.system().name());
                j.put("policy", policy.id());
                j.put("d", policy.d());
                j.put("lambda", rate.at(grid.start()));
                j.put("service", lbm.service().spec());
                j.put("init", start.toString());
                j.set("t", Printer.array(grid.toArray()));
                j.set("meanWaitingTime", Printer.array(wait));
                j.set("meanResponseTime", Printer.array(response));
                j.set("busyFraction", Printer.array(busy));
                j.set("meanWorkload", Printer.array(work));
                quantiles.putJson(j, "responseTimeQuantiles");
                j.put("step", tr.step());
                j.put("reach", tr.reach());
                j.put("richardson", tr.richardson());
                Printer.printJson(out, j);
            }
            case csv -> {
                StringBuilder header = new StringBuilder("t,meanWaitingTime,meanResponseTime,busyFraction,meanWorkload");
                for (double v : p) {
                    header.append(",responseTime_p").append(PercentileOptions.label(v));
                }
                out.println(header);
                for (int k = 0; k < steps; k++) {
                    StringBuilder row = new StringBuilder(Printer.csv(grid.time(k)));
                    for (double v : new double[] {wait[k], response[k], busy[k], work[k]}) {
                        row.append(',').append(Printer.csv(v));
                    }
                    for (double v : quantiles.quantiles()[k]) {
                        row.append(',').append(Printer.csv(v));
                    }
                    out.println(row);
                }
            }
            case table -> {
                out.println("Transient of LL(" + policy.d() + ") on single-server queues, " + loadLabel + ", job sizes "
                        + lbm.service().spec() + ", from " + start + " (workload transport, step " + tr.step()
                        + " with Richardson extrapolation, reach " + Printer.number(tr.reach()) + ")");
                out.println();
                String[] header = new String[5 + p.length];
                header[0] = "t";
                header[1] = "E[W]";
                header[2] = "E[R]";
                header[3] = "busy";
                header[4] = "mean workload";
                for (int i = 0; i < p.length; i++) {
                    header[5 + i] = "R p" + PercentileOptions.label(p[i]);
                }
                Printer.Table table = new Printer.Table(header);
                for (int k = 0; k < steps; k++) {
                    String[] row = new String[header.length];
                    row[0] = Printer.number(grid.time(k));
                    row[1] = Printer.number(wait[k]);
                    row[2] = Printer.number(response[k]);
                    row[3] = Printer.number(busy[k]);
                    row[4] = Printer.number(work[k]);
                    for (int i = 0; i < p.length; i++) {
                        row[5 + i] = Printer.number(quantiles.quantiles()[k][i]);
                    }
                    table.row(row);
                }
                table.print(out);
            }
        }
        return 0;
    }
}
