package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/** {@code mflb simulate --policy threshold | adaptive-threshold}: the JSON keys of issues 3 and 5. */
class ThresholdSimulateTest {

    @Test
    void staticThresholdReportsMessagesAndNoJumps() throws Exception {
        JsonNode j = SimulateCommandTest.json("simulate", "--system", "pools", "--policy", "threshold", "--threshold",
                "3", "--lambda", "3.5", "--n", "200", "--t-end", "50", "--seed", "3", "--format", "json");
        assertEquals(0, j.get("thresholdJumps").size(), "a static threshold never moves");
        assertEquals(3.0, j.get("meanThreshold").get("mean").asDouble(), 0.0);
        JsonNode m = j.get("policyStatistics").get("messagesPerTask");
        assertTrue(m.get("mean").asDouble() > 0 && m.get("mean").asDouble() <= 2, m.toString());
    }

    @Test
    void adaptiveThresholdReportsItsTraceAndMeanThreshold() throws Exception {
        // from empty with α = 0.1 + 0.9·3.5/4: ℓ climbs 0 → 1 → 2 → 3 (at t = ln(3.5/(3.5−k))) and stays
        JsonNode j = SimulateCommandTest.json("simulate", "--system", "pools", "--policy", "adaptive-threshold",
                "--alpha", "0.8875", "--lambda", "3.5", "--n", "2000", "--t-end", "20", "--warmup", "5", "--seed", "4", "--format",
                "json");
        JsonNode jumps = j.get("thresholdJumps");
        assertEquals(3, jumps.size(), jumps.toString());
        for (int k = 1; k <= 3; k++) {
            JsonNode jump = jumps.get(k - 1);
            assertEquals(k - 1, jump.get("from").asInt());
            assertEquals(k, jump.get("to").asInt());
            // sd of the jump time sqrt(k/n)/(λ−k) ≤ 0.08: 0.5 is more than 6 sd
            assertEquals(Math.log(3.5 / (3.5 - k)), jump.get("t").asDouble(), 0.5);
        }
        // the last jump (t ≈ ln 7 = 1.95) is before the warm-up ends at 5
        assertEquals(3.0, j.get("meanThreshold").get("mean").asDouble(), 0.0);
        assertTrue(j.get("policyStatistics").has("messagesPerTask"));
        // an initial threshold above the load: it comes down
        JsonNode high = SimulateCommandTest.json("simulate", "--system", "pools", "--policy", "adaptive-threshold",
                "--alpha", "0.8875", "--initial-threshold", "8", "--init", "all:3", "--lambda", "3.5", "--n", "500", "--t-end",
                "20", "--seed", "5", "--format", "json");
        JsonNode first = high.get("thresholdJumps").get(0);
        assertEquals(8, first.get("from").asInt());
        assertEquals(7, first.get("to").asInt());
    }

    @Test
    void badThresholdParametersGiveOneLine() {
        String[][] cases = {
            {"--policy", "threshold"},
            {"--policy", "threshold", "--threshold", "-1"},
            {"--policy", "adaptive-threshold"},
            {"--policy", "adaptive-threshold", "--alpha", "1"},
            {"--policy", "adaptive-threshold", "--alpha", "0.5", "--initial-threshold", "-3"},
            {"--policy", "adaptive-threshold", "--alpha", "0.5", "--threshold", "3"},
        };
        // a missing --threshold or --alpha is a malformed command line; a bad value is a failure
        int[] codes = {2, 1, 2, 1, 1, 1};
        for (int k = 0; k < cases.length; k++) {
            String[] c = cases[k];
            String[] args = new String[c.length + 9];
            String[] base = {"simulate", "--system", "pools", "--n", "10", "--lambda", "2", "--t-end", "5"};
            System.arraycopy(base, 0, args, 0, base.length);
            System.arraycopy(c, 0, args, base.length, c.length);
            SimulateCommandTest.Run r = SimulateCommandTest.run(args);
            assertEquals(codes[k], r.code(), String.join(" ", c) + ": " + r.err());
            assertTrue(r.err().startsWith("mflb: "), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
    }
}
