package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * {@code --classes} (issue 25's keys) on {@code fixed-point} and {@code simulate}: the reference fixed
 * point of docs/models.md §10 (a = (½, ½), s = (1.5, 0.5), λ = 0.9: SQ(2) E[Q] = 5.228788909972735,
 * classes 2.976536453437147 and 7.481041366508324, V = 9.221321; SED(2) 3.306772263112758), the
 * unstable answer at λ > λ* = 8/9, and one-line refusals.
 */
class ClassesCliTest {

    private static final String[] TWO = {"--system", "supermarket", "--classes", "0.5:1.5,0.5:0.5", "--lambda", "0.9"};

    /** @return {@code command}, the model options, then {@code more} */
    static String[] args(String command, String[] model, String... more) {
        String[] all = new String[1 + model.length + more.length];
        all[0] = command;
        System.arraycopy(model, 0, all, 1, model.length);
        System.arraycopy(more, 0, all, 1 + model.length, more.length);
        return all;
    }

    @Test
    void fixedPointJsonHoldsThePerClassKeys() throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point", TWO, "--policy", "sqd", "--refined", "20", "--format", "json"));
        assertEquals(5.228788909972735, fp.get("meanQueueLength").asDouble(), 1e-10);
        assertEquals(5.228788909972735 / 0.9, fp.get("meanResponseTime").asDouble(), 1e-10);
        assertTrue(fp.get("stable").asBoolean());
        assertEquals(1.0, fp.get("lambdaStar").asDouble(), 1e-15);
        JsonNode classes = fp.get("classes");
        assertEquals(2, classes.size());
        assertEquals(0.5, classes.get(0).get("fraction").asDouble());
        assertEquals(1.5, classes.get(0).get("speed").asDouble());
        assertEquals(1.0, classes.get(1).get("tail").get(0).asDouble());
        assertEquals(0.99967366, classes.get(1).get("tail").get(1).asDouble(), 5e-9);
        assertEquals(2.976536453437147, classes.get(0).get("meanQueueLength").asDouble(), 1e-10);
        assertEquals(7.481041366508324, classes.get(1).get("meanQueueLength").asDouble(), 1e-10);
        JsonNode refined = fp.get("refined").get(0);
        assertEquals(20, refined.get("N").asInt());
        assertEquals(1, refined.get("order").asInt());
        assertEquals(5.228788909972735 + 9.221321 / 20, refined.get("meanQueueLength").asDouble(), 1e-6);
        double perClass = 0.5 * refined.get("classes").get(0).get("meanQueueLength").asDouble()
                + 0.5 * refined.get("classes").get(1).get("meanQueueLength").asDouble();
        assertEquals(refined.get("meanQueueLength").asDouble(), perClass, 1e-12, "the classes' means add up");
        JsonNode sed = CliTest.json(args("fixed-point", TWO, "--policy", "sed", "--format", "json"));
        assertEquals(3.306772263112758, sed.get("meanQueueLength").asDouble(), 1e-10);
    }

    @Test
    void beyondLambdaStarIsOneLineNamingTheClasses() {
        CliTest.Run r = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "sqd", "--classes",
                "0.25:2,0.25:1,0.5:0.5", "--lambda", "0.9");
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("classes 2, 3 receive more than their capacity"), r.err());
        assertTrue(r.err().contains("0.888888"), r.err());
    }

    @Test
    void badClassesAreOneLine() {
        for (String[] bad : new String[][] {
            {"fixed-point", "--system", "pools", "--policy", "sqd", "--classes", "0.5:1.5,0.5:0.5", "--lambda", "0.9"},
            {"fixed-point", "--system", "supermarket", "--policy", "sqd", "--classes", "0.5:1.5,0.4:0.5", "--lambda", "0.9"},
            {"fixed-point", "--system", "supermarket", "--policy", "jsq", "--classes", "0.5:1.5,0.5:0.5", "--lambda", "0.9"},
            {"fixed-point", "--system", "supermarket", "--policy", "sqd", "--classes", "0.5:-1,0.5:1", "--lambda", "0.5"},
            {"simulate", "--system", "supermarket", "--policy", "sqd", "--classes", "0.5:1.5,0.5:0.5", "--lambda", "0.9",
                "--n", "101", "--t-end", "10"}}) {
            CliTest.Run r = CliTest.run(bad);
            assertEquals(1, r.code(), String.join(" ", bad) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("mflb: "), r.err());
        }
    }

    @Test
    void simulateJsonHoldsThePerClassEstimates() throws Exception {
        JsonNode sim = CliTest.json(args("simulate", TWO, "--policy", "sqd", "--n", "100", "--t-end", "200",
                "--replications", "2", "--seed", "7", "--format", "json", "--quiet"));
        JsonNode classes = sim.get("classes");
        assertEquals(2, classes.size());
        assertEquals(0.5, classes.get(1).get("fraction").asDouble());
        assertEquals(0.5, classes.get(1).get("speed").asDouble());
        double overall = sim.get("meanQueueLength").get("mean").asDouble();
        double mix = 0.5 * classes.get(0).get("meanQueueLength").get("mean").asDouble()
                + 0.5 * classes.get(1).get("meanQueueLength").get("mean").asDouble();
        assertEquals(overall, mix, 1e-9 * overall, "the per-class means are the overall mean's parts");
        assertEquals(2, classes.get(0).get("meanQueueLength").get("ci95").size());
    }
}
