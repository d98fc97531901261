package org.mflb.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The tidy table's flattening rules, on the JSON shapes the commands print. */
class SweepTableTest {

    private static final String SIMULATE = """
            {"lambda": 0.9, "n": 100, "meanQueueLength": {"mean": 2.5, "ci95": [2.25, 2.75]},
             "tail": {"mean": [1, 0.9], "ci95Low": [1, 0.8], "ci95High": [1, 1.0]},
             "responseTimeQuantiles": [{"p": 50, "mean": 1.5, "ci95Low": 1.25, "ci95High": 1.75},
                                       {"p": 99.9, "mean": 9, "ci95Low": 8, "ci95High": 10}],
             "policyStatistics": {"memoryHits": {"mean": 0.5, "ci95": [null, null]}},
             "rows": [{"quantity": "x_1", "predicted": 0.9, "ci95": [0.85, 0.95], "passed": true}],
             "t": [0, 1, 2], "blocking": [0, 0.1, 0.2], "trajectory": [[1], [1], [1]]}""";

    @Test
    void scalarsEstimatesQuantilesAndFinalValuesBecomeColumns() {
        SweepPoint point = new SweepPoint(0, Map.of("lambda", "0.9"), List.of("simulate"));
        SweepTable table = new SweepTable("simulate", List.of("lambda"), List.of(point),
                List.of(new PointResult(0, 0, SIMULATE, "")));
        assertEquals(List.of("lambda", "status", "error", "n", "meanQueueLength", "meanQueueLength.ci95Low",
                "meanQueueLength.ci95High", "responseTimeQuantiles.p50", "responseTimeQuantiles.p50.ci95Low",
                "responseTimeQuantiles.p50.ci95High", "responseTimeQuantiles.p99.9",
                "responseTimeQuantiles.p99.9.ci95Low", "responseTimeQuantiles.p99.9.ci95High",
                "policyStatistics.memoryHits", "policyStatistics.memoryHits.ci95Low",
                "policyStatistics.memoryHits.ci95High", "rows.x_1.predicted", "rows.x_1.ci95Low", "rows.x_1.ci95High",
                "rows.x_1.passed", "blocking.final"), table.columns());
        assertEquals("0.9", table.cell(0, "lambda")); // the swept value, not the command's echo
        assertEquals(2.25, table.number(0, "meanQueueLength.ci95Low"));
        assertEquals(8.0, table.number(0, "responseTimeQuantiles.p99.9.ci95Low"));
        assertEquals("", table.cell(0, "policyStatistics.memoryHits.ci95High")); // null: no interval
        assertEquals(0.2, table.number(0, "blocking.final"));
        assertFalse(table.has("tail"));
    }

    @Test
    void modelFileVariablesAreColumnsByName() {
        String json = """
                {"names": ["S", "I"], "state": [0.25, 0.75], "residual": 1e-16,
                 "refined": [{"N": 10, "order": 1, "state": [0.2, 0.8]}],
                 "covariance": [[1, 0], [0, 1]],
                 "simulated": {"mean": [0.3, 0.7], "ci95Low": [0.2, 0.6], "ci95High": [0.4, 0.8]}}""";
        SweepTable table = new SweepTable("fixed-point", List.of("a"), List.of(new SweepPoint(0, Map.of("a", "1"),
                List.of())), List.of(new PointResult(0, 0, json, "")));
        assertEquals(List.of("a", "status", "error", "state.S", "state.I", "residual", "refined.N10.order",
                "refined.N10.state.S", "refined.N10.state.I", "simulated.S", "simulated.S.ci95Low",
                "simulated.S.ci95High", "simulated.I", "simulated.I.ci95Low", "simulated.I.ci95High"), table.columns());
        assertEquals(0.75, table.number(0, "state.I"));
    }

    @Test
    void failedPointsKeepTheirErrorAndEmptyResults() {
        List<SweepPoint> points = List.of(new SweepPoint(0, Map.of("lambda", "0.5"), List.of()),
                new SweepPoint(1, Map.of("lambda", "1.5"), List.of()));
        SweepTable table = new SweepTable("fixed-point", List.of("lambda"), points, List.of(
                new PointResult(0, 0, "{\"meanQueueLength\": 1.0}", ""),
                new PointResult(1, 1, "", "lambda = 1.5 is invalid: must be in (0, 1)")));
        assertEquals("lambda,status,error,meanQueueLength\n0.5,ok,,1.0\n1.5,failed,\"lambda = 1.5 is invalid: must be"
                + " in (0, 1)\",\n", table.csv());
        assertEquals(1, table.failed());
        assertTrue(table.jsonText().contains("\"error\" : \"lambda = 1.5 is invalid"));
        assertEquals(0.5, table.json().get("points").get(0).get("params").get("lambda").asDouble());
    }
}
