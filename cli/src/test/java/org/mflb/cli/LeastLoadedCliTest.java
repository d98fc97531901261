package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * {@code --policy ll} (issue 26's options and keys) through the command line, against independent
 * truths: the exponential closed forms of docs/models.md §11.4 ({@code F̄(w) = (λ + (λ^{1−d} − λ)
 * e^{(d−1)w})^{−1/(d−1)}}, {@code t_p = ln(((1 − p)^{1−d} − λ^d)/(1 − λ^d))/(d − 1)}, {@code d = 2}:
 * {@code E[R] = −ln(1 − λ²)/λ²}), {@code d = 1} = M/G/1 (Pollaczek–Khinchine {@code E[W] = λE[X²]/(2(1 − λ))}),
 * the transient's approach to the equilibrium, and one-line refusals.
 */
class LeastLoadedCliTest {

    private static final String[] LL = {"--system", "supermarket", "--policy", "ll"};

    private static String[] args(String command, String... more) {
        String[] all = new String[1 + LL.length + more.length];
        all[0] = command;
        System.arraycopy(LL, 0, all, 1, LL.length);
        System.arraycopy(more, 0, all, 1 + LL.length, more.length);
        return all;
    }

    /** §11.4: the workload ccdf of exponential sizes. */
    private static double workload(double lambda, int d, double w) {
        return Math.pow(lambda + (Math.pow(lambda, 1 - d) - lambda) * Math.exp((d - 1) * w), -1.0 / (d - 1));
    }

    /** §11.4: the response-time quantile of exponential sizes. */
    private static double quantile(double lambda, int d, double p) {
        return Math.log((Math.pow(1 - p, 1 - d) - Math.pow(lambda, d)) / (1 - Math.pow(lambda, d))) / (d - 1);
    }

    @Test
    void fixedPointJsonMatchesTheExponentialClosedForms() throws Exception {
        double lambda = 0.9;
        JsonNode fp = CliTest.json(args("fixed-point", "--d", "2", "--lambda", "0.9", "--percentiles", "50,90,99",
                "--format", "json"));
        double meanR = -Math.log(1 - lambda * lambda) / (lambda * lambda);
        assertEquals(2.0502854405, meanR, 1e-10, "docs/models.md §11.4's printed value");
        assertEquals(1e-6, fp.get("tolerance").asDouble());
        assertEquals(meanR, fp.get("meanResponseTime").asDouble(), 1e-6 * meanR, "the stated accuracy");
        assertEquals(meanR - 1, fp.get("meanWaitingTime").asDouble(), 1e-6 * meanR);
        assertEquals(lambda * fp.get("meanResponseTime").asDouble(), fp.get("meanQueueLength").asDouble(), 1e-12);
        assertTrue(fp.get("relativeErrorEstimate").asDouble() <= 1e-6, fp.toString());
        JsonNode q = fp.get("responseTimeQuantiles");
        double[] p = {50, 90, 99};
        assertEquals(3, q.size());
        for (int i = 0; i < p.length; i++) {
            assertEquals(p[i], q.get(i).get("p").asDouble());
            double exact = quantile(lambda, 2, p[i] / 100);
            assertEquals(exact, q.get(i).get("value").asDouble(), 1e-6 * exact, "p" + p[i]);
        }
        JsonNode survival = fp.get("workloadSurvival");
        assertEquals(LeastLoadedAnalysis.SURVIVAL_SAMPLES, survival.size());
        assertEquals(lambda, survival.get(0).get("value").asDouble(), 1e-9, "F(0+) = lambda");
        for (JsonNode s : survival) {
            double w = s.get("w").asDouble();
            assertEquals(workload(lambda, 2, w), s.get("value").asDouble(), 1e-6, "F(" + w + ")");
        }
    }

    @Test
    void tighterToleranceMeetsTheClosedFormOfDThree() throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point", "--d", "3", "--lambda", "0.9", "--tolerance", "1e-9",
                "--format", "json"));
        double x = Math.pow(0.9, 1.5);
        double meanR = 0.5 * Math.log((1 + x) / (1 - x)) / x; // artanh(λ^{3/2})/λ^{3/2}
        assertEquals(1.4875165429, meanR, 1e-10);
        assertEquals(meanR, fp.get("meanResponseTime").asDouble(), 1e-9 * meanR);
    }

    @Test
    void oneSampleIsPollaczekKhinchine() throws Exception {
        // E[X^2] = SCV + 1 for a law of mean 1: lognormal SCV 4 -> 5, deterministic -> 1
        for (Object[] c : new Object[][] {{"lognormal:scv=4", 5.0}, {"det", 1.0}}) {
            double lambda = 0.5;
            JsonNode fp = CliTest.json(args("fixed-point", "--d", "1", "--lambda", "0.5", "--service", (String) c[0],
                    "--tolerance", "1e-5", "--format", "json"));
            double pk = lambda * (double) c[1] / (2 * (1 - lambda));
            assertEquals(pk, fp.get("meanWaitingTime").asDouble(), 1e-5 * (1 + pk), (String) c[0]);
        }
    }

    @Test
    void transientFromEmptyApproachesTheEquilibrium() throws Exception {
        double lambda = 0.7;
        double meanR = -Math.log(1 - lambda * lambda) / (lambda * lambda);
        JsonNode tr = CliTest.json(args("transient", "--lambda", "0.7", "--t-end", "60", "--dt", "20",
                "--percentiles", "50,99", "--format", "json"));
        assertEquals(4, tr.get("t").size());
        JsonNode r = tr.get("meanResponseTime");
        assertEquals(1.0, r.get(0).asDouble(), 1e-12, "an empty system: no waiting");
        assertEquals(0.0, tr.get("busyFraction").get(0).asDouble(), 1e-12);
        assertEquals(meanR, r.get(3).asDouble(), 1e-4, "t = 60");
        assertEquals(lambda, tr.get("busyFraction").get(3).asDouble(), 1e-4, "busy fraction -> lambda");
        assertEquals(meanR - 1, tr.get("meanWaitingTime").get(3).asDouble(), 1e-4);
        JsonNode q = tr.get("responseTimeQuantiles").get(3);
        assertEquals(quantile(lambda, 2, 0.99), q.get(1).get("value").asDouble(), 1e-3);
        // started at the equilibrium it stays there
        JsonNode eq = CliTest.json(args("transient", "--lambda", "0.7", "--t-end", "10", "--dt", "10", "--init",
                "fixed-point", "--format", "json"));
        assertEquals(meanR, eq.get("meanResponseTime").get(0).asDouble(), 1e-4);
        assertEquals(meanR, eq.get("meanResponseTime").get(1).asDouble(), 1e-4);
        CliTest.Run csv = CliTest.run(args("transient", "--lambda", "0.7", "--t-end", "2", "--dt", "1", "--percentiles",
                "50", "--format", "csv"));
        assertEquals(0, csv.code(), csv.err());
        assertEquals("t,meanWaitingTime,meanResponseTime,busyFraction,meanWorkload,responseTime_p50",
                csv.out().lines().findFirst().orElseThrow());
    }

    @Test
    void simulateRunsTheWorkloadEngineWithTheUsualKeys() throws Exception {
        JsonNode sim = CliTest.json(args("simulate", "--d", "2", "--lambda", "0.8", "--n", "500", "--t-end", "100",
                "--seed", "3", "--percentiles", "50,99", "--format", "json", "--quiet"));
        assertEquals("workload", sim.get("engine").asText());
        assertEquals("ll", sim.get("policy").asText());
        assertEquals(2, sim.get("d").asInt());
        double meanR = -Math.log(1 - 0.64) / 0.64;
        JsonNode r = sim.get("meanResponseTime");
        assertEquals(2, r.get("ci95").size());
        assertEquals(meanR, r.get("mean").asDouble(), 0.1, "a short run near the limit");
        assertEquals(2, sim.get("responseTimeQuantiles").size());
        assertTrue(sim.has("meanWaitingTime"));
        CliTest.Run agent = CliTest.run(args("simulate", "--lambda", "0.8", "--n", "500", "--t-end", "10",
                "--engine", "agent"));
        assertEquals(1, agent.code());
        assertEquals(1, agent.err().strip().lines().count(), agent.err());
        assertTrue(agent.err().contains("engine = agent"), agent.err());
    }

    @Test
    void compareChecksTheEquilibriumAgainstSimulation() throws Exception {
        JsonNode c = CliTest.json(args("compare", "--d", "2", "--lambda", "0.8", "--n", "1000", "--t-end", "200",
                "--replications", "2", "--seed", "5", "--percentiles", "50,90", "--format", "json", "--quiet"));
        assertEquals("workload", c.get("engine").asText());
        java.util.List<String> quantities = new java.util.ArrayList<>();
        c.get("rows").forEach(row -> quantities.add(row.get("quantity").asText()));
        assertEquals(java.util.List.of("E[R]", "E[W]", "P(W = 0)", "R p50", "R p90"), quantities);
        assertEquals(0, c.get("failed").asInt(), c.toString());
        assertEquals(1 - 0.64, c.get("rows").get(2).get("predicted").asDouble(), 1e-12);
    }

    @Test
    void sweepRunsPolicyListsWithLl() throws Exception {
        JsonNode sweep = CliTest.json("sweep", "fixed-point", "--system", "supermarket", "--policy", "sqd,ll", "--d", "2",
                "--lambda", "0.5,0.9", "--format", "json", "--quiet");
        JsonNode points = sweep.get("points");
        assertEquals(4, points.size());
        JsonNode last = points.get(3);
        assertEquals("ll", last.get("params").get("policy").asText());
        assertEquals(-Math.log(1 - 0.81) / 0.81, last.get("result").get("meanResponseTime").asDouble(), 1e-5);
    }

    @Test
    void badInputIsOneLine() {
        String[][] bad = {
            {"fixed-point", "--system", "pools", "--policy", "ll", "--lambda", "0.5"},
            {"fixed-point", "--system", "loss", "--capacity", "3", "--policy", "ll", "--lambda", "0.5"},
            args("fixed-point", "--lambda", "1"),
            args("fixed-point", "--lambda", "1.2"),
            args("compare", "--lambda", "1", "--n", "100"),
            args("simulate", "--lambda", "1.1", "--n", "100", "--t-end", "10"),
            args("fixed-point", "--lambda", "0.5", "--service", "pareto:shape=1.5"),
            args("compare", "--lambda", "0.5", "--service", "pareto:shape=1.5", "--n", "100"),
            args("simulate", "--lambda", "0.5", "--service", "pareto:shape=1.5", "--n", "100", "--t-end", "10"),
            args("fixed-point", "--lambda", "0.5", "--d", "1", "--service", "pareto:shape=1.8"),
            args("fixed-point", "--lambda", "0.5", "--service", "exp:mean=2"),
            args("fixed-point", "--lambda", "0.5", "--sampling", "speed"),
            args("fixed-point", "--lambda", "0.5", "--sampling", "distinct"),
            args("fixed-point", "--lambda", "0.5", "--refined", "10"),
            args("fixed-point", "--lambda", "0.5", "--tolerance", "0.5"),
            args("transient", "--lambda", "0.5", "--t-end", "1", "--dt", "1", "--init", "tail:1,0.5"),
            args("compare", "--lambda", "0.5", "--n", "100", "--dt", "1", "--t-end", "2"),
            {"fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5", "--tolerance", "1e-8"},
            {"fixed-point", "--system", "supermarket", "--policy", "ll", "--classes", "0.5:2,0.5:0.5", "--lambda", "0.5"}};
        for (String[] args : bad) {
            CliTest.Run r = CliTest.run(args);
            assertEquals(1, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().startsWith("mflb: ") && !r.err().contains("internal error"), r.err());
        }
    }
}
