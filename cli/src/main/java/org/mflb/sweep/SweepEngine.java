package org.mflb.sweep;

import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the points of a sweep, each with {@link PointRunner#run}. The built-in engine is
 * {@link LocalSweepEngine}; others (Apache Spark, in the {@code sweep-spark} module) are found with
 * {@link java.util.ServiceLoader} when they are on the classpath. An engine changes where points
 * run, never their numbers: a point's result depends on its command line alone.
 */
public interface SweepEngine {

    /** @return the engine's name on the command line ({@code --engine NAME}) */
    String name();

    /**
     * @param points the grid's points
     * @param settings the engine options of the command line
     * @param progress receives {@code [k/n] ...} lines as points finish
     * @return one result per point, in the points' order
     */
    List<PointResult> run(List<SweepPoint> points, Settings settings, Consumer<String> progress);

    /**
     * The engine options of {@code mflb sweep}.
     *
     * @param threads points run at once by the local engine
     * @param master the Spark master URL ({@code local[N]}, {@code spark://host:port}), or {@code null}
     */
    record Settings(int threads, String master) {
    }

    /** @return the progress line of a finished point: {@code [k/n] params: ok} or {@code ...: FAILED (error)} */
    static String progressLine(int finished, int total, SweepPoint point, PointResult result) {
        return "[" + finished + "/" + total + "] " + point.label() + ": "
                + (result.succeeded() ? "ok" : "FAILED (" + result.error() + ")");
    }
}
