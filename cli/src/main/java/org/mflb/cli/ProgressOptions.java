package org.mflb.cli;

import java.util.Locale;
import java.util.function.Supplier;

import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --quiet} of the long commands ({@code simulate}, {@code compare}, {@code diffusion}) and
 * their progress on stderr, drawn by {@link Progress} as {@code validate} draws it: a bar on a
 * terminal, otherwise a line per finished replication plus a heartbeat every
 * {@value Progress#HEARTBEAT_SECONDS} s while one runs; nothing with {@code --quiet}. Stdout is
 * untouched, so piped JSON stays clean.
 */
public final class ProgressOptions {

    @Option(names = "--quiet", description = "No progress on stderr (by default a bar on a terminal, otherwise a line"
            + " per finished step, e.g. replication, and a heartbeat every 10 s while a long one runs).")
    boolean quiet;

    /** @return the progress of this command on its stderr */
    Progress open(CommandSpec spec) {
        return new Progress(spec.commandLine().getErr(), quiet);
    }

    /** Runs {@code scenario}, reporting each replication folded into the estimates. */
    SimulationResult simulate(CommandSpec spec, SimulationScenario scenario) {
        try (Progress progress = open(spec)) {
            return simulate(progress, scenario);
        }
    }

    /** Runs {@code scenario} on an open progress: "[1/R] ... replications ..." then "[k/R]" per replication. */
    static SimulationResult simulate(Progress progress, SimulationScenario scenario) {
        int reps = scenario.run().replications();
        long start = System.nanoTime();
        progress.accept(String.format(Locale.ROOT, "[1/%d] simulating %d replication(s) of N = %d up to t = %s ...",
                reps, reps, scenario.run().servers(), Printer.number(scenario.run().tEnd())));
        return Simulator.run(scenario, done -> progress.accept(done < reps
                ? String.format(Locale.ROOT, "[%d/%d] %d of %d replications done ...", done + 1, reps, done, reps)
                : String.format(Locale.ROOT, "[%d/%d] %d replication(s) done (%.1f s)", reps, reps, reps,
                        (System.nanoTime() - start) * 1e-9)));
    }

    /**
     * Runs one long step that has no replications of its own to report: heartbeats (the first one
     * shows the step) and its end. Its start is not printed at once, so that an invalid input the
     * step finds first is the first line on stderr.
     */
    <T> T step(CommandSpec spec, String what, Supplier<T> work) {
        return step(spec, what, work, true);
    }

    /**
     * As {@link #step}, but silent when the step ends before the first heartbeat: for computations that
     * are usually instant (a fluid transient) and only sometimes long.
     */
    <T> T stepShownIfLong(CommandSpec spec, String what, Supplier<T> work) {
        return step(spec, what, work, false);
    }

    private <T> T step(CommandSpec spec, String what, Supplier<T> work, boolean alwaysShown) {
        try (Progress progress = open(spec)) {
            long start = System.nanoTime();
            progress.begin("[1/1] " + what + " ...");
            T result = work.get();
            if (alwaysShown || progress.begunStepShown()) {
                progress.accept(String.format(Locale.ROOT, "[1/1] %s: done (%.1f s)", what, (System.nanoTime() - start) * 1e-9));
            }
            return result;
        }
    }
}
