package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mflb.simulation.TestModels.queues;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mflb.core.sojourn.ErlangMixture;
import org.mflb.core.system.Policy;

/**
 * The conditional response-time quantiles with the busy fraction x_1 as control variate
 * ({@link SimulationResult#controlVariateResponseTimeQuantiles()}), SQ(2) at λ = 0.9: several times
 * narrower intervals than the per-job estimator's, the same values as the per-job estimator, and the
 * fluid limit's at large N.
 *
 * <p>Why it works: at N = 10³–10⁴ both plain estimators' variance is dominated by the slow
 * fluctuation of the occupancy over a run (relaxation time about 13 at λ = 0.9), which the time
 * average x̄_1 of the same run follows closely (correlation 0.97–0.98 with the conditional quantiles)
 * and whose mean λ is exact. Half-width ratios per job / conditional with control variate, measured
 * with 400 replications of this test's first scenario (about ±5% each): 4.9 (p50), 4.6 (p90), 5.1
 * (p99), 8.1 (p99.9); at N = 10⁴ (48 replications of T = 1000) 5.2–5.9, 5.3–5.8, 5.9–7.2, 9.8–10.2.
 */
class ControlVariateQuantilesTest {

    private static final double LAMBDA = 0.9;
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    /**
     * N = 1000, m = 160 replications. The half-width ratio of a percentile is
     * {@code (t_{m−1}/t_{m−2}) · (s_d/s_res) / √(1 + T²/(m − 1))}, with s_d the per-job estimates'
     * standard deviation, s_res the regression's residual one and T ~ t_{m−1} the control's
     * standardized mean. Each of the 4 variance ratios falls below its F(m − 1, m − 2) 0.2% quantile,
     * or |T| above its t 99.9% quantile, with probability 0.2% (the variance estimates taken as
     * independent, which overstates the spread of their ratio when they are positively correlated, as
     * here), so a ratio below 3 at some percentile has probability at most 5 × 0.2% = 1% as long as
     * every true ratio is at least 3.89 — the measured ones are 4.6–8.1. The agreement with the
     * per-job estimator is one joint check of the 4 differences (conservative interval: the two come
     * from the same run and are positively correlated), false alarm at most 1%.
     */
    @Test
    void severalTimesNarrowerThanThePerJobEstimatorAndInAgreementWithIt() {
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.powerOfD(2), LAMBDA))
                .servers(1000).tEnd(500).warmup(100).replications(160).percentiles(PERCENTILES)
                .engine(Engine.AGENT).seed(151).threads(2).build());
        List<QuantileEstimate> perJob = r.perJobResponseTimeQuantiles().orElseThrow();
        List<QuantileEstimate> controlled = r.controlVariateResponseTimeQuantiles().orElseThrow();
        CiChecks checks = new CiChecks(0.01);
        CiChecks.Joint joint = checks.joint("SQ(2) per job - conditional with x_1 control");
        StringBuilder ratios = new StringBuilder();
        boolean narrower = true;
        for (int j = 0; j < PERCENTILES.length; j++) {
            Estimate direct = perJob.get(j).estimate();
            Estimate cv = controlled.get(j).estimate();
            joint.add("p" + PERCENTILES[j], EngineAgreementTest.difference(direct, cv), 0, 0);
            double ratio = direct.halfWidth() / cv.halfWidth();
            ratios.append(String.format(" p%s %.2f", PERCENTILES[j], ratio));
            narrower &= ratio >= 3;
        }
        joint.check();
        checks.assertAtMostMisses(0);
        assertTrue(narrower, "half-width per job / with control variate:" + ratios);
    }

    /**
     * N = 10⁴ on the occupancy engine, 8 replications: the controlled quantiles against the fluid
     * limit's closed form (SQ(2): s_j = x_j² = λ^{2^{j+1} − 2}), one joint check of the 4 percentiles
     * with false alarm at most 1%, each with a finite-N allowance of 3/N times the quantile (the
     * simulated quantiles lie above the fluid's by 1.7–1.8/N times the quantile, measured at N = 10³
     * with 100 replications, and by 0.5–1.2/N at N = 10⁴). The intervals have m − 2 degrees of freedom,
     * which the check is told (it widens with {@code samples − 1}).
     */
    @Test
    void theFluidLimitsQuantilesAtLargeN() {
        int n = 10_000;
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.powerOfD(2), LAMBDA))
                .servers(n).tEnd(400).warmup(100).replications(8).percentiles(PERCENTILES)
                .engine(Engine.OCCUPANCY).seed(152).threads(2).build());
        double[] shares = new double[12];
        for (int j = 0; j < shares.length; j++) {
            shares[j] = Math.pow(LAMBDA, Math.pow(2, j + 1) - 2);
        }
        ErlangMixture fluid = ErlangMixture.of(shares);
        CiChecks checks = new CiChecks(0.01);
        CiChecks.Joint joint = checks.joint("SQ(2) N = 10^4, conditional with x_1 control vs fluid");
        for (QuantileEstimate q : r.controlVariateResponseTimeQuantiles().orElseThrow()) {
            Estimate e = q.estimate();
            double truth = fluid.quantile(q.p() / 100);
            joint.add("p" + q.p(), new Estimate(e.mean(), e.ci95Low(), e.ci95High(), e.samples() - 1), truth,
                    3.0 / n * truth);
        }
        joint.check();
        checks.assertAtMostMisses(0);
    }

    @Test
    void onlyInSteadyStateRuns() {
        ScenarioBuilder b = SimulationScenario.builder().model(queues(Policy.powerOfD(2), 0.8)).servers(20)
                .tEnd(50).replications(3).percentiles(PERCENTILES).seed(153).threads(1);
        assertTrue(Simulator.run(b.build()).controlVariateResponseTimeQuantiles().isPresent());
        assertTrue(Simulator.run(b.dt(10).build()).controlVariateResponseTimeQuantiles().isEmpty(),
                "with a time grid (a transient run) E[x_1(t)] is not known");
        assertTrue(Simulator.run(b.dt(0).replications(2).build()).controlVariateResponseTimeQuantiles().isEmpty(),
                "fewer than 3 units");
        assertTrue(Simulator.run(b.replications(1).build()).controlVariateResponseTimeQuantiles().isPresent(),
                "one replication: over its batches");
    }
}
