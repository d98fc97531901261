package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mflb.cli.ClassesCliTest.args;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * {@code --classes} on {@code transient}, {@code compare} and {@code sweep} (issue 25): the transient
 * converges to the fixed point of {@code fixed-point --classes} and stays there when it starts there,
 * servers of one speed in two classes give the homogeneous transient, compare's per-class checks, the
 * sweep's per-class columns, and one-line refusals.
 */
class ClassesCommandsCliTest {

    private static final String[] TWO = {"--system", "supermarket", "--policy", "sqd", "--classes", "0.5:1.5,0.5:0.5"};

    private static double last(JsonNode series) {
        return series.get(series.size() - 1).asDouble();
    }

    @Test
    void transientConvergesToTheClassesFixedPoint() throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point", TWO, "--lambda", "0.6", "--format", "json"));
        JsonNode tr = CliTest.json(args("transient", TWO, "--lambda", "0.6", "--t-end", "150", "--dt", "50",
                "--format", "json"));
        assertEquals(4, tr.get("t").size());
        assertEquals(0.0, tr.get("meanQueueLength").get(0).asDouble(), 0.0, "from empty");
        assertEquals(fp.get("meanQueueLength").asDouble(), last(tr.get("meanQueueLength")), 1e-7);
        assertEquals(fp.get("meanResponseTime").asDouble(), last(tr.get("meanResponseTime")), 1e-7);
        JsonNode classes = tr.get("classes");
        assertEquals(2, classes.size());
        for (int c = 0; c < 2; c++) {
            JsonNode k = classes.get(c);
            JsonNode f = fp.get("classes").get(c);
            assertEquals(f.get("speed").asDouble(), k.get("speed").asDouble());
            assertEquals(f.get("meanQueueLength").asDouble(), last(k.get("meanQueueLength")), 1e-7, "class " + c);
            assertEquals(f.get("meanResponseTime").asDouble(), last(k.get("meanResponseTime")), 1e-7, "class " + c);
            assertEquals(f.get("tail").get(1).asDouble(), last(k.get("busyFraction")), 1e-8);
        }
        // from the fixed point it stays there
        JsonNode still = CliTest.json(args("transient", TWO, "--lambda", "0.6", "--t-end", "5", "--dt", "5",
                "--init", "fixed-point", "--format", "json"));
        assertEquals(fp.get("meanQueueLength").asDouble(), still.get("meanQueueLength").get(0).asDouble(), 1e-12);
        assertEquals(fp.get("meanQueueLength").asDouble(), still.get("meanQueueLength").get(1).asDouble(), 1e-8);
    }

    @Test
    void oneSpeedInTwoClassesIsTheHomogeneousTransient() throws Exception {
        String[] oneSpeed = {"--system", "supermarket", "--policy", "sqd", "--classes", "0.3:1,0.7:1"};
        String[] homogeneous = {"--system", "supermarket", "--policy", "sqd"};
        String[] run = {"--lambda", "0.9", "--t-end", "20", "--dt", "5", "--percentiles", "50,99", "--format", "json"};
        JsonNode a = CliTest.json(args("transient", oneSpeed, run));
        JsonNode b = CliTest.json(args("transient", homogeneous, run));
        for (int k = 0; k < 5; k++) {
            double q = b.get("meanQueueLength").get(k).asDouble();
            assertEquals(q, a.get("meanQueueLength").get(k).asDouble(), 1e-7, "t = " + 5 * k);
            assertEquals(q, a.get("classes").get(0).get("meanQueueLength").get(k).asDouble(), 1e-7);
            assertEquals(b.get("meanResponseTime").get(k).asDouble(), a.get("meanResponseTime").get(k).asDouble(), 1e-7);
            assertEquals(b.get("responseTimeQuantiles").get(k).get(1).get("value").asDouble(),
                    a.get("responseTimeQuantiles").get(k).get(1).get("value").asDouble(), 1e-6);
        }
        // and the fixed point: the same mean and response-time quantiles as one class
        String[] steady = {"--lambda", "0.9", "--percentiles", "50,99", "--format", "json"};
        JsonNode fa = CliTest.json(args("fixed-point", oneSpeed, steady));
        JsonNode fb = CliTest.json(args("fixed-point", homogeneous, steady));
        assertEquals(fb.get("meanQueueLength").asDouble(), fa.get("meanQueueLength").asDouble(), 1e-10);
        for (int i = 0; i < 2; i++) {
            assertEquals(fb.get("responseTimeQuantiles").get(i).get("value").asDouble(),
                    fa.get("responseTimeQuantiles").get(i).get("value").asDouble(), 1e-8);
        }
        CliTest.Run csv = CliTest.run(args("transient", TWO, "--lambda", "0.6", "--t-end", "1", "--dt", "1",
                "--format", "csv"));
        assertEquals(0, csv.code(), csv.err());
        assertEquals("t,meanQueueLength,meanResponseTime,class1_meanQueueLength,class1_meanResponseTime,"
                + "class1_busyFraction,class2_meanQueueLength,class2_meanResponseTime,class2_busyFraction",
                csv.out().lines().findFirst().orElseThrow());
    }

    @Test
    void compareChecksEveryClassAndTheRefinedTerms() throws Exception {
        JsonNode c = CliTest.json(args("compare", TWO, "--lambda", "0.7", "--n", "200", "--t-end", "400",
                "--replications", "2", "--seed", "11", "--refined", "--format", "json", "--quiet"));
        List<String> quantities = new ArrayList<>();
        c.get("rows").forEach(row -> quantities.add(row.get("quantity").asText()));
        for (String q : List.of("x_1", "mean queue length", "E[R]", "class 1 E[Q_k]", "class 1 E[R_k]",
                "class 2 E[Q_k]", "class 2 E[R_k]", "refined 1/N: mean queue length", "refined 1/N: class 2 E[Q_k]")) {
            assertTrue(quantities.contains(q), q + " in " + quantities);
        }
        assertEquals(0, c.get("failed").asInt(), c.toString());
        JsonNode fp = CliTest.json(args("fixed-point", TWO, "--lambda", "0.7", "--format", "json"));
        assertEquals(fp.get("meanQueueLength").asDouble(), c.get("meanQueueLength").asDouble(), 1e-12);
    }

    @Test
    void sweepTakesListsOfClassesWithPerClassColumns() throws Exception {
        CliTest.Run r = CliTest.run("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--classes",
                "1:1;0.5:1.5,0.5:0.5", "--lambda", "0.6", "--format", "csv", "--quiet");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        List<String> header = List.of(lines.get(0).split(","));
        assertEquals("classes", header.get(0));
        assertTrue(header.contains("classes.2.meanQueueLength"), header.toString());
        JsonNode fp = CliTest.json(args("fixed-point", TWO, "--lambda", "0.6", "--format", "json"));
        String[] two = lines.get(2).split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
        assertEquals("\"0.5:1.5,0.5:0.5\"", two[0]);
        assertEquals(fp.get("classes").get(1).get("meanQueueLength").asDouble(),
                Double.parseDouble(two[header.indexOf("classes.2.meanQueueLength")]), 1e-12);
    }

    @Test
    void badClassesAreOneLineInEveryCommand() {
        String[][] bad = {
            args("transient", TWO, "--lambda", "0.6", "--t-end", "1", "--dt", "1", "--init", "tail:1,0.5"),
            args("transient", TWO, "--lambda", "0.6", "--t-end", "1", "--dt", "1", "--service", "det"),
            args("transient", TWO, "--lambda", "0.6", "--t-end", "1", "--dt", "1", "--refined", "10"),
            {"transient", "--system", "pools", "--policy", "sqd", "--classes", "0.5:2,0.5:0.5", "--lambda", "0.5",
                "--t-end", "1", "--dt", "1"},
            {"transient", "--system", "supermarket", "--policy", "sqd", "--classes", "0.5:2,0.6:0.5", "--lambda", "0.5",
                "--t-end", "1", "--dt", "1"},
            {"transient", "--system", "supermarket", "--policy", "sqd", "--classes", "0.5:0,0.5:0.5", "--lambda", "0.5",
                "--t-end", "1", "--dt", "1"},
            args("compare", TWO, "--lambda", "0.6", "--n", "200", "--dt", "1", "--t-end", "2"),
            args("compare", TWO, "--lambda", "0.6", "--n", "201"),
            {"compare", "--system", "supermarket", "--policy", "sqd", "--classes", "0.25:2,0.25:1,0.5:0.5", "--lambda",
                "0.9", "--n", "200"},
            {"compare", "--system", "supermarket", "--policy", "jsq", "--classes", "0.5:2,0.5:0.5", "--lambda", "0.5",
                "--n", "100"},
            {"sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd", "--classes", "1:1;", "--lambda",
                "0.5"}};
        for (String[] args : bad) {
            CliTest.Run r = CliTest.run(args);
            assertEquals(1, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().startsWith("mflb: ") && !r.err().contains("internal error"), r.err());
        }
    }

    /**
     * Near lambda* = 0.625 (a = (0.2, 0.8), s = (3, 0.5)) at N = 10 the series' 1/N^2 term exceeds its 1/N
     * term overall and for the slow class (10.9 against 6.05, 13.7 against 7.56): those refined rows are not
     * applicable there (neither pass nor fail), while the fast class's decreasing series is checked.
     */
    @Test
    void refinedRowsAreNotApplicableWhereTheSeriesStopsDecreasing() throws Exception {
        JsonNode c = CliTest.json("compare", "--system", "supermarket", "--policy", "sqd", "--d", "2", "--lambda", "0.62",
                "--classes", "0.2:3,0.8:0.5", "--n", "10", "--refined", "--order", "2", "--t-end", "1000",
                "--replications", "4", "--format", "json", "--quiet");
        List<String> notApplicable = new ArrayList<>();
        List<String> applicable = new ArrayList<>();
        for (JsonNode row : c.get("rows")) {
            String q = row.get("quantity").asText();
            if (q.startsWith("refined")) {
                (row.get("applicable").asBoolean() ? applicable : notApplicable).add(q);
            }
        }
        assertEquals(List.of("refined 1/N^2: mean queue length", "refined 1/N^2: class 2 E[Q_k]"), notApplicable);
        assertEquals(List.of("refined 1/N^2: class 1 E[Q_k]"), applicable);
        assertEquals(2, c.get("notApplicable").asInt());
    }

    /**
     * {@code fixed-point --classes --refined}: near lambda* the order-2 series stops decreasing at N = 10
     * (1/N^2 term 10.9 against a 1/N term of 6.05) and is flagged there, not at N = 1000; the refined
     * mean response time is the refined mean queue length over lambda (Little's law).
     */
    @Test
    void refinedFixedPointFlagsSizesWhereTheSeriesStopsDecreasing() throws Exception {
        JsonNode fp = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--d", "2", "--lambda",
                "0.62", "--classes", "0.2:3,0.8:0.5", "--refined", "10,1000", "--order", "2", "--format", "json");
        for (JsonNode row : fp.get("refined")) {
            boolean small = row.get("N").asInt() == 10;
            assertEquals(!small, row.get("usable").asBoolean(), row.toString());
            assertEquals(small, row.has("warning"), row.toString());
            assertEquals(row.get("meanQueueLength").asDouble() / 0.62, row.get("meanResponseTime").asDouble(), 1e-12);
        }
        assertTrue(fp.get("refined").get(0).get("warning").asText().startsWith("mean queue length: at N = 10"));
    }
}
