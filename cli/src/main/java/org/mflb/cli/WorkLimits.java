package org.mflb.cli;

import java.io.PrintWriter;

import org.mflb.core.WorkEstimate;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.Truncation;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --force} and the up-front work check of every command: the command estimates its run
 * ({@link WorkEstimate}: events, operations, memory) from its options before any long work, and
 * {@link #check} refuses it with the numbers or announces its size (README, "How big a run may be").
 * The estimators of the command families live here, so that one rule sizes them all.
 */
public final class WorkLimits {

    @Option(names = "--force", description = "Run even when the work is estimated at more than a day of one core"
            + " (the size is still announced; a run that cannot fit in memory is still refused).")
    boolean force;

    /**
     * Refuses the run if a part of it is beyond the limits, else announces the size of each long part
     * on stderr (also with --quiet: a notice of size is not progress).
     */
    void check(CommandSpec spec, WorkEstimate... parts) {
        for (WorkEstimate part : parts) {
            part.require(force);
        }
        PrintWriter err = spec.commandLine().getErr();
        for (WorkEstimate part : parts) {
            part.notice().ifPresent(err::println);
        }
        err.flush();
    }

    /**
     * Checks {@code estimate}, then runs {@code work}: with heartbeats on stderr when it was announced as
     * long, for the commands that have no progress of their own ({@code fixed-point}).
     */
    <T> T run(CommandSpec spec, WorkEstimate estimate, String what, java.util.function.Supplier<T> work) {
        check(spec, estimate);
        return estimate.notice().isPresent() ? new ProgressOptions().step(spec, what, work) : work.get();
    }

    /**
     * A simulation of {@code n} servers of a load-balancing model: {@code 2nλT} events per
     * replication (arrivals and departures), the estimate of {@code SimulationScenario}, whose own
     * check refuses the runs that cannot fit in the heap.
     */
    static WorkEstimate simulation(String task, double events, double tEnd, int replications, int threads) {
        return WorkEstimate.events(task, events, 0, "t-end", tEnd, "reduce --t-end, --n or --replications")
                .onCores(Math.min(threads, replications));
    }

    /**
     * A command whose run can be estimated from its options alone, without running it: the sweep
     * announces its long points before any runs.
     */
    interface Sized {
        /** @return the run's estimate; throws as the command would for an invalid option */
        WorkEstimate estimate();
    }

    /** Automatic truncations beyond this many levels are refused by the fluid models themselves. */
    static final double AUTOMATIC_LEVELS = 200_000;

    /**
     * Operations per {@code K³} of the loss pools' limits at {@code K} levels (a dense Schur form and
     * Sylvester solves): measured 1.5 (15 s of CPU at {@code C = 1000}), rounded up.
     */
    static final double LOSS_LIMIT_OPERATIONS_PER_CUBE = 2;

    /** Bytes a fluid model holds per level: the tail, the drift's work arrays, a Jacobian band, Newton's and the integrator's stages. */
    static final double FLUID_BYTES_PER_LEVEL = 8 * 64;
    /** Drift evaluations a fixed point takes at most (relaxation, Newton iterations, their Jacobians). */
    static final double FIXED_POINT_EVALUATIONS = 2000;

    /**
     * A fluid limit of a load-balancing model: its transient over {@code span} (0 for a fixed point
     * alone) and its fixed point. Levels K: a fixed truncation, else the solver's first guess (a
     * Poisson tail above the pool's load, the threshold plus a margin, 60 for single-server queues).
     * A drift evaluation costs {@code K·d} operations (SQ(d) sums {@code d} terms per level for its
     * derivatives); the Jacobian's spectral radius is about {@code λd} plus the top level's service
     * rate ({@code K} for pools, 1 for single servers). The option named in a refusal is the one that
     * makes the run big: {@code --d} beyond a thousand, a horizon of over a million steps, else what
     * sets the levels.
     */
    static WorkEstimate fluid(String task, LoadBalancingModel model, Truncation truncation, Integer threshold,
            double span) {
        double rate = model.arrivalRate().supremum(0, Math.max(span, 0)) * model.service().mean();
        boolean supermarket = model.system().kind() == ServerSystem.Kind.SUPERMARKET;
        // an overloaded single-server queue grows by (λE[S] − 1) jobs per time unit
        double poisson = supermarket ? 60 + Math.max(0, rate - 1) * Math.max(span, 0) : rate + 10 * Math.sqrt(rate) + 20;
        if (model.system().kind() == ServerSystem.Kind.LOSS) {
            poisson = Math.min(poisson, model.system().capacity() + 1);
        }
        boolean byThreshold = threshold != null && threshold + 4.0 > poisson;
        double levels = !truncation.isAutomatic() ? truncation.levels() : byThreshold ? threshold + 4.0 : poisson;
        if (truncation.isAutomatic() && !byThreshold && levels > AUTOMATIC_LEVELS) {
            // the fluid refuses such a run itself, at once, naming the levels the load needs
            return WorkEstimate.operations(task, 0, 0, "lambda", rate, "reduce --lambda");
        }
        int d = model.policy().d();
        double sampled = Math.max(1, d);
        double radius = model.arrivalRate().supremum(0, Math.max(span, 0)) * sampled + (supermarket ? 1 : levels);
        double steps = span > 0 ? WorkEstimate.integrationSteps(radius, span) : 0;
        double evaluation = levels * sampled;
        double operations = (FIXED_POINT_EVALUATIONS + WorkEstimate.EVALUATIONS_PER_STEP * steps) * evaluation;
        double bytes = FLUID_BYTES_PER_LEVEL * levels;
        if (model.system().kind() == ServerSystem.Kind.LOSS && span <= 0) {
            // the loss pools' limits (OU mean, blocking correction) rest on a dense real Schur form of the K x K Jacobian
            operations += LOSS_LIMIT_OPERATIONS_PER_CUBE * levels * levels * levels;
            bytes += MODEL_BYTES_PER_ENTRY * levels * levels;
        }
        String parameter;
        Object value;
        if (sampled > 1000) {
            parameter = "d";
            value = d;
        } else if (steps > 1e6) {
            parameter = "t-end";
            value = span;
        } else if (!truncation.isAutomatic()) {
            parameter = "truncation";
            value = truncation.levels();
        } else if (byThreshold) {
            parameter = "threshold";
            value = threshold;
        } else {
            parameter = "lambda";
            value = model.arrivalRate().supremum(0, Math.max(span, 0));
        }
        return WorkEstimate.operations(task + String.format(java.util.Locale.ROOT, " (%.3g levels, d = %.0f)", levels,
                sampled), operations, bytes, parameter, value, "reduce --" + parameter);
    }

    /** Operations per instruction of a model file's rate program (interpreted: a stack machine). */
    static final double INTERPRETED = 10;

    /** Bytes a model-file analysis holds per coordinate squared (dense Jacobians, Schur forms, LU). */
    static final double MODEL_BYTES_PER_ENTRY = 8 * 4;

    /**
     * A model file's fluid limit: its transient over {@code span} and its fixed point. A drift
     * evaluation costs the rate programs plus the jumps' entries; the spectral radius comes from
     * power iteration at the init state ({@link WorkEstimate#spectralRadius}); the fixed point adds
     * the dense linear algebra of the conservation laws' subspace and of Newton, {@code 30·K³}.
     */
    static WorkEstimate modelFile(String task, ModelFile file, double span, boolean fixedPoint) {
        double k = file.dimension();
        double evaluation = k + file.transitionCount();
        for (int l = 0; l < file.transitionCount(); l++) {
            evaluation += INTERPRETED * file.rates().length(l) + file.jumpCoordinates(l).length;
        }
        double radius = WorkEstimate.spectralRadius(file.model(), file.initialState());
        // the fixed point relaxes over a time of about 50 first
        double solve = fixedPoint ? 30 * k * k * k + FIXED_POINT_EVALUATIONS * evaluation : 0;
        double evaluations = WorkEstimate.EVALUATIONS_PER_STEP * WorkEstimate.integrationSteps(radius,
                fixedPoint ? Math.max(span, 50) : span);
        if (fixedPoint && span == 0) { // a stiff relaxation hands over to Newton when its budget is spent
            evaluations = Math.min(evaluations, FixedPointSolver.RELAXATION_EVALUATIONS);
        }
        double integrate = evaluations * evaluation;
        double bytes = fixedPoint ? MODEL_BYTES_PER_ENTRY * k * k : 0;
        if (span > 0 && integrate > solve) {
            return WorkEstimate.operations(task, solve + integrate, bytes, "t-end", span, "reduce --t-end");
        }
        return WorkEstimate.operations(task, solve + integrate, bytes, "model", file.file() + " (" + file.dimension()
                + " variables, " + file.transitionCount() + " transitions)",
                "fewer variables or transitions, smaller rates or multiplicities");
    }

    /**
     * A simulation of a model file's N-object chain: {@code N·Σβ(x₀)} events per unit time (the total
     * rate at the init state) over {@code horizon} and {@code replications}; counts only in memory.
     */
    static WorkEstimate modelFileSimulation(String task, ModelFile file, int n, double horizon, int replications,
            int threads) {
        double[] beta = new double[file.transitionCount()];
        file.model().rates(0, file.initialState(), beta);
        double total = 0;
        for (double b : beta) {
            total += Math.abs(b);
        }
        double events = (double) n * total * horizon * replications;
        return WorkEstimate.events(task, events, 0, "n", n, "reduce --n, --t-end or --replications")
                .onCores(Math.min(threads, replications));
    }
}
