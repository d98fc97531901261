package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --policy memory} (SQ(d) with memory, docs/models.md §1a) in fixed-point, transient, compare
 * and simulate: the JSON keys of issue 11 ({@code memoryLevel}, {@code maxQueueLength},
 * {@code idleShare}, {@code believedIdleShare}) against the closed forms, the stale-memory
 * {@code --init memory:...} form, and one line for bad input.
 */
class MemoryCliTest {

    private static String[] args(String line) {
        return line.trim().split("\\s+");
    }

    @Test
    void fixedPointReportsTheLevelTheBoundAndTheShares() throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point --system supermarket --policy memory --d 2 --lambda 0.995 --format json"));
        assertEquals("SQ(2) with memory", fp.get("policy").asText());
        assertEquals(4, fp.get("memoryLevel").asInt());
        assertEquals(5, fp.get("maxQueueLength").asInt(), "ceil(-ln(1-λ)/ln(1+λd)) = 5");
        assertEquals(2 * 0.005, fp.get("believedIdleShare").asDouble(), 1e-14);
        assertTrue(fp.get("idleShare").asDouble() > fp.get("believedIdleShare").asDouble());
        assertEquals(0.5, fp.get("meanObservationExcess").asDouble(), 1e-14);
        assertEquals(0.995, fp.get("tail").get(1).asDouble(), 1e-14);
        assertEquals(6, fp.get("tail").size());
        assertEquals(6, fp.get("joinShares").size());
        JsonNode optimal = CliTest.json(args("fixed-point --system supermarket --policy memory --d 3 --lambda 0.6 --format json"));
        assertEquals(0, optimal.get("memoryLevel").asInt());
        assertEquals(1, optimal.get("maxQueueLength").asInt());
        assertEquals(1.0, optimal.get("idleShare").asDouble(), 1e-15);
        assertEquals(1.0, optimal.get("believedIdleShare").asDouble(), 0.0);
    }

    @Test
    void transientFromStaleMemory() throws Exception {
        JsonNode tr = CliTest.json(args("transient --system supermarket --policy memory --d 2 --lambda 0.9 --t-end 30"
                + " --dt 10 --init memory:0/3=0.5,3/3=0.5 --format json"));
        assertEquals("memory:0/3=0.5,3/3=0.5", tr.get("init").asText());
        assertEquals(4, tr.get("memoryLevel").size());
        assertEquals(0, tr.get("memoryLevel").get(0).asInt());
        assertEquals(2, tr.get("memoryLevel").get(3).asInt());
        assertEquals(3, tr.get("maxQueueLength").get(3).asInt());
        assertEquals(1.0, tr.get("idleShare").get(0).asDouble(), 1e-12, "every idle server believed loaded: jobs go to sampled idle ones");
        assertTrue(tr.get("switches").size() >= 2);
        assertEquals("level-emptied", tr.get("switches").get(0).get("cause").asText());
        assertEquals(0.5, tr.get("tail").get(0).get(1).asDouble(), 0.0);
        JsonNode csvRun = CliTest.json(args("transient --system supermarket --policy memory --lambda 0.4 --t-end 2 --dt 1"
                + " --format json"));
        assertEquals(0.4 * (1 - Math.exp(-2)), csvRun.get("tail").get(2).get(1).asDouble(), 1e-10);
    }

    @Test
    void compareAddsTheFluidSharesAndChecksThem() throws Exception {
        JsonNode c = CliTest.json(args("compare --system supermarket --policy memory --d 2 --lambda 0.8 --n 1000"
                + " --t-end 400 --replications 1 --seed 5 --threads 1 --format json"));
        assertEquals(1, c.get("memoryLevel").asInt());
        assertEquals(2, c.get("maxQueueLength").asInt());
        assertEquals(0.4, c.get("believedIdleShare").asDouble(), 1e-14);
        boolean shares = false;
        for (JsonNode row : c.get("rows")) {
            shares |= row.get("quantity").asText().equals("idle share");
        }
        assertTrue(shares);
        assertEquals(0, c.get("failed").asInt(), c.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "fixed-point --system pools --policy memory --lambda 0.9|policy",
        "fixed-point --system supermarket --policy memory --lambda 1.2|lambda",
        "fixed-point --system supermarket --policy memory --lambda 0.9 --threshold 2|threshold",
        "fixed-point --system supermarket --policy memory --lambda 0.9 --refined 10|policy",
        "transient --system supermarket --policy memory --lambda 0.9 --t-end 1 --dt 1 --init memory:2/1=1|init",
        "transient --system supermarket --policy sqd --lambda 0.9 --t-end 1 --dt 1 --init memory:0/1=1|init",
        "simulate --system supermarket --policy sqd --lambda 0.9 --n 10 --t-end 1 --init memory:0/1=1|init"})
    void badInputIsOneLineNamingTheParameter(String line, String parameter) {
        CliTest.Run run = CliTest.run(args(line));
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().contains(parameter + " = "), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }
}
