package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The command line of the non-smooth policies (jsq, jiq, threshold, adaptive-threshold) in
 * fixed-point and transient, and {@code --lambda-profile} for transient: the JSON contract of issue 5,
 * values against closed forms, and one clear line for bad input.
 */
class NonSmoothCliTest {

    @TempDir
    Path dir;

    private static JsonNode json(String... args) throws Exception {
        return CliTest.json(args);
    }

    private static String[] args(String line) {
        return line.trim().split("\\s+");
    }

    /** Threshold ⌊λ⌋ = 2 at λ = 2.5: q* = (1, 1, 1, 0.5, 0, ...) ([GABL], Theorem 2). */
    @Test
    void fixedPointOfTheThresholdPolicy() throws Exception {
        JsonNode fp = json(args("fixed-point --system pools --policy threshold --threshold 2 --lambda 2.5 --format json"));
        assertEquals("threshold(2)", fp.get("policy").asText());
        assertEquals(2, fp.get("threshold").asInt());
        assertEquals("balanced", fp.get("equilibrium").asText());
        double[] expected = {1, 1, 1, 0.5, 0};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], fp.get("tail").get(i).asDouble(), 0.0, "level " + i);
        }
        assertEquals(2.5, fp.get("meanQueueLength").asDouble(), 1e-15);
        assertTrue(fp.get("residual").asDouble() < 1e-12);
        assertFalse(fp.has("diagnosis"));

        JsonNode erlang = json(args("fixed-point --system pools --policy threshold --threshold 4 --lambda 2.5 --format json"));
        assertEquals("erlang-b", erlang.get("equilibrium").asText());
        assertTrue(erlang.get("diagnosis").asText().contains("not fluid-optimal"));
        assertEquals(2.5, erlang.get("meanQueueLength").asDouble(), 1e-12);

        JsonNode low = json(args("fixed-point --system pools --policy threshold --threshold 0 --lambda 2.5 --format json"));
        assertEquals("unbounded-support", low.get("equilibrium").asText());
        assertTrue(low.get("diagnosis").asText().contains("mass escapes to unbounded levels"));
    }

    /** The learning threshold settles at ⌊λ⌋ = 2 from empty, its last jump at ln(λ/(λ−2)) = ln 5. */
    @Test
    void fixedPointOfTheLearningThreshold() throws Exception {
        JsonNode fp = json(args("fixed-point --system pools --policy adaptive-threshold --alpha 0.85 --lambda 2.5"
                + " --format json"));
        assertEquals(2, fp.get("threshold").asInt());
        assertEquals(Math.log(5), fp.get("settlingTime").asDouble(), 1e-10);
        assertEquals(0.5, fp.get("tail").get(3).asDouble(), 0.0);
    }

    @ParameterizedTest
    @CsvSource({"pools, jsq, 2.5, 1, 0.5", "supermarket, jsq, 0.7, 0.7, 0", "supermarket, jiq, 0.7, 0.7, 0",
        "pools, jiq, 0.4, 0.4, 0"})
    void fixedPointOfJsqAndJiq(String system, String policy, double lambda, double x1, double x2Or3) throws Exception {
        JsonNode fp = json("fixed-point", "--system", system, "--policy", policy, "--lambda", Double.toString(lambda),
                "--format", "json");
        assertEquals(x1, fp.get("tail").get(1).asDouble(), 0.0);
        assertEquals(x2Or3, fp.get("tail").get(lambda > 1 ? 3 : 2).asDouble(), 0.0);
        assertFalse(fp.has("threshold"), "threshold only for the threshold policies");
    }

    /**
     * Transient JSON of adaptive-threshold adds threshold (ℓ at each output time) and thresholdJumps
     * [{t, from, to}]: from empty, jumps 0→1→2 at ln(λ/(λ−k)); the total relaxes as λ(1 − e^{−t}).
     */
    @Test
    void transientOfTheLearningThreshold() throws Exception {
        JsonNode tr = json(args("transient --system pools --policy adaptive-threshold --alpha 0.85 --lambda 2.5"
                + " --t-end 10 --dt 0.5 --format json"));
        int steps = tr.get("t").size();
        assertEquals(21, steps);
        assertEquals(steps, tr.get("threshold").size());
        assertEquals(steps, tr.get("regime").size());
        assertEquals(0, tr.get("threshold").get(0).asInt());
        assertEquals(2, tr.get("threshold").get(steps - 1).asInt());
        JsonNode jumps = tr.get("thresholdJumps");
        assertEquals(2, jumps.size());
        for (int k = 1; k <= 2; k++) {
            JsonNode j = jumps.get(k - 1);
            assertEquals(k - 1, j.get("from").asInt());
            assertEquals(k, j.get("to").asInt());
            assertEquals(Math.log(2.5 / (2.5 - k)), j.get("t").asDouble(), 1e-10);
        }
        for (int k = 0; k < steps; k++) {
            double t = tr.get("t").get(k).asDouble();
            assertEquals(2.5 * (1 - Math.exp(-t)), tr.get("meanQueueLength").get(k).asDouble(), 1e-10);
        }
        assertEquals("(b) x_2 = 1", tr.get("regime").get(steps - 1).asText());
    }

    @Test
    void transientOfStaticPoliciesHasNoThresholdKeys() throws Exception {
        for (String policy : new String[] {"threshold --threshold 2", "jsq", "jiq"}) {
            JsonNode tr = json(args("transient --system pools --policy " + policy + " --lambda 2.5 --t-end 4 --dt 1"
                    + " --init all:5 --format json"));
            assertFalse(tr.has("threshold") || tr.has("thresholdJumps"), policy);
            for (int k = 0; k < 5; k++) {
                assertEquals(2.5 + 2.5 * Math.exp(-k), tr.get("meanQueueLength").get(k).asDouble(), 1e-10, policy);
            }
        }
    }

    /**
     * λ(t) from a CSV profile: 1.5 until t = 10, rising to 3.5 at t = 12. From q*(1.5) with ℓ = 1 the
     * first jump is at 10 + s*, s* = 1.5 − e^{−s*} (see AdaptiveThresholdFluidTest); the total obeys
     * u' = λ(t) − u, u = λ for t ≤ 10, then u = a − b + b s + (u_0 − a + b)e^{−s} on the ramp.
     */
    @Test
    void transientUnderALoadProfile() throws Exception {
        Path profile = Files.writeString(dir.resolve("rise.csv"), "# a ramp\nt,lambda\n10,1.5\n12,3.5\n");
        JsonNode tr = json("transient", "--system", "pools", "--policy", "adaptive-threshold", "--alpha",
                Double.toString(3.5 / 4.5), "--initial-threshold", "1", "--lambda-profile", profile.toString(),
                "--init", "tail:1,1,0.5", "--t-end", "12", "--dt", "1", "--format", "json");
        assertEquals(profile.toString(), tr.get("lambdaProfile").asText());
        assertEquals(1.5, tr.get("lambda").asDouble(), 0.0);
        double s = 1.0;
        for (int i = 0; i < 100; i++) {
            s = 1.5 - Math.exp(-s);
        }
        assertEquals(10 + s, tr.get("thresholdJumps").get(0).get("t").asDouble(), 1e-10);
        for (int k = 0; k <= 12; k++) {
            double u = k <= 10 ? 1.5 : 1.5 - 1 + (k - 10) + (1.5 - 1.5 + 1) * Math.exp(-(k - 10));
            assertEquals(u, tr.get("meanQueueLength").get(k).asDouble(), 1e-10, "t = " + k);
        }
        // the same profile drives the smooth policies: random routing in pools is M/M/∞, u' = λ(t) − u too
        JsonNode random = json("transient", "--system", "pools", "--policy", "random", "--lambda-profile",
                profile.toString(), "--init", "tail:1,1,0.5", "--t-end", "12", "--dt", "1", "--format", "json");
        assertEquals(1.5 - 1 + 2 + Math.exp(-2), random.get("meanQueueLength").get(12).asDouble(), 1e-9);
    }

    @Test
    void csvAndTableFormatsPrint() {
        CliTest.Run csv = CliTest.run(args("transient --system pools --policy adaptive-threshold --alpha 0.85 --lambda 2.5"
                + " --t-end 2 --dt 1 --format csv"));
        assertEquals(0, csv.code(), csv.err());
        assertTrue(csv.out().startsWith("t,meanQueueLength,threshold,meanResponseTime,responseTime_p50,"), csv.out());
        assertTrue(csv.out().contains(",x0,x1"), csv.out());
        assertEquals(4, csv.out().strip().split("\n").length);
        CliTest.Run table = CliTest.run(args("transient --system pools --policy threshold --threshold 2 --lambda 2.5"
                + " --t-end 2 --dt 1"));
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("regime") && table.out().contains("(a) x_2 < 1"), table.out());
        CliTest.Run fp = CliTest.run(args("fixed-point --system pools --policy threshold --threshold 0 --lambda 2.5"));
        assertEquals(0, fp.code(), fp.err());
        assertTrue(fp.out().contains("mass escapes to unbounded levels"), fp.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "fixed-point --system pools --policy threshold --threshold -1 --lambda 2.5|threshold = -1 is invalid",
        "fixed-point --system pools --policy threshold --lambda 2.5|missing option --threshold",
        "transient --system pools --policy adaptive-threshold --alpha 1.5 --lambda 2 --t-end 1 --dt 1|alpha = 1.5 is invalid: must be in (0.0, 1.0)",
        "transient --system pools --policy adaptive-threshold --alpha 0 --lambda 2 --t-end 1 --dt 1|alpha = 0.0 is invalid",
        "fixed-point --system pools --policy adaptive-threshold --lambda 2|missing option --alpha",
        "fixed-point --system pools --policy adaptive-threshold --alpha 0.5 --initial-threshold -1 --lambda 2|initial-threshold = -1 is invalid",
        "fixed-point --system pools --policy adaptive-threshold --alpha 0.5 --threshold 2 --lambda 2|--initial-threshold",
        "fixed-point --system pools --policy sqd --threshold 2 --lambda 2|threshold = 2 is invalid: must be used only with --policy threshold",
        "fixed-point --system pools --policy jsq --alpha 0.5 --lambda 2|alpha = 0.5 is invalid",
        "fixed-point --system pools --policy jsq --d 3 --lambda 2|d = 3 is invalid",
        "fixed-point --system supermarket --policy threshold --threshold 1 --lambda 0.5|policy = threshold is invalid: must be used with system pools only",
        "fixed-point --system supermarket --policy jsq --lambda 1.5|lambda = 1.5 is invalid",
        "fixed-point --system pools --policy jsq --lambda 2 --refined 100|policy = jsq is invalid: must be random or sqd",
        "compare --system pools --policy jiq --lambda 2 --n 100|policy = jiq is invalid: must be random or sqd",
        "fixed-point --system pools --policy best --lambda 2|Invalid value for option '--policy'"})
    void badPolicyInputGivesOneClearLine(String line, String expected) {
        assertOneLine(CliTest.run(args(line)), expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "t,lambda\\n0,1\\n1,abc\\n|line 3: malformed line '1,abc'",
        "0,1\\n2,1.5\\n1,2\\n|t = 1.0 is invalid: must be > 2.0",
        "0,1\\n1,-2\\n|lambda = -2.0 is invalid",
        "# nothing\\n|no data lines"})
    void badProfilesGiveOneClearLine(String content, String expected) throws IOException {
        Path profile = Files.writeString(dir.resolve("p.csv"), content.replace("\\n", "\n"));
        assertOneLine(CliTest.run("transient", "--system", "pools", "--policy", "jsq", "--lambda-profile", profile.toString(),
                "--t-end", "1", "--dt", "1"), expected);
    }

    @Test
    void profileAndConstantLoadAreExclusiveAndTheFileMustExist() throws IOException {
        Path profile = Files.writeString(dir.resolve("ok.csv"), "0,1\n");
        assertOneLine(CliTest.run("transient", "--system", "pools", "--policy", "jsq", "--lambda", "2",
                "--lambda-profile", profile.toString(), "--t-end", "1", "--dt", "1"), "lambda = 2.0 is invalid");
        assertOneLine(CliTest.run("transient", "--system", "pools", "--policy", "jsq", "--lambda-profile",
                dir.resolve("missing.csv").toString(), "--t-end", "1", "--dt", "1"), "cannot read arrival profile");
    }

    private static void assertOneLine(CliTest.Run r, String expected) {
        assertTrue(r.code() != 0, r.out());
        assertTrue(r.err().startsWith("mflb: ") && r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace without --debug: " + r.err());
        assertTrue(r.err().strip().split("\n").length <= 2, r.err());
    }
}
