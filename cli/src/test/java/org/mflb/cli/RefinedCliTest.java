package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --refined N,... [--order 1|2]} on fixed-point and transient: the JSON contract and bad input. */
class RefinedCliTest {

    @Test
    void fixedPointJsonHoldsRefinedVAndCovariance() throws Exception {
        JsonNode fp = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda", "0.5",
                "--refined", "10,20", "--order", "2", "--format", "json");
        int levels = fp.get("truncation").asInt();
        JsonNode refined = fp.get("refined");
        assertEquals(2, refined.size());
        assertEquals(10, refined.get(0).get("N").asInt());
        assertEquals(20, refined.get(1).get("N").asInt());
        assertEquals(2, refined.get(0).get("order").asInt());
        assertEquals(levels + 1, refined.get(0).get("tail").size());
        assertEquals(1.0, refined.get(0).get("tail").get(0).asDouble(), 0.0);
        // Random routing: every queue is an independent M/M/1, so E[X^N] = π for every N
        // and W_ij = λ^max(i,j) − λ^(i+j).
        assertEquals(fp.get("meanQueueLength").asDouble(), refined.get(0).get("meanQueueLength").asDouble(), 1e-12);
        assertEquals(levels + 1, fp.get("V").size());
        assertEquals(0.0, fp.get("V").get(3).asDouble(), 1e-15);
        JsonNode w = fp.get("covariance");
        assertEquals(levels, w.size());
        assertEquals(levels, w.get(0).size());
        assertEquals(Math.pow(0.5, 3) - Math.pow(0.5, 2 + 3), w.get(1).get(2).asDouble(), 1e-12);
        assertEquals(levels + 1, fp.get("A").size());
    }

    @Test
    void twoChoiceRefinementRaisesTheMeanQueueLengthAndKeepsTheBusyFraction() throws Exception {
        JsonNode fp = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--refined", "10,100", "--format", "json");
        double meanField = fp.get("meanQueueLength").asDouble();
        double n10 = fp.get("refined").get(0).get("meanQueueLength").asDouble();
        double n100 = fp.get("refined").get(1).get("meanQueueLength").asDouble();
        // Order 1: the correction is ΣV/N, ten times smaller at N = 100.
        assertEquals(10 * (n100 - meanField), n10 - meanField, 1e-10);
        assertTrue(n10 > meanField + 0.3, "finite systems queue more than the mean field");
        // Busy fraction: E[X_1^N] = λ exactly for every N.
        assertEquals(0.9, fp.get("refined").get(0).get("tail").get(1).asDouble(), 1e-13);
        assertEquals(1, fp.get("refined").get(0).get("order").asInt());
        assertTrue(!fp.has("A"));
    }

    @Test
    void transientJsonHoldsPerTimeArrays() throws Exception {
        JsonNode tr = CliTest.json("transient", "--system", "pools", "--policy", "sqd", "--lambda", "3", "--t-end", "2",
                "--dt", "0.5", "--init", "tail:1,0.8,0.3", "--refined", "10", "--order", "2", "--format", "json");
        int times = tr.get("t").size();
        int levels = tr.get("truncation").asInt();
        JsonNode entry = tr.get("refined").get(0);
        assertEquals(10, entry.get("N").asInt());
        assertEquals(times, entry.get("tail").size());
        assertEquals(levels + 1, entry.get("tail").get(0).size());
        assertEquals(times, entry.get("meanQueueLength").size());
        assertEquals(times, tr.get("V").size());
        assertEquals(times, tr.get("covariance").size());
        assertEquals(levels, tr.get("covariance").get(times - 1).size());
        assertEquals(times, tr.get("A").size());
        for (int k = 0; k < times; k++) {
            // The number of tasks per pool is M/M/∞ whatever the routing: E[Σ X_i^N(t)] = u(t) for
            // every N (two integrations at tolerance ~1e-10 apart).
            assertEquals(tr.get("meanQueueLength").get(k).asDouble(), entry.get("meanQueueLength").get(k).asDouble(), 1e-8);
        }
        assertEquals(0.0, tr.get("V").get(0).get(2).asDouble(), 0.0);
        assertTrue(Math.abs(tr.get("V").get(times - 1).get(2).asDouble()) > 1e-4);
    }

    @Test
    void tableAndCsvShowTheRefinedColumns() {
        CliTest.Run table = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.7",
                "--refined", "10");
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("Refined mean field, order 1"), table.out());
        CliTest.Run csv = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.7",
                "--refined", "10,20", "--format", "csv");
        assertTrue(csv.out().startsWith("level,tail,V,tail_N10,tail_N20"), csv.out());
        CliTest.Run tcsv = CliTest.run("transient", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.7",
                "--t-end", "1", "--dt", "1", "--refined", "10", "--format", "csv");
        assertTrue(tcsv.out().startsWith("t,meanQueueLength,meanQueueLength_N10,meanResponseTime,"), tcsv.out());
    }

    @Test
    void distinctSamplingExpandsAroundTheLimitWithTheSizeCorrection() throws Exception {
        JsonNode replacement = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--refined", "10", "--format", "json");
        JsonNode distinct = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--sampling", "distinct", "--n", "10", "--refined", "10", "--format", "json");
        // Same limit; V gains −F⁻¹f¹ with f¹ from h¹(y) = y² − y (d = 2): SQ(2) with two distinct
        // servers balances better, so its 1/N term is smaller.
        double vReplacement = 0;
        double vDistinct = 0;
        for (int i = 0; i < replacement.get("V").size(); i++) {
            vReplacement += replacement.get("V").get(i).asDouble();
        }
        for (int i = 0; i < distinct.get("V").size(); i++) {
            vDistinct += distinct.get("V").get(i).asDouble();
        }
        assertTrue(vDistinct < vReplacement - 0.1, vDistinct + " vs " + vReplacement);
        // E[X_1^N] = λ for every N and both samplings.
        assertEquals(0.9, distinct.get("refined").get(0).get("tail").get(1).asDouble(), 1e-12);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--refined 10 --order 3;order = 3",
        "--order 2;order = 2",
        "--refined 0;refined = 0"})
    void badRefinedOptionsGiveOneClearLine(String options, String expected) {
        String[] base = {"fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9"};
        String[] extra = options.split(" ");
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        CliTest.Run r = CliTest.run(args);
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("mflb: " + expected), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }
}
