package org.mflb.validation;

import org.mflb.simulation.CiChecks;

import org.junit.jupiter.api.Test;
import org.mflb.fluid.diffusion.HalfinWhittJsq;
import org.mflb.fluid.diffusion.HalfinWhittLimit;
import org.mflb.fluid.diffusion.HalfinWhittStatistics;
import org.mflb.validation.HalfinWhittEuler;
import org.mflb.validation.HalfinWhittStudy;

/**
 * JSQ in the Halfin–Whitt regime (docs/models.md §9) against simulation: the simulated N-server
 * system against the exact capacity-2 chain, and the Euler scheme with exact reflection against the
 * lattice-extrapolated limit. Two joint checks (m = 2) at miss probability p = 0.005 each, none
 * allowed: false alarm ≤ 1%.
 */
class HalfinWhittSimulationTest {

    @Test
    void simulatedSystemAndEulerSchemeAgreeWithTheExactValues() {
        double beta = 1;
        HalfinWhittJsq model = new HalfinWhittJsq(beta);
        CiChecks checks = new CiChecks(0.01 / 2);

        // N = 400: the chain is exact for the infinite-buffer system up to P(Q3 > 0) = 3e-8
        int n = 400;
        HalfinWhittStudy.Settings settings = new HalfinWhittStudy.Settings(beta, new int[] {n}, 1e-5, new double[0],
                2e7, 8, 20_261_201L, 2, n);
        HalfinWhittStudy.SimulatedRow simulated = HalfinWhittStudy.simulate(settings, n, 20_261_201L);
        HalfinWhittStatistics exact = model.prelimit(n).stationary(new double[0]).statistics();
        checks.joint("N = 400 JSQ vs exact chain").add("E X2", simulated.meanX2(), exact.meanX2(), 0)
                .add("Var X1", simulated.varX1(), exact.varX1(), 0)
                .add("Cov(X1, X2)", simulated.covX1X2(), exact.covX1X2(), 0).check();

        // Euler with exact reflection, step 0.01: weak error O(step), bounded here by 2 step
        double step = 0.01;
        HalfinWhittStatistics limit = HalfinWhittLimit.stationary(model, 1e-6, new double[0], null).value();
        HalfinWhittEuler.Moments euler = HalfinWhittEuler.stationary(beta, step, 1e5, 40, 4_242L);
        checks.joint("Euler, step 0.01, vs limit").add("E X1", euler.meanX1(), -beta, 2 * step)
                .add("E X2", euler.meanX2(), limit.meanX2(), 2 * step)
                .add("Var X1", euler.varX1(), limit.varX1(), 2 * step)
                .add("E[dU/dt]", euler.localTimeRate(), limit.localTimeRate(), 2 * step).check();
        checks.assertAtMostMisses(0);
    }
}
