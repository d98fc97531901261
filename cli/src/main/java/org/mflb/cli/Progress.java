package org.mflb.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Progress of a long command on stderr: a bar redrawn in place when stderr is a terminal, otherwise
 * the lines it is given plus a heartbeat line every {@link #HEARTBEAT_SECONDS} seconds while a step
 * runs (after a line that starts a step, {@code "[i/n] text..."}, or that finishes step {@code i < n});
 * nothing when quiet.
 */
final class Progress implements Consumer<String>, AutoCloseable {

    static final int HEARTBEAT_SECONDS = 10;

    private final PrintWriter err;
    private final boolean quiet;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService heartbeat;
    private volatile String current = "";
    /** A step begun by {@link #begin}: shown by the first heartbeat, or not at all if it ends sooner. */
    private boolean unshown;

    Progress(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
        this.terminal = System.console() != null;
        if (quiet) {
            heartbeat = null;
        } else {
            heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mflb-progress");
                t.setDaemon(true);
                return t;
            });
            heartbeat.scheduleAtFixedRate(this::beat, HEARTBEAT_SECONDS, HEARTBEAT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Receives "[i/n] text" lines from the validation run. */
    @Override
    public synchronized void accept(String line) {
        if (quiet) {
            return;
        }
        unshown = false;
        current = line;
        if (terminal) {
            int[] fraction = fraction(line);
            int width = 30;
            int filled = fraction[1] == 0 ? 0 : width * fraction[0] / fraction[1];
            String text = line.length() > 70 ? line.substring(0, 67) + "..." : line;
            err.print(String.format(Locale.ROOT, "\r[%s%s] %-70s %5.0f s", "#".repeat(filled),
                    ".".repeat(width - filled), text, elapsed()));
        } else {
            err.println(line);
        }
        err.flush();
    }

    /**
     * Begins a step without a line yet: a step that fails at once (invalid input found while it
     * starts) leaves its error as the first line on stderr; one that runs on is shown by the first
     * heartbeat.
     */
    synchronized void begin(String line) {
        if (!quiet) {
            current = line;
            unshown = true;
        }
    }

    /** @return whether the step begun by {@link #begin} has been shown (by a heartbeat or a line since) */
    synchronized boolean begunStepShown() {
        return !unshown;
    }

    private synchronized void beat() {
        if (unshown) {
            accept(current);
        }
        int[] fraction = fraction(current);
        // a step is running: the last line started one ("..."), or finished one of several (a sweep's points)
        if (!terminal && (current.endsWith("...") || fraction[0] < fraction[1])) {
            err.println(String.format(Locale.ROOT, "  ... still running (%.0f s elapsed)", elapsed()));
            err.flush();
        } else if (terminal) {
            accept(current);
        }
    }

    private double elapsed() {
        return (System.nanoTime() - start) * 1e-9;
    }

    /** Parses "[i/n]": steps finished (a line ending in "..." has started step i, finished i − 1). */
    private static int[] fraction(String line) {
        try {
            int slash = line.indexOf('/');
            int i = Integer.parseInt(line.substring(1, slash));
            int n = Integer.parseInt(line.substring(slash + 1, line.indexOf(']')));
            return new int[] {line.endsWith("...") ? i - 1 : i, n};
        } catch (RuntimeException e) {
            return new int[] {0, 0};
        }
    }

    @Override
    public void close() {
        if (heartbeat != null) {
            heartbeat.shutdownNow();
        }
        if (terminal && !quiet) {
            err.println();
            err.flush();
        }
    }
}
