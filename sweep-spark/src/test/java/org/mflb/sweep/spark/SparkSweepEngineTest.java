package org.mflb.sweep.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.mflb.sweep.CommandRunner;

/**
 * The Spark engine gives the local engine's numbers to the last digit: one small simulate grid on
 * an embedded {@code local[2]} Spark, bound to 127.0.0.1 (the surefire configuration sets
 * SPARK_LOCAL_IP, spark.driver.bindAddress and spark.driver.host to 127.0.0.1 and turns the UI off).
 */
class SparkSweepEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // distinct sampling: d = 21 > n = 20 is an invalid point, which the sweep reports and skips
    private static final String[] GRID = {"sweep", "simulate", "--system", "supermarket", "--policy", "sqd",
        "--sampling", "distinct", "--n", "20", "--lambda", "0.5,0.9", "--d", "2,21", "--t-end", "100", "--replications", "2", "--seed", "11",
        "--format", "json", "--quiet"};

    // text options: a list of policies and a list of service laws (split where a new law starts)
    private static final String[] TEXT_GRID = {"sweep", "simulate", "--system", "supermarket", "--policy", "sqd,jsq",
        "--service", "exp,lognormal:scv=4,mean=1", "--n", "20", "--lambda", "0.5", "--t-end", "50", "--replications", "2",
        "--seed", "5", "--format", "json", "--quiet"};

    private static JsonNode sweep(String... engine) throws Exception {
        return sweep(GRID, CommandRunner.EXIT_FAILURE, engine);
    }

    private static JsonNode sweep(String[] grid, int exitCode, String... engine) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(grid), java.util.Arrays.stream(engine))
                .toArray(String[]::new);
        int code = CommandRunner.load().execute(args, new PrintWriter(out), new PrintWriter(err));
        assertEquals(exitCode, code, err.toString());
        // --quiet: no progress, and Spark's own log is off by default
        assertEquals("", err.toString(), "stderr of a quiet sweep");
        return JSON.readTree(out.toString());
    }

    /** @return exit code and stderr of a sweep that fails, with the time it took */
    private static String[] failing(String master) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long start = System.nanoTime();
        int code = CommandRunner.load().execute(new String[] {"sweep", "simulate", "--system", "supermarket", "--policy",
            "sqd", "--n", "20", "--lambda", "0.5", "--t-end", "10", "--engine", "spark", "--master", master, "--quiet"},
                new PrintWriter(out), new PrintWriter(err));
        return new String[] {Integer.toString(code), err.toString(), Double.toString((System.nanoTime() - start) * 1e-9)};
    }

    @Test
    void aMasterSparkCannotUseIsOneLineBeforeSparkStarts() {
        String[] r = failing("local[0]");
        assertEquals("1", r[0]);
        assertEquals("mflb: master = local[0] is invalid: must be local[N] with N >= 1 threads, local[*], or"
                + " spark://host:port", r[1].strip());
        assertTrue(Double.parseDouble(r[2]) < 2, "refused before Spark starts: " + r[2] + " s");
    }

    @Test
    void anUnreachableClusterIsOneLineNotAHang() {
        // nothing listens on port 1 of the loopback interface: the connection is refused at once
        String[] r = failing("spark://127.0.0.1:1");
        assertEquals("1", r[0]);
        assertEquals(1, r[1].strip().lines().count(), r[1]);
        assertTrue(r[1].startsWith("mflb: cannot reach the Spark master spark://127.0.0.1:1 within 10.0 s: "), r[1]);
        assertTrue(Double.parseDouble(r[2]) < 11, "within the connect timeout: " + r[2] + " s");
    }

    @Test
    void mastersSparkUses() {
        for (String ok : new String[] {"local", "local[2]", "local[*]", "local[2,3]", "spark://h:7077", "yarn", "k8s://https://h:443"}) {
            SparkSweepEngine.requireValidMaster(ok);
        }
        for (String bad : new String[] {"local[0]", "local[x]", "locale", "spark"}) {
            org.junit.jupiter.api.Assertions.assertThrows(org.mflb.core.MflbException.class,
                    () -> SparkSweepEngine.requireValidMaster(bad), bad);
        }
    }

    @Test
    void sparkLocalGivesTheLocalEnginesNumbers() throws Exception {
        JsonNode local = sweep("--engine", "local", "--threads", "2");
        JsonNode spark = sweep("--engine", "spark", "--master", "local[2]");
        assertEquals(4, local.get("points").size());
        assertEquals(2, local.get("failed").asInt());
        assertTrue(local.get("points").get(1).get("error").asText().startsWith("d = 21 is invalid"));
        assertTrue(local.get("points").get(0).get("result").get("events").asLong() > 1000);
        assertEquals(withoutTiming(local), withoutTiming(spark));
    }

    @Test
    void policyAndServiceListsRunOnSpark() throws Exception {
        JsonNode local = sweep(TEXT_GRID, 0, "--engine", "local", "--threads", "2");
        JsonNode spark = sweep(TEXT_GRID, 0, "--engine", "spark", "--master", "local[2]");
        assertEquals(4, local.get("points").size());
        JsonNode last = local.get("points").get(3);
        assertEquals("jsq", last.get("params").get("policy").asText());
        assertEquals("lognormal:scv=4,mean=1", last.get("params").get("service").asText());
        assertEquals("jsq", last.get("result").get("policy").asText());
        assertEquals("lognormal:scv=4", last.get("result").get("service").asText());
        assertEquals(withoutTiming(local), withoutTiming(spark));
    }

    /** {@code eventsPerSecond} measures the machine: the one number that differs between any two runs. */
    private static JsonNode withoutTiming(JsonNode sweep) {
        ObjectNode copy = sweep.deepCopy();
        for (JsonNode p : (ArrayNode) copy.get("points")) {
            if (p.has("result")) {
                ((ObjectNode) p.get("result")).remove("eventsPerSecond");
            }
        }
        return copy;
    }
}
