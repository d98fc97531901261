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
 *
 * <p>Failures are one line: a master Spark cannot use is refused before Spark starts, a
 * {@code spark://} master that accepts no connection within {@value #CONNECT_TIMEOUT_MILLIS} ms
 * (system property {@value #CONNECT_TIMEOUT_PROPERTY}) is refused, and Spark's own log is off unless
 * the environment variable {@value #LOG_ENV} names a level (e.g. {@code warn}).
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
        requireValidMaster(master);
        quietLogging(); // before the first Spark class initialises log4j
        if (!embedded) {
            requireReachable(master);
        }
        SparkConf conf = new SparkConf().setAppName("mflb sweep").setMaster(master);
        if (embedded) {
            conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
            conf.setIfMissing("spark.driver.host", "127.0.0.1");
            conf.setIfMissing("spark.ui.enabled", "false");
        } else if (!conf.contains("spark.jars")) {
            jobJar().ifPresent(jar -> conf.set("spark.jars", jar.toString()));
        }
        try (JavaSparkContext spark = start(conf, master)) {
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
                    if (spark.sc().isStopped()) { // Spark gave up, e.g. on a cluster whose masters do not answer
                        throw new MflbException(ErrorKind.INPUT, "master", "the Spark context stopped before the sweep"
                                + " finished (master " + master + " unresponsive or the application killed)"
                                + LOG_HINT);
                    }
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
            throw new MflbException(ErrorKind.INPUT, "engine", "the Spark job failed: " + firstLine(e.getCause()) + LOG_HINT);
        }
    }

    /** Environment variable naming the level of Spark's own log (off, error, warn, info, debug; default off). */
    static final String LOG_ENV = "MFLB_SPARK_LOG";

    /** How to see Spark's own log, which is off by default. */
    static final String LOG_HINT = " (Spark's log: " + LOG_ENV + "=warn)";

    /** @return a Spark context for {@code conf}, or one line saying why Spark could not start */
    private static JavaSparkContext start(SparkConf conf, String master) {
        try {
            return new JavaSparkContext(conf);
        } catch (RuntimeException e) {
            throw new MflbException(ErrorKind.INPUT, "master", "Spark could not start with master " + master + ": "
                    + firstLine(e) + LOG_HINT);
        }
    }

    /** @return the first line of the innermost message, with its exception's simple name when it has none */
    static String firstLine(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return message.lines().findFirst().orElse(message).strip();
    }

    private static final java.util.regex.Pattern LOCAL = java.util.regex.Pattern.compile(
            "local(\\[(\\d+|\\*)(,\\s*\\d+)?\\])?");

    /**
     * Refuses at once a master Spark cannot use: {@code local}, {@code local[N]} or {@code local[N,F]} with
     * N >= 1, {@code local[*]}, {@code local-cluster[...]}, {@code yarn}, or a URL {@code scheme://...}.
     */
    static void requireValidMaster(String master) {
        java.util.regex.Matcher local = LOCAL.matcher(master);
        if (local.matches()) {
            if (local.group(2) != null && !local.group(2).equals("*") && Long.parseLong(local.group(2)) < 1) {
                throw MflbException.invalid("master", master, "local[N] with N >= 1 threads, local[*], or"
                        + " spark://host:port");
            }
            return;
        }
        if (!master.equals("yarn") && !master.startsWith("local-cluster[") && !master.matches("[a-z][a-z0-9+.-]*://.+")) {
            throw MflbException.invalid("master", master, "local, local[N] (N >= 1), local[*] or a URL such as"
                    + " spark://host:port");
        }
    }

    /** Milliseconds to wait for a {@code spark://} master to accept a connection ({@link #CONNECT_TIMEOUT_PROPERTY}). */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** System property overriding {@link #CONNECT_TIMEOUT_MILLIS}. */
    static final String CONNECT_TIMEOUT_PROPERTY = "mflb.spark.connectTimeoutMillis";

    /**
     * Refuses a {@code spark://host:port[,host:port]} master none of whose hosts accepts a TCP
     * connection within the timeout: Spark itself would retry for minutes, silently.
     */
    static void requireReachable(String master) {
        if (!master.startsWith("spark://")) {
            return; // yarn, k8s, ...: Spark's own client reports
        }
        int timeout = Integer.getInteger(CONNECT_TIMEOUT_PROPERTY, CONNECT_TIMEOUT_MILLIS);
        String last = "";
        for (String hostPort : master.substring("spark://".length()).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            String host = colon > 0 ? hostPort.substring(0, colon) : hostPort;
            int port;
            try {
                port = colon > 0 ? Integer.parseInt(hostPort.substring(colon + 1)) : 7077;
            } catch (NumberFormatException e) {
                throw MflbException.invalid("master", master, "spark://host:port with a port in [1, 65535]");
            }
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(host, port), timeout);
                return;
            } catch (java.io.IOException | IllegalArgumentException e) {
                last = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
        }
        throw new MflbException(ErrorKind.INPUT, "master", "cannot reach the Spark master " + master + " within "
                + timeout / 1000.0 + " s: " + last);
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

    /**
     * Spark's own log is off unless {@link #LOG_ENV} names a level, or log4j is configured: its INFO
     * lines would drown the sweep's progress, and its failures are reported in one line instead.
     * The properties resource reads the variable before log4j starts; the level is also set at run
     * time, for a log4j that an earlier Spark context (or the caller) has already started.
     */
    private static void quietLogging() {
        if (System.getProperty("log4j2.configurationFile") != null || System.getProperty("log4j.configurationFile") != null) {
            return;
        }
        System.setProperty("log4j2.configurationFile", "org/mflb/sweep/spark/log4j2-sweep.properties");
        String level = System.getenv(LOG_ENV);
        org.apache.logging.log4j.core.config.Configurator.setRootLevel(
                org.apache.logging.log4j.Level.toLevel(level == null || level.isBlank() ? "off" : level,
                        org.apache.logging.log4j.Level.OFF));
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
