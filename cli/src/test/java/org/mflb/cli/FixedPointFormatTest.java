package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code mflb fixed-point}: the layout both kinds of fixed point share through one printer (the shared
 * fields first, each kind's own after them) is the public contract: the JSON keys in their order, the
 * CSV columns with a row per level, and the table's summary labels in their order, aligned.
 */
class FixedPointFormatTest {

    private static final String SHARED = "system policy lambda tail meanQueueLength truncation cutOffMass residual";

    private static String[] args(String line) {
        return line.trim().split("\\s+");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--system supermarket --policy sqd --lambda 0.9|iterations stable spectralAbscissa responseTimeQuantiles meanResponseTime",
        "--system loss --capacity 3 --policy random --lambda 2|iterations stable spectralAbscissa blocking beta service"
                + " ouMean covariance spectralGap blockingCorrection timeAverageVariance errorOrders responseTimeQuantiles meanResponseTime",
        "--system loss --capacity 3 --policy sqd --lambda 2 --refined 4 --exact|iterations stable spectralAbscissa"
                + " blocking refined V covariance beta service ouMean spectralGap blockingCorrection timeAverageVariance"
                + " errorOrders blockingApproximations exact responseTimeQuantiles meanResponseTime",
        "--system supermarket --policy sqd --lambda 0.9 --refined 10 --order 2|iterations stable spectralAbscissa refined V covariance A responseTimeQuantiles meanResponseTime",
        "--system supermarket --policy jsq --lambda 0.9|equilibrium responseTimeQuantiles meanResponseTime",
        "--system pools --policy threshold --threshold 0 --lambda 2.5|equilibrium threshold diagnosis responseTimeQuantiles meanResponseTime",
        "--system pools --policy adaptive-threshold --alpha 0.5 --lambda 2.5|equilibrium threshold settlingTime responseTimeQuantiles meanResponseTime"})
    void jsonKeysAreTheSharedOnesThenTheKindsOwn(String model, String own) throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point " + model + " --format json"));
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = fp.fieldNames(); it.hasNext();) {
            keys.add(it.next());
        }
        assertEquals(SHARED + " " + own, String.join(" ", keys));
        assertEquals(fp.get("truncation").asInt() + 1, fp.get("tail").size());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--system supermarket --policy sqd --lambda 0.9|level,tail",
        "--system supermarket --policy sqd --lambda 0.9 --refined 10,20|level,tail,V,tail_N10,tail_N20",
        "--system pools --policy jiq --lambda 1.7|level,tail"})
    void csvHasTheKindsColumnsAndARowPerLevel(String model, String header) throws Exception {
        int truncation = CliTest.json(args("fixed-point " + model + " --format json")).get("truncation").asInt();
        CliTest.Run csv = CliTest.run(args("fixed-point " + model + " --format csv"));
        assertEquals(0, csv.code(), csv.err());
        String[] lines = csv.out().strip().split("\n");
        assertEquals(header, lines[0]);
        assertEquals(truncation + 2, lines.length, "header, then levels 0..K");
        int columns = header.split(",").length;
        for (int i = 1; i < lines.length; i++) {
            String[] cells = lines[i].split(",");
            assertEquals(columns, cells.length, lines[i]);
            assertEquals(Integer.toString(i - 1), cells[0]);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--system supermarket --policy sqd --lambda 0.9|mean queue length,mean response time,response time,levels kept K,residual,stability",
        "--system loss --capacity 3 --policy random --lambda 2|mean queue length,blocking,mean response time,response time,levels kept K,residual,stability",
        "--system pools --policy threshold --threshold 0 --lambda 2.5|mean queue length,equilibrium,mean response time,response time,levels kept K,residual,note",
        "--system pools --policy adaptive-threshold --alpha 0.5 --lambda 2.5|mean queue length,equilibrium,settling time,mean response time,response time,levels kept K,residual"})
    void tableSummaryLabelsComeInOrderAligned(String model, String labels) {
        CliTest.Run table = CliTest.run(args("fixed-point " + model));
        assertEquals(0, table.code(), table.err());
        String[] lines = table.out().split("\n");
        assertTrue(lines[0].startsWith("Fixed point of ") && lines[0].contains(", lambda = "), lines[0]);
        String[] expected = labels.split(",");
        for (int k = 0; k < expected.length; k++) {
            String line = lines[k + 1];
            assertTrue(line.startsWith("  " + expected[k] + " "), line);
            // Every value starts in the same column: 2 spaces of indent + a 20-character label field.
            assertTrue(line.charAt(21) == ' ' && line.charAt(22) != ' ', line);
        }
        assertEquals("", lines[expected.length + 1], "a blank line separates the summary from the tail table");
        assertTrue(lines[expected.length + 2].contains("x_i = fraction with >= i jobs"), lines[expected.length + 2]);
    }
}
