package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.loss.BlockingApproximations;
import org.mflb.fluid.loss.ExactLossChain;
import org.mflb.fluid.loss.LossPoolLimit;

/** {@code fixed-point --system loss} with --beta, --refined, --service and --exact: the JSON contract of issue 12. */
class LossCliTest {

    private static String[] args(String line) {
        return line.trim().split("\\s+");
    }

    @Test
    void lossFixedPointCarriesTheContractKeys() throws Exception {
        JsonNode fp = CliTest.json(args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5"
                + " --refined 10,12 --beta 1 --exact --format json"));
        LossPoolLimit limit = LossPoolLimit.of(5, PowerOfD.withReplacement(2), 4.5);
        assertEquals(0.121280, fp.get("blocking").asDouble(), 5e-7);
        assertEquals(limit.ouMean(1)[4], fp.get("ouMean").get(5).asDouble(), 1e-15);
        assertEquals(0.0, fp.get("ouMean").get(0).asDouble());
        assertEquals(limit.covariance().get(4, 4), fp.get("covariance").get(4).get(4).asDouble(), 1e-15);
        assertEquals(limit.spectralGap(), fp.get("spectralGap").asDouble(), 1e-15);
        assertEquals(0.18060, fp.get("blockingCorrection").asDouble(), 5e-6);
        assertEquals("O(1/N^2)", fp.get("errorOrders").get("refined").asText());
        JsonNode approx = fp.get("blockingApproximations");
        assertEquals(2, approx.size());
        JsonNode exact = fp.get("exact");
        for (int k = 0; k < 2; k++) {
            int n = k == 0 ? 10 : 12;
            BlockingApproximations b = BlockingApproximations.at(limit, 1, n);
            JsonNode e = approx.get(k);
            assertEquals(n, e.get("N").asInt());
            for (String key : new String[] {"meanField", "ouMean", "meanFieldAtLambdaN", "refined", "twoTerm"}) {
                assertTrue(e.get(key).isNumber(), key);
            }
            assertEquals(b.refined(), e.get("refined").asDouble(), 1e-15);
            assertEquals(b.twoTerm(), e.get("twoTerm").asDouble(), 1e-15);
            assertEquals(n, exact.get(k).get("N").asInt());
            assertEquals(ExactLossChain.of(5, 2, false, n, b.lambdaN()).blocking(),
                    exact.get(k).get("blocking").asDouble(), 1e-15);
        }
    }

    @Test
    void betaDefaultsToZeroAndServiceGivesThePhaseModel() throws Exception {
        JsonNode exp = CliTest.json(args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5 --refined 20 --format json"));
        JsonNode entry = exp.get("blockingApproximations").get(0);
        assertEquals(4.5, entry.get("lambdaN").asDouble());
        assertEquals(entry.get("meanField").asDouble(), entry.get("meanFieldAtLambdaN").asDouble());
        assertFalse(exp.has("exact"));
        JsonNode h2 = CliTest.json(args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5 --refined 20"
                + " --service h2:scv=4 --format json"));
        assertEquals("h2:scv=4", h2.get("service").asText());
        // insensitive mean field, weakly sensitive W (−0.24% at level 5) and R_B
        assertEquals(exp.get("blocking").asDouble(), h2.get("blocking").asDouble(), 1e-14);
        double w = exp.get("covariance").get(4).get(4).asDouble();
        double wh2 = h2.get("covariance").get(4).get(4).asDouble();
        assertTrue(wh2 < w && wh2 > 0.99 * w, wh2 + " vs " + w);
        assertTrue(h2.get("timeAverageVariance").get(4).asDouble() > 2 * exp.get("timeAverageVariance").get(4).asDouble());
    }

    @Test
    void badLossOptionsGiveOneLine() {
        String[][] bad = {
            args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5 --refined 100 --exact"),
            args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5 --exact"),
            args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5 --service det"),
            args("fixed-point --system loss --capacity 5 --policy sqd --lambda 1 --refined 4 --beta 3"),
            args("fixed-point --system pools --policy sqd --lambda 4.5 --beta 1"),
            args("fixed-point --system loss --capacity 5 --policy sqd --lambda 4.5 --refined 10 --exact --service h2:scv=2"),
        };
        String[] parameter = {"exact", "exact", "service", "beta", "beta", "exact"};
        CliTest.Run diffusion = CliTest.run(args("diffusion --system pools --policy sqd --lambda 4.5 --n 100 --service h2:scv=4"));
        assertEquals(1, diffusion.code());
        assertTrue(diffusion.err().contains("service"), diffusion.err());
        for (int k = 0; k < bad.length; k++) {
            CliTest.Run r = CliTest.run(bad[k]);
            assertEquals(1, r.code(), String.join(" ", bad[k]) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains(parameter[k]), r.err());
        }
    }
}
