package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mflb simulate}: the JSON contract of issue 3 and one clear line for bad input. */
class SimulateCommandTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Mflb.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static JsonNode json(String... args) throws Exception {
        Run r = run(args);
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    private static void assertEstimate(JsonNode node) {
        assertTrue(node.get("mean").isNumber(), node.toString());
        assertEquals(2, node.get("ci95").size());
        assertTrue(node.get("ci95").get(0).asDouble() <= node.get("mean").asDouble());
        assertTrue(node.get("ci95").get(1).asDouble() >= node.get("mean").asDouble());
    }

    @Test
    void steadyStateJsonHoldsTheContractKeys() throws Exception {
        JsonNode q = json("simulate", "--system", "supermarket", "--policy", "sqd", "--d", "2", "--lambda", "0.9",
                "--n", "100", "--t-end", "200", "--replications", "2", "--seed", "5", "--format", "json");
        assertEstimate(q.get("meanQueueLength"));
        assertEstimate(q.get("meanResponseTime"));
        assertEquals(1.0, q.get("tail").get("mean").get(0).asDouble());
        assertEquals(q.get("tail").get("mean").size(), q.get("tail").get("ci95Low").size());
        assertEquals(q.get("tail").get("mean").size(), q.get("tail").get("ci95High").size());
        assertTrue(q.get("events").asLong() > 0);
        assertTrue(q.get("eventsPerSecond").asDouble() > 0);
        assertFalse(q.has("blocking"));
        assertFalse(q.has("t"));

        JsonNode loss = json("simulate", "--system", "loss", "--capacity", "3", "--policy", "jsq", "--lambda", "2",
                "--n", "50", "--t-end", "100", "--service", "h2:scv=4", "--format", "json");
        assertEstimate(loss.get("blocking"));
        assertFalse(loss.has("meanResponseTime"));
        assertTrue(loss.get("tail").get("mean").size() <= 4, "no pool above its capacity");
    }

    @Test
    void engineAndResponseTimeQuantilesInJson() throws Exception {
        String[] base = {"simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.8", "--n", "50",
            "--t-end", "300", "--replications", "3", "--seed", "3", "--format", "json", "--engine"};
        JsonNode auto = json(concat(base, "auto"));
        assertEquals("occupancy", auto.get("engine").asText(), "auto takes the occupancy engine where it is exact");
        JsonNode agent = json(concat(base, "agent"));
        assertEquals("agent", agent.get("engine").asText());
        for (JsonNode j : new JsonNode[] {auto, agent}) {
            JsonNode q = j.get("responseTimeQuantiles");
            assertEquals(4, q.size(), "default percentiles 50, 90, 99, 99.9");
            double previous = 0;
            for (int k = 0; k < q.size(); k++) {
                JsonNode e = q.get(k);
                assertEquals(4, e.size(), "keys p, mean, ci95Low, ci95High: " + e);
                assertEquals(new double[] {50, 90, 99, 99.9}[k], e.get("p").asDouble());
                assertTrue(e.get("ci95Low").asDouble() <= e.get("mean").asDouble()
                        && e.get("mean").asDouble() <= e.get("ci95High").asDouble(), e.toString());
                assertTrue(e.get("mean").asDouble() > previous, "quantiles increase: " + q);
                previous = e.get("mean").asDouble();
            }
            assertEquals("conditional", j.get("responseTimeQuantileMethod").asText());
            // a steady-state run with 3 replications: the busy-fraction control variate too, same form
            JsonNode cv = j.get("controlVariateResponseTimeQuantiles");
            assertEquals(4, cv.size(), j.toString());
            for (int k = 0; k < cv.size(); k++) {
                JsonNode e = cv.get(k);
                assertEquals(4, e.size(), "keys p, mean, ci95Low, ci95High: " + e);
                assertEquals(q.get(k).get("p").asDouble(), e.get("p").asDouble());
                assertTrue(e.get("ci95Low").asDouble() <= e.get("mean").asDouble()
                        && e.get("mean").asDouble() <= e.get("ci95High").asDouble(), e.toString());
            }
        }
        assertEquals(4, agent.get("perJobResponseTimeQuantiles").size(), "the agent engine also measures jobs");
        JsonNode transientRun = json("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.8",
                "--n", "50", "--t-end", "100", "--dt", "50", "--replications", "3", "--format", "json");
        assertTrue(transientRun.has("responseTimeQuantiles"));
        assertFalse(transientRun.has("controlVariateResponseTimeQuantiles"),
                "E[x_1] = lambda holds only in steady state: no control variate with --dt");
        JsonNode general = json("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.8", "--n",
                "50", "--t-end", "200", "--replications", "2", "--service", "h2:scv=2", "--percentiles", "50,95",
                "--format", "json");
        assertEquals("agent", general.get("engine").asText());
        assertEquals("per-job", general.get("responseTimeQuantileMethod").asText());
        assertEquals(2, general.get("responseTimeQuantiles").size());
    }

    @Test
    void transientJsonAndProfile(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("lambda.csv");
        Files.writeString(profile, "t,lambda\n0,0.5\n2,1.5\n4,0.5\n");
        JsonNode p = json("simulate", "--system", "pools", "--policy", "random", "--lambda-profile", profile.toString(),
                "--n", "100", "--t-end", "4", "--dt", "1", "--replications", "3", "--format", "json");
        assertEquals(5, p.get("t").size());
        JsonNode traj = p.get("tailTrajectory");
        assertEquals(5, traj.get("mean").size());
        assertEquals(5, traj.get("ci95Low").size());
        assertEquals(5, traj.get("ci95High").size());
        assertEquals(0.0, traj.get("mean").get(0).get(1).asDouble(), "starts empty");
        assertEquals(profile.toString(), p.get("lambdaProfile").asText());
    }

    @Test
    void sameSeedSameOutputWhateverTheThreads() throws Exception {
        String[] base = {"simulate", "--system", "supermarket", "--policy", "jiq", "--lambda", "0.8", "--n", "40",
            "--t-end", "100", "--replications", "4", "--seed", "9", "--format", "json", "--threads"};
        JsonNode one = json(concat(base, "1"));
        JsonNode two = json(concat(base, "2"));
        assertEquals(one.get("tail"), two.get("tail"));
        assertEquals(one.get("meanResponseTime"), two.get("meanResponseTime"));
        assertEquals(one.get("events"), two.get("events"));
    }

    private static String[] concat(String[] a, String b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + 1);
        c[a.length] = b;
        return c;
    }

    @Test
    void badInputGivesOneLineAndNonZeroExit(@TempDir Path dir) throws Exception {
        Path malformed = dir.resolve("bad.csv");
        Files.writeString(malformed, "t,lambda\n0,0.5\nx,1\n");
        String[][] cases = {
            {"--n", "0", "--lambda", "0.5"},
            {"--n", "10", "--lambda", "0"},
            {"--n", "10", "--lambda", "1.2"},
            {"--n", "10", "--lambda", "0.5", "--service", "pareto:shape=1"},
            {"--n", "10", "--lambda", "0.5", "--service", "nosuch"},
            {"--n", "10", "--lambda-profile", malformed.toString()},
            {"--n", "10", "--lambda-profile", dir.resolve("missing.csv").toString()},
            {"--n", "10", "--lambda", "0.5", "--init", "tail:1,0.5,0.7"},
            {"--n", "10", "--lambda", "0.5", "--capacity", "3"},
            {"--n", "10", "--lambda", "0.5", "--d", "3"},
            {"--n", "10", "--lambda", "0.5", "--warmup", "20"},
            {"--n", "10", "--lambda", "0.5", "--percentiles", "50,100"},
            {"--n", "10", "--lambda", "0.5", "--percentiles", "0"},
            {"--n", "10", "--lambda", "0.5", "--engine", "fastest"},
            {"--n", "10", "--lambda", "0.5", "--engine", "occupancy", "--service", "lognormal:scv=4"},
        };
        for (String[] c : cases) {
            String[] args = new String[c.length + 7];
            args[0] = "simulate";
            args[1] = "--system";
            args[2] = "supermarket";
            args[3] = "--policy";
            args[4] = "random";
            args[5] = "--t-end";
            args[6] = "10";
            System.arraycopy(c, 0, args, 7, c.length);
            Run r = run(args);
            assertEquals(1, r.code(), String.join(" ", c) + ": " + r.err());
            assertTrue(r.err().startsWith("mflb: "), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
            assertTrue(r.out().isEmpty());
        }
        Run missing = run("simulate", "--system", "pools", "--policy", "random", "--n", "10", "--t-end", "1");
        assertEquals(2, missing.code(), "usage error");
    }
}
