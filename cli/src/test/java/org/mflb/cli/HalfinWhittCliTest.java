package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mflb diffusion --policy jsq --regime halfin-whitt}: the JSON contract and the refusals. */
class HalfinWhittCliTest {

    @TempDir
    Path dir;

    @Test
    void jsonHasTheKeysOfTheIssueAndTheLimitValues() throws Exception {
        Path plot = dir.resolve("hw.png");
        CliTest.Run run = CliTest.run("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "1",
                "--n", "100,1600,6400", "--events", "0", "--tolerance", "1e-5", "--format", "json", "--plot",
                plot.toString());
        assertEquals(0, run.code(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        JsonNode limit = json.get("limit");
        assertEquals(0.814060, limit.get("EX2").asDouble(), 1e-5);
        assertEquals(0.592970, limit.get("varX1").asDouble(), 1e-5);
        for (String key : new String[] {"varX2", "covX1X2", "localTimeRate"}) {
            assertTrue(limit.get(key).isNumber(), key);
        }
        assertEquals(limit.get("EX2").asDouble(), limit.get("localTimeRate").asDouble(), 1e-5);
        JsonNode tail = limit.get("tailX2");
        assertEquals(8, tail.size());
        assertEquals(0.5, tail.get(0).get("x").asDouble(), 0);
        assertTrue(tail.get(0).get("p").asDouble() > tail.get(7).get("p").asDouble());
        JsonNode pre = json.get("prelimit");
        assertEquals(3, pre.size());
        assertEquals(100, pre.get(0).get("N").asInt());
        assertEquals(0.59980946, pre.get(0).get("EX2").asDouble(), 1e-7);
        assertTrue(pre.get(0).get("varX1").isNumber());
        assertEquals(1.78e-4, pre.get(0).get("P_Q3_positive").asDouble(), 1e-6);
        assertEquals(0, json.get("simulated").size());
        assertEquals(-0.49, json.get("rate").get("slope").asDouble(), 0.02);
        assertEquals(-2.47, json.get("rate").get("c1").asDouble(), 0.02, "two-term fit over N = 1600, 6400");
        assertTrue(Files.size(plot) > 10_000);
        assertTrue(Files.size(dir.resolve("hw-tails.png")) > 10_000);
        // each figure's data next to it: the exact chain's E X2^N at each N, as in the JSON
        java.util.List<String> data = Files.readAllLines(dir.resolve("hw.csv"));
        assertEquals("series,x,y,ci95Low,ci95High", data.get(0));
        assertTrue(data.contains("exact N-server chain,100.0," + pre.get(0).get("EX2").asDouble() + ",,"), data.toString());
        assertTrue(Files.readString(dir.resolve("hw-tails.csv")).contains("limit: P(X2 > x),0.5,"));
    }

    /**
     * The documented range of --beta is what works: outside [0.3, 20] one line at once (beta = 0.1 used to
     * fail after about 45 s with an internal lattice step); at the upper bound the study runs in seconds
     * and gives the limit of a boundary e^(-beta^2/2) away: E X2 = 0 and Var X1 = 1 - beta E X2/2 = 1 to
     * double precision, with finite exact chains at the smallest N allowed (4 beta^2 + 1 < N) and a large one.
     */
    @Test
    void betaIsRefusedAtOnceOutsideItsRangeAndWorksAtItsUpperBound() throws Exception {
        for (String beta : new String[] {"0.05", "0.1", "0.2", "0.29", "20.5", "50"}) {
            long t0 = System.nanoTime();
            CliTest.Run run = CliTest.run("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", beta,
                    "--n", "20000");
            assertEquals(1, run.code(), beta + ": " + run.err());
            assertTrue(run.err().startsWith("mflb: beta = " + Double.parseDouble(beta) + " is invalid: must be in [0.3, 20]"),
                    run.err());
            assertEquals(1, run.err().strip().lines().count(), run.err());
            assertTrue((System.nanoTime() - t0) * 1e-9 < 5, "refused before any work");
        }
        JsonNode json = CliTest.json("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "20",
                "--n", "1601,40000", "--events", "0", "--format", "json");
        JsonNode limit = json.get("limit");
        assertTrue(limit.get("EX2").asDouble() >= 0 && limit.get("EX2").asDouble() < 1e-80, limit.toString());
        assertEquals(1, limit.get("varX1").asDouble(), 1e-9);
        assertEquals(-20, limit.get("EX1").asDouble(), 1e-9);
        for (JsonNode row : json.get("prelimit")) {
            assertTrue(row.get("EX2").asDouble() >= 0 && row.get("EX2").asDouble() < 1e-60, row.toString());
            double var = row.get("varX1").asDouble();
            assertTrue(var > 0 && var <= 1, row.toString());
        }
        // far from the boundary the busy servers are those of M/M/infinity, Poisson(N lambda_N):
        // Var X1^N = Var Q1 / N = lambda_N = 1 - beta/sqrt(N), up to terms of order e^(-beta^2/2)
        for (int i = 0; i < 2; i++) {
            int n = json.get("prelimit").get(i).get("N").asInt();
            assertEquals(1 - 20 / Math.sqrt(n), json.get("prelimit").get(i).get("varX1").asDouble(), 1e-9, "N = " + n);
        }
    }

    /** The README's promise: no file without --plot (the mode used to write halfin-whitt.png unasked). */
    @Test
    void noFigureWithoutPlot() throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        try (var before = Files.list(cwd)) {
            java.util.Set<Path> files = before.collect(java.util.stream.Collectors.toSet());
            CliTest.Run run = CliTest.run("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "2",
                    "--n", "100,400", "--events", "0", "--tolerance", "1e-4", "--format", "json");
            assertEquals(0, run.code(), run.err());
            JsonNode json = new ObjectMapper().readTree(run.out());
            assertTrue(!json.has("plot") && !json.has("tailPlot"), run.out());
            try (var after = Files.list(cwd)) {
                assertEquals(files, after.collect(java.util.stream.Collectors.toSet()));
            }
            assertTrue(!Files.exists(cwd.resolve("halfin-whitt.png")));
        }
    }

    /** One N: no slope (it needs two), never "slope = NaN"; the table says so, the JSON leaves it out. */
    @Test
    void aSingleNPrintsNoNaNSlope() throws Exception {
        String[] args = {"diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "1", "--n", "400",
            "--events", "0", "--tolerance", "1e-4"};
        CliTest.Run table = CliTest.run(args);
        assertEquals(0, table.code(), table.err());
        assertTrue(!table.out().contains("NaN"), table.out());
        assertTrue(table.out().contains("a slope and c2 need two N or more"), table.out());
        JsonNode json = CliTest.json(java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                java.util.stream.Stream.of("--format", "json")).toArray(String[]::new));
        JsonNode rate = json.get("rate");
        assertTrue(!rate.has("slope") && !rate.has("c2"), rate.toString());
        // c1 = sqrt(N) (E X2^N - E X2) with one N
        assertEquals(Math.sqrt(400) * json.get("prelimit").get(0).get("errorEX2").asDouble(), rate.get("c1").asDouble(),
                1e-12);
        assertTrue(!json.toString().contains("NaN"));
    }

    @Test
    void simulatedRowsCarryAMeanAndAnInterval() throws Exception {
        CliTest.Run run = CliTest.run("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "2",
                "--n", "100", "--events", "2e5", "--replications", "4", "--threads", "2", "--tolerance", "1e-4",
                "--format", "json", "--plot", dir.resolve("s.png").toString());
        assertEquals(0, run.code(), run.err());
        JsonNode sim = new ObjectMapper().readTree(run.out()).get("simulated");
        assertEquals(1, sim.size());
        assertEquals(100, sim.get(0).get("N").asInt());
        JsonNode ex2 = sim.get(0).get("EX2");
        double mean = ex2.get("mean").asDouble();
        assertTrue(ex2.get("ci95").get(0).asDouble() <= mean && mean <= ex2.get("ci95").get(1).asDouble());
    }

    @Test
    void invalidValuesGetOneLineNamingTheParameter() {
        String[][] cases = {
            {"--beta", "0", "--n", "100"},
            {"--beta", "1", "--n", "3"},
            {"--beta", "1", "--n", "400,100"},
            {"--beta", "1", "--n", "100", "--tolerance", "0"},
            {"--beta", "1", "--n", "100", "--transient", "1,0"},
        };
        String[] names = {"beta", "n", "n", "tolerance", "x1(0)"};
        for (int i = 0; i < cases.length; i++) {
            String[] args = new String[5 + cases[i].length + 2];
            String[] head = {"diffusion", "--policy", "jsq", "--regime", "halfin-whitt"};
            System.arraycopy(head, 0, args, 0, 5);
            System.arraycopy(cases[i], 0, args, 5, cases[i].length);
            args[args.length - 2] = "--plot";
            args[args.length - 1] = dir.resolve("x.png").toString();
            CliTest.Run run = CliTest.run(args);
            assertEquals(1, run.code(), String.join(" ", args) + ": " + run.err());
            assertTrue(run.err().startsWith("mflb: " + names[i] + " = "), run.err());
            assertEquals(1, run.err().strip().lines().count(), run.err());
        }
        CliTest.Run regime = CliTest.run("diffusion", "--policy", "jsq", "--regime", "mean-field", "--beta", "1", "--n",
                "100");
        assertEquals(1, regime.code());
        assertTrue(regime.err().startsWith("mflb: regime = mean-field is invalid: must be halfin-whitt"), regime.err());
        CliTest.Run policy = CliTest.run("diffusion", "--policy", "sqd", "--regime", "halfin-whitt", "--beta", "1",
                "--n", "100");
        assertEquals(1, policy.code());
        CliTest.Run missing = CliTest.run("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--n", "100");
        assertEquals(2, missing.code(), missing.err());
    }
}
