package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mflb pde}: the JSON contract of issue 6 and one clear line for bad input. */
class PdeCommandTest {

    static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Mflb.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    static JsonNode json(String... args) throws Exception {
        String[] r = run(args);
        assertEquals("0", r[0], r[2]);
        return new ObjectMapper().readTree(r[1]);
    }

    /** Exit code 1 and a single line {@code mflb: ...} on stderr that names {@code parameter}. */
    static void assertOneLineError(String parameter, String... args) {
        String[] r = run(args);
        assertEquals("1", r[0], String.join(" ", args) + " -> " + r[2]);
        assertTrue(r[2].startsWith("mflb: "), r[2]);
        assertTrue(r[2].contains(parameter), "'" + parameter + "' not named in: " + r[2]);
        assertEquals(1, r[2].trim().split("\n").length, r[2]);
    }

    @Test
    void transientJsonHoldsTheContractKeys() throws Exception {
        JsonNode j = json("pde", "--d", "2", "--lambda", "0.9", "--service", "lognormal:scv=4", "--t-end", "2", "--dt",
                "1", "--format", "json");
        assertEquals("lognormal:scv=4", j.get("service").asText());
        assertEquals(3, j.get("t").size());
        assertEquals(3, j.get("tail").size());
        assertEquals(3, j.get("meanQueueLength").size());
        assertEquals(3, j.get("meanWait").size());
        assertEquals(1.0, j.get("tail").get(1).get(0).asDouble());
        // from empty: x_1(t) < λt (not every arrival finds an idle server) and > 0
        double x1 = j.get("tail").get(1).get(1).asDouble();
        assertTrue(x1 > 0.3 && x1 < 0.9, "x_1(1) = " + x1);
        // the mean queue length is the sum of the tail
        double sum = 0;
        for (int i = 1; i < j.get("tail").get(2).size(); i++) {
            sum += j.get("tail").get(2).get(i).asDouble();
        }
        assertEquals(sum, j.get("meanQueueLength").get(2).asDouble(), 1e-12);
    }

    @Test
    void equilibriumJsonMatchesTheClosedForms() throws Exception {
        JsonNode j = json("pde", "--d", "2", "--lambda", "0.9", "--service", "exp", "--equilibrium", "--format", "json");
        // exponential SQ(2): x_i = λ^(2^i − 1) (docs/models.md §1); the age solver reaches ~1e-7
        for (int i = 1; i <= 4; i++) {
            assertEquals(Math.pow(0.9, Math.pow(2, i) - 1), j.get("tail").get(i).asDouble(), 1e-6);
        }
        assertTrue(j.get("converged").asDouble() < 1e-10);
        assertTrue(j.has("meanQueueLength") && j.has("meanWait"));
        // M/G/1 with Pareto 2.5 (E[S²] = 1.8): Pollaczek–Khinchine 0.5 + 0.25·1.8/1 = 0.95, to 1e-4 relative
        j = json("pde", "--d", "1", "--lambda", "0.5", "--service", "pareto:shape=2.5", "--equilibrium", "--format",
                "json");
        assertEquals("pareto:shape=2.5", j.get("service").asText());
        assertEquals(0.95, j.get("meanQueueLength").asDouble(), 0.95e-4);
        assertEquals(0.95 / 0.5 - 1, j.get("meanWait").asDouble(), 1e-4);
        assertTrue(j.get("cutOffMass").asDouble() > 0 && j.has("cutOffUncertainty"));
    }

    @Test
    void lambdaProfileIsReadFromAFile(@TempDir Path dir) throws Exception {
        Path flat = dir.resolve("flat.csv");
        Files.writeString(flat, "# constant\nt,lambda\n0,0.9\n10,0.9\n", StandardCharsets.UTF_8);
        JsonNode constant = json("pde", "--d", "2", "--lambda", "0.9", "--service", "weibull:shape=0.5", "--t-end", "4",
                "--dt", "2", "--format", "json");
        JsonNode profile = json("pde", "--d", "2", "--lambda-profile", flat.toString(), "--service", "weibull:shape=0.5",
                "--t-end", "4", "--dt", "2", "--format", "json");
        assertEquals(flat.toString(), profile.get("lambdaProfile").asText());
        for (int k = 0; k < 3; k++) {
            for (int i = 1; i < 4; i++) {
                assertEquals(constant.get("tail").get(k).get(i).asDouble(), profile.get("tail").get(k).get(i).asDouble(),
                        1e-14);
            }
        }
        // a ramp to 1.5: more load than the constant 0.9 gives more jobs
        Path ramp = dir.resolve("ramp.csv");
        Files.writeString(ramp, "0,0.9\n4,1.5\n", StandardCharsets.UTF_8);
        JsonNode up = json("pde", "--d", "2", "--lambda-profile", ramp.toString(), "--service", "weibull:shape=0.5",
                "--t-end", "4", "--dt", "2", "--format", "json");
        assertTrue(up.get("meanQueueLength").get(2).asDouble() > constant.get("meanQueueLength").get(2).asDouble());
    }

    @Test
    void tableAndCsvFormatsRun() {
        String[] r = run("pde", "--d", "2", "--lambda", "0.8", "--service", "h2:scv=4", "--t-end", "1", "--dt", "0.5",
                "--format", "csv");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].startsWith("t,meanQueueLength,meanWait,meanResponseTime,responseTime_p50,"), r[1]);
        assertTrue(r[1].contains(",x0,x1"), r[1]);
        assertEquals(4, r[1].trim().split("\n").length);
        r = run("pde", "--d", "1", "--lambda", "0.6", "--service", "gamma:scv=2", "--equilibrium");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("mean queue length"), r[1]);
    }

    @Test
    void badInputGivesOneLineNamingTheParameter(@TempDir Path dir) {
        assertOneLineError("d = 0", "pde", "--d", "0", "--lambda", "0.5", "--equilibrium");
        assertOneLineError("lambda = 1.0", "pde", "--d", "2", "--lambda", "1.0", "--equilibrium");
        assertOneLineError("lambda = 1.2", "pde", "--d", "2", "--lambda", "1.2", "--service", "lognormal:scv=4",
                "--equilibrium");
        assertOneLineError("da = -0.1", "pde", "--d", "2", "--lambda", "0.5", "--t-end", "5", "--dt", "1", "--da", "-0.1");
        assertOneLineError("pareto shape", "pde", "--d", "2", "--lambda", "0.5", "--service", "pareto:shape=1",
                "--equilibrium");
        assertOneLineError("pareto shape", "pde", "--d", "2", "--lambda", "0.5", "--service", "pareto:shape=0.5",
                "--t-end", "5", "--dt", "1");
        assertOneLineError("lognormal scv", "pde", "--d", "2", "--lambda", "0.5", "--service", "lognormal:scv=-1",
                "--t-end", "5", "--dt", "1");
        assertOneLineError("gamma scv", "pde", "--d", "2", "--lambda", "0.5", "--service", "gamma:scv=-2",
                "--equilibrium");
        assertOneLineError("infinite mean", "pde", "--d", "1", "--lambda", "0.5", "--service", "pareto:shape=1.5",
                "--equilibrium");
        // a missing option is a malformed command line: exit 2
        for (String[] missing : new String[][] {{"lambda", "pde", "--d", "2", "--service", "exp", "--t-end", "5", "--dt", "1"},
            {"t-end", "pde", "--d", "2", "--lambda", "0.5"}}) {
            String[] r = run(java.util.Arrays.copyOfRange(missing, 1, missing.length));
            assertEquals("2", r[0], r[2]);
            assertTrue(r[2].startsWith("mflb: missing option --" + missing[0]), r[2]);
        }
        assertOneLineError("none.csv", "pde", "--d", "2", "--lambda-profile", dir.resolve("none.csv").toString(),
                "--t-end", "5", "--dt", "1");
        assertOneLineError("--lambda-profile", "pde", "--d", "2", "--lambda", "0.5", "--lambda-profile",
                dir.resolve("none.csv").toString(), "--t-end", "5", "--dt", "1");
        assertOneLineError("init", "pde", "--d", "2", "--lambda", "0.5", "--t-end", "5", "--dt", "1", "--init",
                "tail:0.5");
    }
}
