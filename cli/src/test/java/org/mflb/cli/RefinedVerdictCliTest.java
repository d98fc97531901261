package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * Issue 27's honest refined verdicts and refined response times, and issue 29's refined outputs
 * outside the simplex, from the command line: a JBT(2) model file (join-below-threshold written with
 * {@code max(...)} indicators) whose expansion has stopped converging at N = 10, the built-in SQ(2)
 * at N = 20 whose verdicts stay passes, and the warnings of {@code fixed-point --refined}.
 */
class RefinedVerdictCliTest {

    private static String jbt() throws Exception {
        return Path.of(RefinedVerdictCliTest.class.getResource("/models/jbt.model").toURI()).toString();
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

    @Test
    void jbtAtTenServersDoesNotReadAsAllPass() throws Exception {
        JsonNode compare = CliTest.json("compare", "--model", jbt(), "--n", "10", "--seed", "7", "--quiet",
                "--format", "json");
        // x[2]: pi = 0.7556, t1 = V/N = 0.252, t2 = A/N^2 = 1.477: the terms do not decrease, so both
        // orders are not applicable (the old rule passed them within 0.62 and 0.32)
        for (String order : new String[] {"2", "1"}) {
            JsonNode x2 = row(compare, "x[2], refined order " + order + ", N = 10");
            assertFalse(x2.get("applicable").asBoolean(), x2.toString());
            assertFalse(x2.get("passed").asBoolean());
            assertFalse(x2.get("informative").asBoolean());
            assertTrue(x2.get("reason").asText().contains("is not smaller than the 1/N term"), x2.toString());
            assertEquals(0.0, x2.get("modelErrorTolerance").asDouble(), 0.0);
            // x[3]: predicted 0 at every order, simulated about 0.3: checked (by the simulated value), and failed
            JsonNode x3 = row(compare, "x[3], refined order " + order + ", N = 10");
            assertEquals(0.0, x3.get("predicted").asDouble(), 0.0);
            assertTrue(x3.get("simulated").asDouble() > 0.1, x3.toString());
            assertTrue(x3.get("applicable").asBoolean());
            assertFalse(x3.get("passed").asBoolean(), x3.toString());
        }
        assertEquals(2, compare.get("notApplicable").asInt());
        assertTrue(compare.get("failed").asInt() >= 2, compare.get("failed").toString());
        assertEquals(2, compare.get("warnings").size());
        // x[1] = lambda exactly (V = A = 0 up to rounding): a usable series, and a pass
        assertTrue(row(compare, "x[1], refined order 2, N = 10").get("passed").asBoolean());

        // fixed-point --refined 10 warns for the model file as for the built-in models
        CliTest.Run table = CliTest.run("fixed-point", "--model", jbt(), "--refined", "10,1000");
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("warning: N = 10 is too small for the expansion: the corrected x[2] = 1.00785"
                + " is not a fraction in [0, 1]"), table.out());
        assertFalse(table.out().contains("N = 1000 is too small"), table.out());
        JsonNode fp = CliTest.json("fixed-point", "--model", jbt(), "--refined", "10,1000", "--order", "2", "--format",
                "json");
        JsonNode n10 = fp.get("refined").get(0);
        assertFalse(n10.get("usable").asBoolean());
        assertTrue(n10.get("warning").asText().contains("x[2] = 2.48438 is not a fraction"), n10.toString());
        JsonNode n1000 = fp.get("refined").get(1);
        assertTrue(n1000.get("usable").asBoolean(), n1000.toString());
        CliTest.Run csv = CliTest.run("fixed-point", "--model", jbt(), "--refined", "10", "--format", "csv");
        assertTrue(csv.err().startsWith("warning: N = 10 is too small"), csv.err());
    }

    @Test
    void sqdVerdictsAtTwentyServersStayPasses() throws Exception {
        for (String order : new String[] {"1", "2"}) {
            JsonNode compare = CliTest.json("compare", "--system", "supermarket", "--policy", "sqd", "--d", "2",
                    "--lambda", "0.9", "--n", "20", "--t-end", "1000", "--replications", "4", "--seed", "3",
                    "--refined", "--order", order, "--quiet", "--format", "json");
            assertEquals(0, compare.get("failed").asInt(), compare.toString());
            String prefix = order.equals("1") ? "refined 1/N: " : "refined 1/N^2: ";
            for (String q : new String[] {"mean queue length", "E[T]", "x_1", "x_2", "x_3", "x_4", "x_5"}) {
                JsonNode r = row(compare, prefix + q);
                assertTrue(r.get("applicable").asBoolean() && r.get("passed").asBoolean(), r.toString());
                // the built-in path's stated bound: 3 half-widths + 5/N^(order+1)
                double h = (r.get("ci95").get(1).asDouble() - r.get("ci95").get(0).asDouble()) / 2;
                double bias = 5 / Math.pow(20, Integer.parseInt(order) + 1) / (q.equals("E[T]") ? 0.9 : 1);
                assertEquals(3 * h, r.get("statisticalTolerance").asDouble(), 1e-12);
                assertEquals(bias, r.get("modelErrorTolerance").asDouble(), 1e-12);
            }
            // far in the tail the terms grow (x_6: t1 = 0.0119, t2 = 0.0227 at N = 20): not applicable, said so
            JsonNode x6 = row(compare, prefix + "x_6");
            assertFalse(x6.get("applicable").asBoolean(), x6.toString());
            assertTrue(compare.get("warnings").toString().contains(prefix + "x_6 not applicable"));
        }
    }

    @Test
    void refinedMeanResponseTimeByLittlesLawInQueuesAndTheServiceTimeInPools() throws Exception {
        // random routing: independent M/M/1 queues at every N (V = A = 0): E[T] = 1/(1 - lambda) exactly
        JsonNode mm1 = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda", "0.5",
                "--refined", "10,100", "--order", "2", "--format", "json");
        for (JsonNode entry : mm1.get("refined")) {
            assertEquals(2.0, entry.get("meanResponseTime").asDouble(), 1e-9, entry.toString());
        }
        // SQ(2): Little's law per order, E[T] = E[Q]/lambda, the identity compare checks against simulation
        for (String order : new String[] {"1", "2"}) {
            JsonNode sq2 = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                    "--refined", "20,50", "--order", order, "--format", "json");
            for (JsonNode entry : sq2.get("refined")) {
                assertEquals(entry.get("meanQueueLength").asDouble() / 0.9, entry.get("meanResponseTime").asDouble(),
                        1e-12);
            }
            // the refined value moves towards the simulation: above the fluid's 2.7857 (x_i = 0.9^(2^i - 1))
            assertTrue(sq2.get("refined").get(0).get("meanResponseTime").asDouble() > sq2.get("meanResponseTime")
                    .asDouble());
        }
        // against the simulation of N = 20 servers (the order-2 series is usable there for E[Q])
        JsonNode sq2 = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--refined", "20", "--order", "2", "--format", "json");
        JsonNode sim = CliTest.json("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--n", "20", "--t-end", "3000", "--replications", "4", "--seed", "5", "--quiet", "--format", "json");
        JsonNode t = sim.get("meanResponseTime");
        double half = (t.get("ci95").get(1).asDouble() - t.get("ci95").get(0).asDouble()) / 2;
        // 3 half-widths + 1.5 t2^2/|t1| / lambda (t1 = 3.986/20, t2 = 5.32/400)
        double neglected = 1.5 * Math.pow(5.3227 / 400, 2) / (3.9864 / 20) / 0.9;
        assertEquals(t.get("mean").asDouble(), sq2.get("refined").get(0).get("meanResponseTime").asDouble(),
                3 * half + neglected);
        // pools: every job is served at once, E[T] = E[S] = 1 at every N; refined E[Q]/lambda = 1 too (Little)
        JsonNode pools = CliTest.json("fixed-point", "--system", "pools", "--policy", "sqd", "--lambda", "2.5",
                "--refined", "10", "--order", "2", "--format", "json");
        JsonNode p10 = pools.get("refined").get(0);
        assertEquals(1.0, p10.get("meanResponseTime").asDouble(), 1e-12);
        assertEquals(2.5, p10.get("meanQueueLength").asDouble(), 1e-8);
        // loss pools: the accepted jobs' sojourn is their service time, 1
        JsonNode loss = CliTest.json("fixed-point", "--system", "loss", "--capacity", "5", "--policy", "sqd",
                "--lambda", "4", "--refined", "10", "--format", "json");
        assertEquals(1.0, loss.get("refined").get(0).get("meanResponseTime").asDouble(), 1e-12);
    }

    @Test
    void refinedOutputsOutsideTheSimplexAreFlaggedAndHugeTruncationsRefused() throws Exception {
        // issue 29: SQ(2) at lambda = 0.999999, N = 10, order 2: tail values above 1 only with a warning
        JsonNode fp = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.999999",
                "--refined", "10,1000000000", "--order", "2", "--format", "json");
        JsonNode n10 = fp.get("refined").get(0);
        assertFalse(n10.get("usable").asBoolean());
        assertTrue(n10.get("warning").asText().startsWith("N = 10 is too small for the expansion"), n10.toString());
        CliTest.Run table = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda",
                "0.999999", "--refined", "10", "--order", "2");
        assertTrue(table.out().contains("warning: N = 10 is too small"), table.out());
        CliTest.Run csv = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda",
                "0.999999", "--refined", "10", "--order", "2", "--format", "csv");
        assertEquals(0, csv.code());
        assertTrue(csv.err().startsWith("warning: N = 10 is too small"), csv.err());
        // random routing at lambda = 0.9999 keeps 414 444 levels: refused in one line, no "internal error"
        CliTest.Run random = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda",
                "0.9999", "--refined", "10");
        assertEquals(1, random.code());
        assertTrue(random.err().startsWith("mflb: refined"), random.err());
        assertTrue(random.err().contains("at most 1000 levels at order 1"), random.err());
        assertEquals(1, random.err().lines().count(), random.err());
        assertFalse(random.err().contains("internal error"));
    }
}
