package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --model}: the contract's JSON keys, the shipped models by name, and the one-line errors. */
class ModelFileCliTest {

    private static String[] args(String line) {
        return line.trim().split("\\s+");
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            keys.add(it.next());
        }
        return keys;
    }

    @Test
    void fixedPointOfSirWithTheRefinedMeanField() throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point --model sir --refined 10,100 --order 2 --format json"));
        assertTrue(keys(fp).containsAll(List.of("names", "state", "residual", "stable", "refined", "V", "A",
                "covariance")), keys(fp).toString());
        assertEquals("[\"S\",\"I\",\"R\"]", fp.get("names").toString());
        double[] expected = {0.2625952, 0.5530536, 0.1843512};
        double[] v = {0.1587553, -0.1190665, -0.0396888};
        for (int i = 0; i < 3; i++) {
            assertEquals(expected[i], fp.get("state").get(i).asDouble(), 5e-8);
            assertEquals(v[i], fp.get("V").get(i).asDouble(), 5e-8);
        }
        assertTrue(fp.get("stable").asBoolean());
        JsonNode n10 = fp.get("refined").get(0);
        assertEquals("[N, order, state, usable]", keys(n10).toString());
        assertTrue(n10.get("usable").asBoolean(), "N = 10 is large enough for SIR (no warning)");
        assertEquals(10, n10.get("N").asInt());
        assertEquals(expected[0] + v[0] / 10 + fp.get("A").get(0).asDouble() / 100, n10.get("state").get(0).asDouble(),
                5e-8);
        assertEquals(3, fp.get("covariance").size());
    }

    @Test
    void transientAndSimulateKeys(@TempDir Path dir) throws Exception {
        JsonNode tr = CliTest.json(args("transient --model sir --t-end 1 --dt 0.5 --refined 20 --format json"));
        assertTrue(keys(tr).containsAll(List.of("names", "t", "state", "refined", "V", "covariance")));
        assertEquals(3, tr.get("t").size());
        assertEquals(3, tr.get("state").size());
        assertEquals(0.3, tr.get("state").get(0).get(0).asDouble(), 0.0);
        assertEquals(3, tr.get("refined").get(0).get("state").size());

        Path file = dir.resolve("flip.model");
        Files.writeString(file, "param k = 1\nvar A, B\nA -> B ; k*A\nB -> A ; k*B\ninit A = 1\n");
        JsonNode sim = CliTest.json(args("simulate --model " + file + " --param k=2 --n 50 --t-end 20 --dt 5"
                + " --replications 4 --threads 1 --format json"));
        assertTrue(keys(sim).containsAll(List.of("state", "events", "eventsPerSecond", "t", "stateTrajectory")));
        assertEquals("[mean, ci95Low, ci95High]", keys(sim.get("state")).toString());
        assertEquals("[mean, ci95Low, ci95High]", keys(sim.get("stateTrajectory")).toString());
        assertEquals(2.0, sim.get("parameters").get("k").asDouble(), 0.0);
        assertEquals(5, sim.get("t").size());
        assertEquals(1.0, sim.get("stateTrajectory").get("mean").get(0).get(0).asDouble(), 0.0);
        assertTrue(sim.get("events").asLong() > 0);
    }

    @Test
    void modelsListsTheShippedFilesWhichModelFindsByName() throws Exception {
        JsonNode models = CliTest.json(args("models --format json")).get("models");
        List<String> names = new ArrayList<>();
        models.forEach(m -> names.add(m.get("name").asText()));
        assertTrue(names.containsAll(List.of("sir", "sqd", "cache", "bike-sharing", "seirs", "sqd-pools")), names.toString());
        for (String name : names) {
            CliTest.Run run = CliTest.run(args("fixed-point --model " + name + " --format json"));
            assertEquals(0, run.code(), name + ": " + run.err());
        }
        CliTest.Run source = CliTest.run("models", "cache");
        assertTrue(source.out().contains("for i in 1..n, j in 1..n, i != j:"), source.out());
    }

    @Test
    void badInputGivesOneLine() {
        expectError("fixed-point --model sir --lambda 0.5", 2, "mflb: --lambda cannot be used with --model");
        expectError("fixed-point --lambda 0.5", 2, "mflb: Missing required options: '--system', '--policy' (or --model");
        expectError("fixed-point --system supermarket --lambda 0.5 --param a=1", 2, "mflb: --param needs --model");
        expectError("fixed-point --model sir --param q=1", 1,
                "mflb: sir.model: param q=1: unknown parameter 'q' (expected one of a, b, c)");
        expectError("fixed-point --model sqd --param K=2.5", 1,
                "mflb: sqd.model:4:10: upper bound of x is 2.5, not an integer");
        expectError("fixed-point --model sir --param a=x", 1, "mflb: param a = x is invalid: must be a number");
        expectError("fixed-point --model no-such-model", 1, "mflb: model = no-such-model: no such file and no shipped"
                + " model of that name");
        expectError("simulate --model sir --t-end 10", 2, "mflb: missing option --n: must be given");
        expectError("compare --model sir --t-end 10", 2, "mflb: missing option --n: must be given with --model");
        expectError("diffusion --model sir", 2, "mflb: missing option --n: must be given with --model");
    }

    private static void expectError(String line, int code, String start) {
        CliTest.Run run = CliTest.run(args(line));
        assertEquals(code, run.code(), line + ": " + run.err());
        String first = run.err().strip().split("\n")[0];
        assertTrue(first.startsWith(start), line + " gave: " + run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }
}
