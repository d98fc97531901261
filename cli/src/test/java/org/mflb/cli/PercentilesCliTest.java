package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/** {@code --percentiles}: the JSON contract of issue 15 and one clear line for a bad percentile. */
class PercentilesCliTest {

    @Test
    void fixedPointOfRandomRoutingGivesTheMm1Quantiles() throws Exception {
        JsonNode j = PdeCommandTest.json("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda",
                "0.8", "--percentiles", "50,99", "--format", "json");
        JsonNode q = j.get("responseTimeQuantiles");
        assertEquals(2, q.size());
        assertEquals(99.0, q.get(1).get("p").asDouble());
        assertEquals(Math.log(100) / 0.2, q.get(1).get("value").asDouble(), 1e-9);
        assertEquals(5.0, j.get("meanResponseTime").asDouble(), 1e-9);
    }

    @Test
    void transientsGiveAnArrayPerOutputTime() throws Exception {
        JsonNode j = PdeCommandTest.json("transient", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--t-end", "2", "--dt", "1", "--format", "json");
        JsonNode q = j.get("responseTimeQuantiles");
        assertEquals(3, q.size());
        assertEquals(4, q.get(0).size(), "default 50, 90, 99, 99.9");
        assertEquals(Math.log(2), q.get(0).get(0).get("value").asDouble(), 1e-12, "empty system: Exp(1)");
        assertEquals(3, j.get("meanResponseTime").size());
        JsonNode jsq = PdeCommandTest.json("transient", "--system", "supermarket", "--policy", "jsq", "--lambda", "0.5",
                "--t-end", "1", "--dt", "1", "--format", "json");
        assertEquals(Math.log(10), jsq.get("responseTimeQuantiles").get(1).get(1).get("value").asDouble(), 1e-12);
    }

    @Test
    void pdeGivesResponseAndWaitingQuantiles() throws Exception {
        JsonNode eq = PdeCommandTest.json("pde", "--d", "1", "--lambda", "0.5", "--service", "exp", "--equilibrium",
                "--percentiles", "90", "--format", "json");
        // M/M/1: T ~ Exp(1/2); P(W > w) = λ e^{−(1−λ)w}
        assertEquals(2 * Math.log(10), eq.get("responseTimeQuantiles").get(0).get("value").asDouble(), 1e-3);
        assertEquals(2 * Math.log(5), eq.get("waitingTimeQuantiles").get(0).get("value").asDouble(), 1e-3);
        assertEquals(2.0, eq.get("meanResponseTime").asDouble(), 1e-4);
        JsonNode tr = PdeCommandTest.json("pde", "--d", "2", "--lambda", "0.9", "--t-end", "2", "--dt", "1",
                "--format", "json");
        assertEquals(3, tr.get("responseTimeQuantiles").size());
        assertEquals(3, tr.get("waitingTimeQuantiles").size());
        assertTrue(tr.get("errorEstimate").asDouble() <= 1e-4, "default tolerance 1e-4");
    }

    @Test
    void aPercentileOutsideTheOpenIntervalIsOneLine() {
        PdeCommandTest.assertOneLineError("percentiles", "fixed-point", "--system", "supermarket", "--policy", "sqd",
                "--lambda", "0.9", "--percentiles", "50,100");
        PdeCommandTest.assertOneLineError("percentiles", "transient", "--system", "supermarket", "--policy", "sqd",
                "--lambda", "0.9", "--t-end", "1", "--dt", "1", "--percentiles", "0");
        PdeCommandTest.assertOneLineError("percentiles", "pde", "--d", "2", "--lambda", "0.9", "--equilibrium",
                "--percentiles", "-5");
        PdeCommandTest.assertOneLineError("tolerance", "pde", "--d", "2", "--lambda", "0.9", "--t-end", "1", "--dt", "1",
                "--tolerance", "2");
    }
}
