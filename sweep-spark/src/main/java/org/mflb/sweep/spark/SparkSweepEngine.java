package org.mflb.sweep.spark;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.spark.JobExecutionStatus;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.sweep.PointResult;
import org.mflb.sweep.PointRunner;
import org.mflb.sweep.SweepEngine;
import org.mflb.sweep.SweepPoint;

/**
 * {@code --engine spark}: the points of a sweep as the tasks of one Spark job, one point per task
 * (up to {@link #MAX_PARTITIONS} partitions), each computed by {@link PointRunner} on an executor.
 * A point's numbers depend on its command line alone (its seed included), so they are those of the
 * local engine to the last digit.
 *
 * <p>The master is {@code --master}, else the {@code spark.master} that {@code spark-submit} sets.
 * A {@code local[N]} master runs Spark embedded in this process, bound to the loopback interface
 * (driver host and bind address 127.0.0.1, no UI) unless the Spark configuration says otherwise;
 * for a cluster master the executors receive the job jar this class was loaded from, unless
 * {@code spark.jars} names one.
 */
public final class SparkSweepEngine implements SweepEngine {

    /** The engine's name, {@code spark}. */
    public static final String NAME = "spark";

    /** Most partitions of the job (grids larger than this put several points in a task). */
    public static final int MAX_PARTITIONS = 10_000;

    private static final long POLL_MILLIS = 500;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<PointResult> run(List<SweepPoint> points, Settings settings, Consumer<String> progress) {
        // spark-submit passes the master (and the rest of the configuration) as spark.* system properties
        String master = settings.master() != null ? settings.master() : System.getProperty("spark.master");
        if (master == null || master.isBlank()) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "master", "master is missing: must be given with"
                    + " --engine spark: local[N] (embedded) or spark://host:port (a cluster), or set by spark-submit");
        }
        boolean embedded = master.startsWith("local");
        if (embedded) {
            quietLogging(); // before the first Spark class initialises log4j
        }
        SparkConf conf = new SparkConf().setAppName("mflb sweep").setMaster(master);
        if (embedded) {
            conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
            conf.setIfMissing("spark.driver.host", "127.0.0.1");
            conf.setIfMissing("spark.ui.enabled", "false");
        } else if (!conf.contains("spark.jars")) {
            jobJar().ifPresent(jar -> conf.set("spark.jars", jar.toString()));
        }
        try (JavaSparkContext spark = new JavaSparkContext(conf)) {
            spark.setLogLevel("WARN");
            int partitions = Math.max(1, Math.min(points.size(), MAX_PARTITIONS));
            JavaFutureAction<List<PointResult>> job = spark.parallelize(points, partitions).map(PointRunner::run)
                    .collectAsync();
            int reported = -1;
            while (true) {
                try {
                    List<PointResult> results = job.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                    progress.accept("[" + points.size() + "/" + points.size() + "] points finished on Spark (" + master + ")");
                    return results;
                } catch (TimeoutException e) {
                    int finished = finishedTasks(spark, job) * points.size() / partitions;
                    if (finished != reported) {
                        progress.accept("[" + finished + "/" + points.size() + "] points finished on Spark ("
                                + master + ")...");
                        reported = finished;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("sweep interrupted", e);
        } catch (ExecutionException e) {
            throw new MflbException(ErrorKind.INPUT, "engine", "the Spark job failed: " + e.getCause());
        }
    }

    private static int finishedTasks(JavaSparkContext spark, JavaFutureAction<?> job) {
        int done = 0;
        for (int id : job.jobIds()) {
            SparkJobInfo info = spark.statusTracker().getJobInfo(id);
            if (info == null || info.status() == JobExecutionStatus.UNKNOWN) {
                continue;
            }
            for (int stage : info.stageIds()) {
                SparkStageInfo s = spark.statusTracker().getStageInfo(stage);
                if (s != null) {
                    done += s.numCompletedTasks();
                }
            }
        }
        return done;
    }

    /** Spark's INFO lines would drown the sweep's progress: WARN and above, unless log4j is configured. */
    private static void quietLogging() {
        if (System.getProperty("log4j2.configurationFile") == null && System.getProperty("log4j.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "org/mflb/sweep/spark/log4j2-sweep.properties");
        }
    }

    /** @return the jar this engine was loaded from (the job jar), if it was loaded from a jar */
    private static java.util.Optional<Path> jobJar() {
        CodeSource source = SparkSweepEngine.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return java.util.Optional.empty();
        }
        try {
            Path path = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(path) && path.toString().endsWith(".jar") ? java.util.Optional.of(path)
                    : java.util.Optional.empty();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
    }
}
