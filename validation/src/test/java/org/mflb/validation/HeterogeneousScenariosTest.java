package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.fluid.heterogeneous.ClassFixedPoint;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;

/**
 * The per-quantity refined allowances of {@link HeterogeneousScenarios}: the 1/N coefficient of the mean
 * jobs per server is the refined mean field's V (docs/models.md §10: 9.221321 for a = (½, ½),
 * s = (1.5, 0.5), SQ(2), λ = 0.9; 7.406687 for SED(2)), that of E[R] is V/λ, and that of the throughput
 * Σ_k a_k λ_k vanishes: Σ_k s_k y_{k,1} = λ holds in expectation at every N (departures balance
 * arrivals), so a correct directional derivative along V must give 0 there.
 */
class HeterogeneousScenariosTest {

    @Test
    void firstOrderTermsOfTheClassQuantities() {
        double lambda = 0.9;
        Object[][] cases = {{Policy.powerOfD(2), 9.221321}, {new Policy.ShortestExpectedDelay(2, Sampling.REPLACEMENT),
            7.406687}};
        for (Object[] c : cases) {
            HeterogeneousFluid fluid = HeterogeneousFluid.of(HeterogeneousScenarios.model(HeterogeneousScenarios.TWO,
                    (Policy) c[0], lambda));
            ClassFixedPoint fp = fluid.fixedPoint();
            List<HeterogeneousScenarios.Quantity> q = HeterogeneousScenarios.classQuantities(fp,
                    fluid.refined(1).firstOrderTerm());
            // order: per class E[Q_k], lambda_k, E[R_k]; then E[Q], E[R]
            HeterogeneousScenarios.Quantity meanQ = q.get(6);
            assertEquals("E[Q]", meanQ.name());
            assertEquals(fp.meanQueueLength(), meanQ.value(), 1e-14);
            assertEquals((Double) c[1], meanQ.firstOrder(), 5e-6);
            assertEquals(meanQ.firstOrder() / lambda, q.get(7).firstOrder(), 1e-9);
            double throughput = 0;
            double throughputTerm = 0;
            double classMeans = 0;
            for (int k = 0; k < 2; k++) {
                double a = HeterogeneousScenarios.TWO.fraction(k);
                throughput += a * q.get(3 * k + 1).value();
                throughputTerm += a * q.get(3 * k + 1).firstOrder();
                classMeans += a * q.get(3 * k).firstOrder();
                assertEquals(fp.meanResponseTime(k), q.get(3 * k + 2).value(), 1e-12);
            }
            assertEquals(lambda, throughput, 1e-13);
            assertEquals(0.0, throughputTerm, 1e-8);
            assertEquals(meanQ.firstOrder(), classMeans, 1e-9);
        }
    }
}
