package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * {@code compare}: one sampling default shared with {@code simulate} and {@code fixed-point}, the
 * simulation honouring {@code --sampling}, the refined mean field next to the fluid limit, and
 * progress on stderr.
 */
class CompareCommandTest {

    private static final String[] SCENARIO = {"--system", "supermarket", "--policy", "sqd", "--d", "2",
        "--lambda", "0.9", "--n", "10", "--t-end", "200", "--replications", "3", "--seed", "7", "--quiet"};

    /** @return {@code command} on {@link #SCENARIO} with JSON output */
    private static String[] line(String command, String... extra) {
        return table(command, concat(extra, "--format", "json"));
    }

    /** @return {@code command} on {@link #SCENARIO} (table output unless {@code extra} says otherwise) */
    private static String[] table(String command, String... extra) {
        List<String> args = new ArrayList<>();
        args.add(command);
        args.addAll(List.of(SCENARIO));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    private static String[] concat(String[] a, String... b) {
        List<String> all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
    }

    /** @return the row of {@code quantity} in compare's JSON */
    private static JsonNode row(JsonNode compare, String quantity) {
        for (JsonNode r : compare.get("rows")) {
            if (r.get("quantity").asText().equals(quantity)) {
                return r;
            }
        }
        throw new AssertionError("no row " + quantity + " in " + compare);
    }

    private static double simulatedMean(String sampling) throws Exception {
        JsonNode sim = SimulateCommandTest.json(line("simulate", "--sampling", sampling));
        assertEquals(sampling, sim.get("sampling").asText());
        return sim.get("meanQueueLength").get("mean").asDouble();
    }

    @Test
    void compareSimulatesTheSamplingItIsGiven() throws Exception {
        // Same seed, same scenario: compare's simulated E[Q] is simulate's, number for number, for the
        // sampling asked for, and not the other one (at N = 10 the two laws differ).
        double replacement = simulatedMean("replacement");
        double distinct = simulatedMean("distinct");
        assertNotEquals(replacement, distinct);

        JsonNode withReplacement = SimulateCommandTest.json(line("compare", "--sampling", "replacement"));
        assertEquals("replacement", withReplacement.get("sampling").asText());
        assertEquals(replacement, row(withReplacement, "mean queue length").get("simulated").asDouble(), 0.0);

        JsonNode withDistinct = SimulateCommandTest.json(line("compare", "--sampling", "distinct"));
        assertEquals("distinct", withDistinct.get("sampling").asText());
        assertEquals(distinct, row(withDistinct, "mean queue length").get("simulated").asDouble(), 0.0);
    }

    @Test
    void oneSamplingDefaultEverywhere() throws Exception {
        JsonNode compare = SimulateCommandTest.json(line("compare"));
        assertEquals("replacement", compare.get("sampling").asText());
        assertEquals(simulatedMean("replacement"), row(compare, "mean queue length").get("simulated").asDouble(), 0.0);
        JsonNode simulate = SimulateCommandTest.json(line("simulate"));
        assertEquals("replacement", simulate.get("sampling").asText());

        // every table header names it
        String fixedPoint = SimulateCommandTest.run("fixed-point", "--system", "supermarket", "--policy", "sqd",
                "--lambda", "0.9").out();
        assertTrue(fixedPoint.lines().findFirst().orElseThrow().endsWith(", sampling with replacement"), fixedPoint);
        String distinct = SimulateCommandTest.run("transient", "--system", "supermarket", "--policy", "sqd",
                "--lambda", "0.9", "--sampling", "distinct", "--n", "50", "--t-end", "1", "--dt", "1").out();
        assertTrue(distinct.lines().findFirst().orElseThrow().contains(", sampling 2 distinct servers of N = 50"),
                distinct);
        String table = SimulateCommandTest.run(table("simulate")).out();
        assertTrue(table.lines().findFirst().orElseThrow().contains("(d = 2, sampling with replacement)"), table);
        String compareTable = SimulateCommandTest.run(table("compare")).out();
        assertTrue(compareTable.lines().findFirst().orElseThrow().endsWith(", sampling with replacement"), compareTable);
    }

    @Test
    void refinedMeanFieldIsComparedAtTheSimulatedSize() throws Exception {
        for (String order : new String[] {"1", "2"}) {
            JsonNode compare = SimulateCommandTest.json(line("compare", "--refined", "--order", order));
            JsonNode fixedPoint = SimulateCommandTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd",
                    "--lambda", "0.9", "--refined", "10", "--order", order, "--format", "json");
            JsonNode refined = fixedPoint.get("refined").get(0);
            String prefix = order.equals("1") ? "refined 1/N: " : "refined 1/N^2: ";
            for (int i = 1; i <= 3; i++) {
                assertEquals(refined.get("tail").get(i).asDouble(), row(compare, prefix + "x_" + i).get("predicted")
                        .asDouble(), 1e-12);
            }
            JsonNode mean = row(compare, prefix + "mean queue length");
            assertEquals(refined.get("meanQueueLength").asDouble(), mean.get("predicted").asDouble(), 1e-12);
            assertEquals(refined.get("meanQueueLength").asDouble() / 0.9, row(compare, prefix + "E[T]")
                    .get("predicted").asDouble(), 1e-12, "Little's law at N = 10");
            // the same simulation as the fluid rows, a tolerance of 3 half-widths + 5/N^(order+1)
            JsonNode fluid = row(compare, "mean queue length");
            assertEquals(fluid.get("simulated").asDouble(), mean.get("simulated").asDouble(), 0.0);
            double halfWidth = (mean.get("ci95").get(1).asDouble() - mean.get("ci95").get(0).asDouble()) / 2;
            assertEquals(3 * halfWidth + 5 / Math.pow(10, Integer.parseInt(order) + 1), mean.get("tolerance").asDouble(),
                    1e-12);
        }
        SimulateCommandTest.Run orderAlone = SimulateCommandTest.run(line("compare", "--order", "2"));
        assertEquals(1, orderAlone.code());
        assertTrue(orderAlone.err().startsWith("mflb: order"), orderAlone.err());
    }

    @Test
    void meanResponseTimeAsLittlesLawHasIt() throws Exception {
        // random routing: independent M/M/1 queues, E[T] = 1/(1 − λ); pools: the service time, 1;
        // loss pools: the accepted jobs' service time, 1 (Little with the accepted rate λ(1 − B))
        JsonNode mm1 = SimulateCommandTest.json("fixed-point", "--system", "supermarket", "--policy", "random",
                "--lambda", "0.5", "--format", "json");
        assertEquals(2.0, mm1.get("meanResponseTime").asDouble(), 1e-10);
        JsonNode pools = SimulateCommandTest.json("fixed-point", "--system", "pools", "--policy", "jsq", "--lambda",
                "2.5", "--format", "json");
        assertEquals(1.0, pools.get("meanResponseTime").asDouble(), 1e-12);
        JsonNode loss = SimulateCommandTest.json("fixed-point", "--system", "loss", "--capacity", "5", "--policy",
                "random", "--lambda", "4", "--format", "json");
        assertEquals(1.0, loss.get("meanResponseTime").asDouble(), 1e-12);
        JsonNode sq2 = SimulateCommandTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd",
                "--lambda", "0.9", "--format", "json");
        // (the response-time law's mean, Σ s_j, is Σ x_i / λ at the fixed point up to its truncation)
        assertEquals(sq2.get("meanQueueLength").asDouble() / 0.9, sq2.get("meanResponseTime").asDouble(), 1e-10);

        // compare: the fluid's E[T] against the simulated one, which is simulate's
        JsonNode compare = SimulateCommandTest.json(line("compare"));
        assertEquals(sq2.get("meanResponseTime").asDouble(), compare.get("meanResponseTime").asDouble(), 0.0);
        JsonNode simulate = SimulateCommandTest.json(line("simulate"));
        assertEquals(simulate.get("meanResponseTime").get("mean").asDouble(), row(compare, "E[T]").get("simulated")
                .asDouble(), 0.0);
    }

    @Test
    void progressGoesToStderrUnlessQuiet() {
        String[] args = {"simulate", "--system", "pools", "--policy", "random", "--lambda", "2", "--n", "20",
            "--t-end", "20", "--replications", "3", "--format", "json"};
        SimulateCommandTest.Run loud = SimulateCommandTest.run(args);
        assertEquals(0, loud.code(), loud.err());
        assertTrue(loud.err().contains("[1/3] simulating 3 replication(s) of N = 20"), loud.err());
        assertTrue(loud.err().contains("[2/3] 1 of 3 replications done ..."), loud.err());
        assertTrue(loud.err().contains("[3/3] 3 replication(s) done"), loud.err());
        assertTrue(loud.out().startsWith("{"), "stdout stays clean JSON: " + loud.out());
        String[] quietArgs = java.util.Arrays.copyOf(args, args.length + 1);
        quietArgs[args.length] = "--quiet";
        SimulateCommandTest.Run quiet = SimulateCommandTest.run(quietArgs);
        assertEquals("", quiet.err());
        // eventsPerSecond is a measured speed; the rest is the same seeded run
        assertEquals(loud.out().replaceAll("\"eventsPerSecond\" : [^,}\\n]*", ""),
                quiet.out().replaceAll("\"eventsPerSecond\" : [^,}\\n]*", ""));
    }

    @Test
    void aStepShowsItselfOnlyWhenItRunsLong() {
        // begun but ended before the first heartbeat: nothing (an error it met would be stderr's first line)
        java.io.StringWriter err = new java.io.StringWriter();
        try (Progress p = new Progress(new java.io.PrintWriter(err), false)) {
            p.begin("[1/1] a step ...");
        }
        assertEquals("", err.toString());
        // a model file's simulation ends with its done line
        SimulateCommandTest.Run run = SimulateCommandTest.run("simulate", "--model", "sir", "--n", "20", "--t-end", "5",
                "--format", "json");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.err().startsWith("[1/1] simulating ") && run.err().contains(" with N = 20: done ("), run.err());
        SimulateCommandTest.Run bad = SimulateCommandTest.run("compare", "--model", "sir", "--t-end", "5");
        assertTrue(bad.err().startsWith("mflb: missing option --n: must be given with --model"), bad.err());
    }
}
