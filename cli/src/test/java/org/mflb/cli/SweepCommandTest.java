package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mflb.simulation.engine.ReplicationStreams;

/** {@code mflb sweep}: the grid, its tidy results and figure, seeds, failed points, bad ranges. */
class SweepCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static CliTest.Run run(String... args) {
        return CliTest.run(args);
    }

    /**
     * SQ(d) fixed points over d = 1, 2, 3 and λ = 0.5, 0.55, .., 0.95 equal the closed form
     * x_i = λ^((d^i − 1)/(d − 1)) (λ^i for d = 1), MODELS §1; the CSV has a row per point.
     */
    @Test
    void fixedPointGridEqualsTheClosedForms(@TempDir Path dir) throws Exception {
        CliTest.Run r = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--d", "1,2,3",
                "--lambda", "0.5:0.95:0.05", "--out", dir.toString(), "--plot", "x=lambda,y=meanQueueLength,series=d",
                "--quiet");
        assertEquals(0, r.code(), r.err());
        JsonNode sweep = JSON.readTree(dir.resolve("results.json").toFile());
        JsonNode points = sweep.get("points");
        assertEquals(30, points.size());
        for (int p = 0; p < 30; p++) {
            JsonNode point = points.get(p);
            int d = point.get("params").get("d").asInt();
            double lambda = point.get("params").get("lambda").asDouble();
            assertEquals(1 + p / 10, d);
            assertEquals(0.5 + 0.05 * (p % 10), lambda, 1e-15);
            JsonNode tail = point.get("result").get("tail");
            for (int i = 1; i < tail.size(); i++) {
                assertEquals(closedForm(lambda, d, i), tail.get(i).asDouble(), 1e-12, "d = " + d + ", lambda = " + lambda
                        + ", i = " + i);
            }
            double mean = 0;
            for (int i = 1; closedForm(lambda, d, i) > 1e-300; i++) {
                mean += closedForm(lambda, d, i);
            }
            // the truncation to K levels cuts off a tail mass <= 1e-12 (the default tolerance) and
            // perturbs the levels near K by as much: 1e-12 per level over K <= 50 levels
            assertEquals(mean, point.get("result").get("meanQueueLength").asDouble(), 5e-11 * mean);
        }
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(31, csv.size());
        List<String> header = List.of(csv.get(0).split(","));
        assertEquals(List.of("d", "lambda", "status", "error"), header.subList(0, 4));
        assertTrue(header.contains("meanQueueLength") && header.contains("residual"), csv.get(0));
        assertFalse(header.contains("tail"), "vectors stay in results.json");
        String[] row = csv.get(12).split(","); // point 11: d = 2, lambda = 0.55
        assertEquals("2", row[0]);
        assertEquals("0.55", row[1]);
        assertEquals(points.get(11).get("result").get("meanQueueLength").asDouble(),
                Double.parseDouble(row[header.indexOf("meanQueueLength")]), 0.0);
        byte[] png = Files.readAllBytes(dir.resolve("sweep.png"));
        assertTrue(png.length > 10_000, "a drawn figure");
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4));
    }

    /** Text options sweep too: each point is the command run alone with the point's values. */
    @Test
    void policiesAndServiceLawsAreSwept() throws Exception {
        CliTest.Run r = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd,jsq,random", "--lambda",
                "0.5,0.9", "--format", "json", "--quiet");
        assertEquals(0, r.code(), r.err());
        JsonNode points = JSON.readTree(r.out()).get("points");
        assertEquals(6, points.size());
        String[] policies = {"sqd", "jsq", "random"};
        for (int p = 0; p < 6; p++) {
            JsonNode params = points.get(p).get("params");
            assertEquals(policies[p / 2], params.get("policy").asText());
            assertEquals(p % 2 == 0 ? "0.5" : "0.9", params.get("lambda").asText());
            JsonNode alone = CliTest.json("fixed-point", "--system", "supermarket", "--policy", policies[p / 2],
                    "--lambda", params.get("lambda").asText(), "--format", "json");
            assertEquals(alone, points.get(p).get("result"));
        }
        String[] laws = {"exp", "lognormal:scv=4,mean=1"};
        CliTest.Run sim = run("sweep", "simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5",
                "--service", String.join(",", laws), "--n", "20", "--t-end", "50", "--replications", "2", "--seed", "3",
                "--format", "json", "--quiet");
        assertEquals(0, sim.code(), sim.err());
        JsonNode simulated = JSON.readTree(sim.out()).get("points");
        assertEquals(2, simulated.size());
        for (int p = 0; p < 2; p++) {
            assertEquals(laws[p], simulated.get(p).get("params").get("service").asText());
            JsonNode alone = CliTest.json("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5",
                    "--service", laws[p], "--n", "20", "--t-end", "50", "--replications", "2", "--seed",
                    Long.toString(ReplicationStreams.pointSeed(3, p)), "--threads", "1", "--format", "json", "--quiet");
            ObjectNode result = (ObjectNode) simulated.get(p).get("result").deepCopy();
            result.remove("eventsPerSecond");
            ((ObjectNode) alone).remove("eventsPerSecond");
            assertEquals(alone, result);
        }
        assertEquals("lognormal:scv=4", simulated.get(1).get("result").get("service").asText());
        CliTest.Run x = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd,random", "--lambda",
                "0.5,0.9", "--plot", "x=policy,y=meanQueueLength", "--quiet");
        assertEquals(1, x.code());
        assertTrue(x.err().startsWith("mflb: --plot x=policy,y=meanQueueLength is invalid: x must be a number parameter"),
                x.err());
    }

    /** @return x_i = λ^((d^i − 1)/(d − 1)), λ^i for d = 1 */
    private static double closedForm(double lambda, int d, int i) {
        return Math.pow(lambda, d == 1 ? i : (Math.pow(d, i) - 1) / (d - 1));
    }

    /** A point's numbers are those of its command alone, run with the point's seed derived from (seed, p). */
    @Test
    void everyPointIsItsCommandWithThePointSeed() throws Exception {
        String[] sim = {"simulate", "--system", "supermarket", "--policy", "sqd", "--n", "20", "--t-end", "50",
            "--replications", "2", "--seed", "7"};
        String[] swept = concat(new String[] {"sweep"}, sim, new String[] {"--lambda", "0.5,0.8", "--d", "1,2",
            "--format", "json", "--quiet"});
        JsonNode one = JSON.readTree(run(concat(swept, new String[] {"--threads", "1"})).out());
        JsonNode two = JSON.readTree(run(concat(swept, new String[] {"--threads", "2"})).out());
        assertEquals(4, one.get("points").size());
        for (int p = 0; p < 4; p++) {
            ObjectNode a = (ObjectNode) one.get("points").get(p).get("result");
            long seed = ReplicationStreams.pointSeed(7, p);
            assertEquals(seed, a.get("seed").asLong());
            String[] alone = sim.clone();
            alone[alone.length - 1] = Long.toString(seed);
            JsonNode params = one.get("points").get(p).get("params");
            ObjectNode b = (ObjectNode) JSON.readTree(run(concat(alone, new String[] {"--lambda",
                params.get("lambda").asText(), "--d", params.get("d").asText(), "--format", "json"})).out());
            assertEquals(withoutTiming(b), withoutTiming(a), "point " + p + " run alone");
            assertEquals(withoutTiming(a), withoutTiming(two.get("points").get(p).get("result")), "threads");
        }
        assertTrue(one.get("points").get(0).get("result").get("meanQueueLength").get("mean").asDouble()
                != one.get("points").get(2).get("result").get("meanQueueLength").get("mean").asDouble());
    }

    /** {@code eventsPerSecond} measures the machine, not the system: the one key that may differ between runs. */
    static JsonNode withoutTiming(JsonNode result) {
        ObjectNode copy = result.deepCopy();
        copy.remove("eventsPerSecond");
        return copy;
    }

    @Test
    void aFailedPointIsReportedInItsRowAndTheOthersRun(@TempDir Path dir) throws Exception {
        CliTest.Run r = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9,1.2,0.5",
                "--out", dir.toString(), "--quiet");
        assertEquals(1, r.code());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(4, csv.size());
        assertTrue(csv.get(1).startsWith("0.9,ok,,"), csv.get(1));
        assertTrue(csv.get(2).startsWith("1.2,failed,\"lambda = 1.2 is invalid: must be in (0, 1)"), csv.get(2));
        assertTrue(csv.get(3).startsWith("0.5,ok,,"), csv.get(3));
        JsonNode failed = JSON.readTree(dir.resolve("results.json").toFile()).get("points").get(1);
        assertTrue(failed.get("error").asText().startsWith("lambda = 1.2 is invalid"));
        assertFalse(failed.has("result"));
        assertTrue(r.out().contains("2 of 3 points ok"), r.out());
    }

    @Test
    void badRangesAndOptionsAreOneLine() {
        String[][] bad = {
            {"--lambda", "0.9:0.5:0.1", "mflb: --lambda 0.9:0.5:0.1 is invalid: FROM must be <= TO"},
            {"--lambda", "0.5:0.9:0", "mflb: --lambda 0.5:0.9:0 is invalid: the step must be > 0"},
            {"--lambda", "0.5,high", "mflb: --lambda 0.5,high is invalid: 'high' is not a number"},
            {"--d", "1:3:0.5", "mflb: --d 1:3:0.5 is invalid: '0.5' is not an integer"}};
        for (String[] b : bad) {
            CliTest.Run r = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", b[0], b[1]);
            assertEquals(1, r.code(), b[1]);
            assertTrue(r.err().startsWith(b[2]), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertEquals("", r.out());
        }
        CliTest.Run plot = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5,0.6",
                "--plot", "x=d,y=meanQueueLength");
        assertEquals("mflb: --plot x=d,y=meanQueueLength is invalid: x must be a swept parameter (lambda)",
                plot.err().strip());
        CliTest.Run unknown = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5,0.6",
                "--bogus", "1");
        assertEquals(Mflb.EXIT_USAGE, unknown.code());
        assertTrue(unknown.err().startsWith("mflb: fixed-point: Unknown options: '--bogus', '1'"), unknown.err());
        CliTest.Run engine = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda",
                "0.5,0.6", "--engine", "agent");
        assertEquals("mflb: engine = agent is invalid: must be local or spark", engine.err().strip());
        CliTest.Run spark = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5,0.6",
                "--engine", "spark", "--master", "local[2]");
        assertEquals(1, spark.code());
        assertTrue(spark.err().startsWith("mflb: the spark engine is not on the classpath"), spark.err());
        assertEquals(1, spark.err().strip().lines().count(), spark.err());
    }

    /**
     * {@code y=COL+COL} overlays columns: a compare sweep's predicted x_1 (= lambda exactly, a line) and
     * the simulated x_1 with the row's interval as bars; the figure's CSV holds both series.
     */
    @Test
    void plotOverlaysSeveralColumnsWithTheirIntervals(@TempDir Path dir) throws Exception {
        CliTest.Run r = run("sweep", "compare", "--system", "supermarket", "--policy", "sqd", "--d", "2", "--n", "20",
                "--lambda", "0.5,0.9", "--t-end", "200", "--replications", "4", "--out", dir.toString(), "--quiet",
                "--plot", "x=lambda,y=rows.x_1.predicted+rows.x_1.simulated");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.size(dir.resolve("sweep.png")) > 10_000);
        List<String> data = Files.readAllLines(dir.resolve("sweep.csv"));
        assertEquals("series,x,y,ci95Low,ci95High", data.get(0));
        assertEquals(List.of("predicted,0.5,0.5,,", "predicted,0.9,0.9,,"), data.subList(1, 3));
        JsonNode points = JSON.readTree(dir.resolve("results.json").toFile()).get("points");
        for (int i = 0; i < 2; i++) {
            JsonNode row = null;
            for (JsonNode candidate : points.get(i).get("result").get("rows")) {
                if (candidate.get("quantity").asText().equals("x_1")) {
                    row = candidate;
                }
            }
            String[] cells = data.get(3 + i).split(",");
            assertEquals("simulated", cells[0]);
            double y = Double.parseDouble(cells[2]);
            assertEquals(row.get("simulated").asDouble(), y, 0);
            double half = Math.max(row.get("ci95").get(1).asDouble() - y, y - row.get("ci95").get(0).asDouble());
            assertEquals(y - half, Double.parseDouble(cells[3]), 1e-15);
            assertEquals(y + half, Double.parseDouble(cells[4]), 1e-15);
        }
        CliTest.Run repeated = run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda",
                "0.5,0.6", "--plot", "x=lambda,y=meanQueueLength+meanQueueLength");
        assertEquals(1, repeated.code());
        assertTrue(repeated.err().startsWith("mflb: --plot x=lambda,y=meanQueueLength+meanQueueLength is invalid: y takes"
                + " distinct result columns joined by +"), repeated.err());
    }

    @Test
    void helpIsClean() {
        CliTest.Run help = run("sweep", "--help");
        assertEquals(0, help.code());
        assertEquals("", help.err());
        assertTrue(help.out().contains("FROM:TO:STEP") && help.out().contains("--engine"), help.out());
    }

    static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }
}
