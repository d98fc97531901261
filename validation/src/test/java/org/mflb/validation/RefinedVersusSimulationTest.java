package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.PowerOfD;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;

/**
 * The refined mean field against the simulator (moderate sizes; the validation catalogue holds the
 * large ones). SQ(2) sampled with replacement, whose N-server system is exactly the density
 * dependent population process the expansion describes. Fixed seeds; each check is a 95%
 * confidence interval, and a stated number of misses is allowed so the test is not flaky.
 */
class RefinedVersusSimulationTest {

    private static SteadyStateExpansion expansion(double lambda) {
        FluidFixedPoint fp = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), lambda).fixedPoint();
        return new RefinedMeanField(2).steadyState(fp.smoothDrift().orElseThrow(), fp.levels());
    }

    private static ScenarioBuilder sq2(Sampling sampling, double lambda, int n, double tEnd) {
        return SimulationScenario.builder().model(LoadBalancingModel.of(ServerSystem.singleServerQueues(),
                new Policy.PowerOfD(2, sampling), lambda)).servers(n).tEnd(tEnd).replications(8).threads(2);
    }

    @Test
    void refinedMeanQueueLengthsAreWithinTheSimulationIntervals() {
        double[][] cases = {{0.9, 10, 1e5}, {0.7, 10, 1e5}, {0.9, 20, 5e4}};
        int misses = 0;
        for (int c = 0; c < cases.length; c++) {
            double lambda = cases[c][0];
            int n = (int) cases[c][1];
            SteadyStateExpansion e = expansion(lambda);
            Estimate sim = Simulator.run(sq2(Sampling.REPLACEMENT, lambda, n, cases[c][2]).seed(100 + c).build()).meanQueueLength();
            double meanField = e.meanTotal(n, 0);
            double order1 = e.meanTotal(n, 1);
            double order2 = e.meanTotal(n, 2);
            String where = "lambda = " + lambda + ", N = " + n + ": simulation " + sim + ", mean field " + meanField
                    + ", 1/N " + order1 + ", 1/N^2 " + order2;
            // The 1/N term removes most of the mean-field error (e.g. 2.35 → 2.75 against 2.80 at
            // λ = 0.9, N = 10): this holds far outside the statistical error.
            assertTrue(Math.abs(sim.mean() - order1) < Math.abs(sim.mean() - meanField) / 3, where);
            assertTrue(!sim.covers(meanField), where);
            if (!sim.covers(order2)) {
                misses++;
            }
        }
        // Three 95% intervals: at most one miss (probability of two or more ≈ 0.7% if all cover).
        assertTrue(misses <= 1, misses + " of " + cases.length + " intervals miss the 1/N² prediction");
    }

    @Test
    void simulatedCovarianceMatchesTheExpansion() {
        double lambda = 0.9;
        int n = 100;
        int levels = 4;
        SteadyStateExpansion e = expansion(lambda);
        SimulationResult r = Simulator.run(sq2(Sampling.REPLACEMENT, lambda, n, 1e4).replications(8).covarianceLevels(levels).seed(7).build());
        MatrixEstimate cov = r.covariance().orElseThrow();
        DMatrixRMaj predicted = e.covariance(n, 2);
        int misses = 0;
        int checks = 0;
        for (int i = 0; i < levels; i++) {
            for (int j = i; j < levels; j++) {
                checks++;
                Estimate sim = cov.get(i, j);
                // N·Cov(X^N) = W + (B − VVᵀ)/N + O(1/N²).
                if (!sim.covers(n * predicted.get(i, j))) {
                    misses++;
                }
            }
        }
        // Ten correlated 95% intervals: at most two misses.
        assertTrue(misses <= 2, misses + " of " + checks + " covariance intervals miss N·Cov");
    }

    @Test
    void distinctSamplingNeedsTheSizeCorrectionOfItsSelectionProbability() {
        // The real algorithm samples d distinct servers: h_N(y) = y(Ny − 1)/(N − 1) for d = 2, whose
        // 1/N term changes V (λ = 0.9, N = 10: 2.683 instead of 2.805 for sampling with replacement).
        double lambda = 0.9;
        int n = 10;
        FluidModel fluid = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.distinct(2, n), lambda);
        FluidFixedPoint limit = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), lambda).fixedPoint();
        SteadyStateExpansion e = new RefinedMeanField(2).steadyState(fluid.withLevels(limit.truncation()), limit.levels());
        SteadyStateExpansion replacement = expansion(lambda);
        // T = 3e5: shorter runs (1e5) gave intervals that understate the error at this load.
        Estimate sim = Simulator.run(sq2(Sampling.DISTINCT, lambda, n, 3e5).seed(11).build()).meanQueueLength();
        String where = "simulation " + sim + ", distinct 1/N^2 " + e.meanTotal(n, 2) + ", replacement 1/N^2 "
                + replacement.meanTotal(n, 2);
        assertTrue(sim.covers(e.meanTotal(n, 2)), where);
        // The with-replacement expansion is off by about ten half-widths.
        assertTrue(!sim.covers(replacement.meanTotal(n, 2)), where);
    }
}
