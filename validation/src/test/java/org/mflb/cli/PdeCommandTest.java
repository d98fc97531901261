package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

/** {@code mflb pde}: the JSON contract of issue 6 and one clear line for bad input. */
class PdeCommandTest {

    static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Mflb.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void transientJsonHoldsTheContractKeys() throws Exception {
        String[] r = run("pde", "--d", "2", "--lambda", "0.9", "--service", "exp", "--t-end", "2", "--dt", "1",
                "--format", "json");
        assertEquals("0", r[0], r[2]);
        JsonNode j = new ObjectMapper().readTree(r[1]);
        assertEquals(3, j.get("t").size());
        assertEquals(3, j.get("tail").size());
        assertEquals(3, j.get("meanQueueLength").size());
        assertEquals(3, j.get("meanWait").size());
        assertEquals(1.0, j.get("tail").get(1).get(0).asDouble());
        // from empty the busy fraction of SQ(2) obeys x_1' = λ(1 − x_1^2)... ≤ λ t: positive and below 0.9
        double x1 = j.get("tail").get(1).get(1).asDouble();
        assertTrue(x1 > 0.5 && x1 < 0.9, "x_1(1) = " + x1);
    }

    @Test
    void equilibriumJsonMatchesTheClosedForm() throws Exception {
        String[] r = run("pde", "--d", "2", "--lambda", "0.9", "--service", "exp", "--equilibrium", "--format",
                "json");
        assertEquals("0", r[0], r[2]);
        JsonNode j = new ObjectMapper().readTree(r[1]);
        // exponential SQ(2): x_i = λ^(2^i − 1) (MODELS.md §1); the age solver reaches ~1e-7
        for (int i = 1; i <= 4; i++) {
            assertEquals(Math.pow(0.9, Math.pow(2, i) - 1), j.get("tail").get(i).asDouble(), 1e-6);
        }
        assertTrue(j.get("converged").asDouble() < 1e-10);
        assertTrue(j.has("meanQueueLength") && j.has("meanWait"));
    }

    @Test
    void badInputGivesOneLineNamingTheParameter() {
        String[] r = run("pde", "--d", "0", "--lambda", "0.5", "--equilibrium");
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith("mflb: d = 0"), r[2]);
        r = run("pde", "--d", "2", "--lambda", "1.0", "--equilibrium");
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith("mflb: lambda = 1.0"), r[2]);
        r = run("pde", "--d", "2", "--lambda", "0.5", "--t-end", "5", "--dt", "1", "--da", "-0.1");
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith("mflb: da = -0.1"), r[2]);
        assertEquals(1, r[2].trim().split("\n").length);
    }
}
