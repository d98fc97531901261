package org.mflb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.model.ArrivalProfiles;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.pde.HydrodynamicPde;
import org.mflb.pde.PdeEquilibrium;
import org.mflb.pde.PdeInitialState;
import org.mflb.pde.PdeSojournTimes;
import org.mflb.pde.PdeTransient;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb pde}: the hydrodynamic PDE of SQ(d) with general service (docs/models.md §5). */
@Command(name = "pde", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Hydrodynamic limit of SQ(d) (d = 1: random routing) with general service times: transient"
                + " on the grid 0, dt, ..., t-end (second-order upwind scheme along characteristics), or the"
                + " equilibrium (--equilibrium).")
public final class PdeCommand implements Callable<Integer> {

    @Option(names = "--d", required = true, paramLabel = "D", description = "Servers sampled per arrival (>= 1).")
    int d;

    @Option(names = "--lambda", paramLabel = "L", description = "Arrival rate per server.")
    Double lambda;

    @Option(names = "--lambda-profile", paramLabel = "FILE",
            description = "Time-varying arrival rate per server: a CSV file of t,lambda points (linear in between).")
    String lambdaProfile;

    @Option(names = "--service", paramLabel = "SPEC", defaultValue = "exp",
            description = "Service law (default: ${DEFAULT-VALUE}): exp, det, erlang:k=2, gamma:scv=C2, h2:scv=C2,"
                    + " lognormal:scv=C2, weibull:shape=K, pareto:shape=A, ph:alpha=[..],T=[[..]..] (mean 1 unless"
                    + " ,mean=M).")
    String service;

    @Option(names = "--t-end", paramLabel = "T", description = "Final time (transient).")
    Double tEnd;

    @Option(names = "--dt", paramLabel = "STEP", description = "Spacing of the output times (transient).")
    Double dt;

    @Option(names = "--init", paramLabel = "empty|tail:1,x1,..|tail-eq:1,x1,..|all:K", defaultValue = "empty",
            description = "Initial state (default: ${DEFAULT-VALUE}); tail and all:K: jobs in service start at age 0,"
                    + " tail-eq: with equilibrium ages.")
    String init;

    @Option(names = "--da", paramLabel = "STEP", description = "Fixed age (= time) step (default: chosen by --tolerance).")
    Double da;

    @Option(names = "--tolerance", paramLabel = "EPS",
            description = "Transient: accuracy of the tail vector, in (0, 0.1); the age step is chosen from the scheme's"
                    + " second order by two probe grids (default: 1e-4 unless --da is given).")
    Double tolerance;

    @Mixin
    PercentileOptions latency;

    @Option(names = "--richardson", description = "Richardson extrapolation over da and da/2 (more accuracy).")
    boolean richardson;

    @Option(names = "--levels", paramLabel = "L", description = "Levels kept (default: automatic).")
    Integer levels;

    @Option(names = "--equilibrium", description = "Compute the equilibrium instead of a transient.")
    boolean equilibrium;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Percentiles percentiles = latency.percentiles();
        HydrodynamicPde pde = HydrodynamicPde.of(d, arrivalRate(), ServiceDistributions.parse(service));
        if (da != null && tolerance != null) {
            throw MflbException.invalid("tolerance", tolerance, "absent when --da is given (a fixed age step)");
        }
        if (tolerance != null && equilibrium) {
            throw new ParameterException(spec.commandLine(), "--tolerance cannot be used with --equilibrium (it chooses"
                    + " the age step of a transient; the equilibrium has its own tolerances)");
        }
        if (tolerance != null && !(tolerance > 0 && tolerance < 0.1)) {
            throw MflbException.invalid("tolerance", tolerance, "in (0, 0.1)"); // 0 is the library's "no target"
        }
        if (da != null) {
            pde = pde.withAgeStep(da);
        } else {
            pde = pde.withTolerance(tolerance != null ? tolerance : DEFAULT_TOLERANCE);
        }
        if (levels != null) {
            pde = pde.withLevels(levels);
        }
        pde = pde.withRichardson(richardson);
        PrintWriter out = spec.commandLine().getOut();
        if (equilibrium) {
            if (tEnd != null || dt != null) {
                throw MflbException.invalid(tEnd != null ? "t-end" : "dt", tEnd != null ? tEnd : dt,
                        "absent with --equilibrium (they define a transient)");
            }
            if (lambdaProfile != null) {
                throw MflbException.invalid("lambda-profile", lambdaProfile,
                        "absent with --equilibrium (an equilibrium needs a constant --lambda)");
            }
            printEquilibrium(out, pde, pde.equilibrium());
        } else {
            if (tEnd == null || dt == null) {
                throw MflbException.missing(tEnd == null ? "t-end" : "dt", "for a transient (or use --equilibrium)");
            }
            TimeGrid grid = TimeGrid.uniform(tEnd, dt);
            PdeInitialState initial = PdeInitialState.parse(init);
            printTransient(out, pde, initial, pde.withSojournTimes(percentiles).transientFrom(initial, grid));
        }
        return 0;
    }

    /** @return {@code λ} from exactly one of {@code --lambda} and {@code --lambda-profile} */
    private ArrivalRate arrivalRate() {
        if (lambda != null && lambdaProfile != null) {
            throw MflbException.invalid("lambda", lambda, "absent when --lambda-profile is given (one or the other)");
        }
        if (lambdaProfile != null) {
            return ArrivalProfiles.read(Path.of(lambdaProfile));
        }
        if (lambda == null) {
            throw MflbException.missing("lambda", "(a number >= 0), or --lambda-profile FILE");
        }
        return ArrivalRate.constant(Require.nonNegative("lambda", lambda));
    }

    /** @return the arrival rate as the user gave it, for the output */
    private String lambdaLabel() {
        return lambdaProfile != null ? "profile " + lambdaProfile : String.valueOf(lambda);
    }

    private void putLambda(ObjectNode json) {
        if (lambdaProfile != null) {
            json.put("lambdaProfile", lambdaProfile);
        } else {
            json.put("lambda", lambda);
        }
    }

    /** Default accuracy of a transient's tail vector. */
    static final double DEFAULT_TOLERANCE = 1e-4;

    private void printEquilibrium(PrintWriter out, HydrodynamicPde pde, PdeEquilibrium eq) {
        double[] tail = eq.tail();
        PdeSojournTimes sojourn = pde.sojournTimes(eq, latency.percentiles());
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("d", d);
                putLambda(json);
                json.put("service", pde.service().spec());
                json.set("tail", Printer.array(tail));
                Printer.put(json, "meanQueueLength", eq.meanQueueLength());
                Printer.put(json, "meanWait", eq.meanWait());
                Printer.put(json, "converged", eq.residual());
                Printer.put(json, "cutOffMass", eq.cutOffMass());
                Printer.put(json, "cutOffUncertainty", eq.cutOffUncertainty());
                Printer.put(json, "ageTruncation", eq.ageTruncation());
                latency.putResponse(json, sojourn.response());
                json.set("waitingTimeQuantiles", latency.quantiles(sojourn.waiting()));
                Printer.printJson(out, json);
            }
            case csv -> {
                out.println("level,x");
                for (int i = 0; i < tail.length; i++) {
                    out.println(i + "," + Printer.csv(tail[i]));
                }
            }
            case table -> {
                out.println("Equilibrium of the PDE: SQ(" + d + "), lambda = " + lambda + ", service "
                        + pde.service().spec());
                out.println("  mean queue length " + Printer.number(eq.meanQueueLength()) + ", mean wait "
                        + Printer.number(eq.meanWait()));
                out.println("  residual " + Printer.number(eq.residual()) + ", levels " + eq.levels()
                        + " (cut-off mass " + Printer.number(eq.cutOffMass()) + " +- "
                        + Printer.number(eq.cutOffUncertainty()) + ", included in the mean)");
                out.println("  mean response time " + Printer.number(sojourn.meanResponseTime()) + "; response time "
                        + latency.summary(sojourn.response()));
                out.println("  waiting time: P(W = 0) " + Printer.number(sojourn.idleShare()) + ", "
                        + latency.summary(sojourn.waiting()));
                Printer.Table table = new Printer.Table("level", "x");
                for (int i = 1; i < tail.length; i++) {
                    table.row(Integer.toString(i), Printer.number(tail[i]));
                }
                table.print(out);
            }
        }
    }

    private void printTransient(PrintWriter out, HydrodynamicPde pde, PdeInitialState initial, PdeTransient tr) {
        TimeGrid grid = tr.grid();
        int steps = grid.size();
        double[][] tails = new double[steps][];
        double[] mean = new double[steps];
        double[] wait = new double[steps];
        for (int k = 0; k < steps; k++) {
            tails[k] = tr.tail(k);
            mean[k] = tr.meanQueueLength(k);
            wait[k] = tr.meanWait(k);
        }
        PercentileOptions.Series response = latency.series(steps, k -> tr.sojournTimes(k).response());
        PercentileOptions.Series waiting = latency.series(steps, k -> tr.sojournTimes(k).waiting());
        double[] p = response.percentiles();
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                json.put("d", d);
                putLambda(json);
                json.put("service", pde.service().spec());
                json.put("init", initial.toString());
                json.set("t", Printer.array(grid.toArray()));
                json.set("tail", Printer.matrix(tails));
                json.set("meanQueueLength", Printer.array(mean));
                json.set("meanWait", Printer.array(wait));
                response.putJson(json, "responseTimeQuantiles");
                waiting.putJson(json, "waitingTimeQuantiles");
                json.set("meanResponseTime", Printer.array(response.mean()));
                json.put("ageStep", tr.ageStep());
                Printer.put(json, "errorEstimate", tr.errorEstimate());
                json.put("richardson", tr.richardson());
                json.put("levels", tr.levels());
                Printer.put(json, "cutOffMass", tr.levelCutOffMass());
                Printer.put(json, "agedMass", tr.agedMass());
                Printer.printJson(out, json);
            }
            case csv -> {
                StringBuilder header = new StringBuilder("t,meanQueueLength,meanWait,meanResponseTime");
                for (double pi : p) {
                    header.append(",responseTime_p").append(PercentileOptions.label(pi));
                }
                for (int i = 0; i <= tr.levels(); i++) {
                    header.append(",x").append(i);
                }
                out.println(header);
                for (int k = 0; k < steps; k++) {
                    StringBuilder line = new StringBuilder(Printer.csv(grid.time(k)));
                    line.append(',').append(Printer.csv(mean[k])).append(',').append(Printer.csv(wait[k]));
                    line.append(',').append(Printer.csv(response.mean()[k]));
                    for (double q : response.quantiles()[k]) {
                        line.append(',').append(Printer.csv(q));
                    }
                    for (double x : tails[k]) {
                        line.append(',').append(Printer.csv(x));
                    }
                    out.println(line);
                }
            }
            case table -> {
                out.println("PDE transient: SQ(" + d + "), lambda = " + lambdaLabel() + ", service "
                        + pde.service().spec() + ", from " + initial);
                String estimate = Double.isNaN(tr.errorEstimate()) ? ""
                        : " (estimated error " + Printer.number(tr.errorEstimate()) + ")";
                out.println("  age step " + Printer.number(tr.ageStep()) + (tr.richardson() ? " (Richardson with da/2)" : "")
                        + estimate + ", levels " + tr.levels() + " (cut-off mass " + Printer.number(tr.levelCutOffMass())
                        + ")");
                int shown = Math.min(TransientCommand.TABLE_LEVELS, tr.levels());
                int extra = 1 + p.length;
                String[] header = new String[3 + extra + shown];
                header[0] = "t";
                header[1] = "mean queue";
                header[2] = "mean wait";
                header[3] = "E[T]";
                for (int i = 0; i < p.length; i++) {
                    header[4 + i] = "T p" + PercentileOptions.label(p[i]);
                }
                for (int i = 1; i <= shown; i++) {
                    header[2 + extra + i] = "x_" + i;
                }
                Printer.Table table = new Printer.Table(header);
                for (int k = 0; k < steps; k++) {
                    String[] row = new String[header.length];
                    row[0] = Printer.number(grid.time(k));
                    row[1] = Printer.number(mean[k]);
                    row[2] = Printer.number(wait[k]);
                    row[3] = Printer.number(response.mean()[k]);
                    for (int i = 0; i < p.length; i++) {
                        row[4 + i] = Printer.number(response.quantiles()[k][i]);
                    }
                    for (int i = 1; i <= shown; i++) {
                        row[2 + extra + i] = Printer.number(tails[k][i]);
                    }
                    table.row(row);
                }
                table.print(out);
            }
        }
    }
}
