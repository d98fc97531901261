package org.mflb.sweep;

import java.io.PrintWriter;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The command line a sweep's points run on: a point is one command line, run in the calling thread
 * with its output captured. The sweep API depends on this interface only, not on the command line's
 * main class; the implementation ({@code org.mflb.cli.MflbCommandLine}) is found with
 * {@link ServiceLoader}, so an engine (Spark's executors) needs only this package and the classpath.
 */
public interface CommandRunner {

    /** Exit code of a run-time failure (bad value, no convergence). */
    int EXIT_FAILURE = 1;

    /**
     * Runs one command line.
     *
     * @param args the arguments, the command first ({@code simulate --n 100 ...})
     * @param out standard output
     * @param err standard error
     * @return the exit code: 0, {@link #EXIT_FAILURE}, or 2 for a malformed command line
     */
    int execute(String[] args, PrintWriter out, PrintWriter err);

    /** @return the commands that report progress of their own and take {@code --quiet} */
    Set<String> commandsWithProgress();

    /**
     * @return the command line on the classpath
     * @throws IllegalStateException if there is none (the {@code mflb-cli} module is missing)
     */
    static CommandRunner load() {
        return ServiceLoader.load(CommandRunner.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("no mflb command line on the classpath (module mflb-cli)"));
    }
}
