package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.ServiceDistribution;

/** The test-only laws are consistent: ∫Ḡ = mean, ∫_a Ḡ / Ḡ(a) = m(a), −Ḡ' = g, Ḡ(quantile) = ε. */
class TestDistributionsTest {

    /** Composite Simpson on [a, b] with 20 000 panels: error far below 1e-9 for these smooth integrands. */
    private static double integrateSurvival(ServiceDistribution g, double a, double b) {
        int n = 20_000;
        double h = (b - a) / n;
        double sum = g.survival(a) + g.survival(b);
        for (int i = 1; i < n; i++) {
            sum += (i % 2 == 1 ? 4 : 2) * g.survival(a + i * h);
        }
        return sum * h / 3;
    }

    @Test
    void closedFormsAgreeWithEachOther() {
        for (ServiceDistribution g : new ServiceDistribution[] {TestDistributions.uniform02(), TestDistributions.h2(4)}) {
            double upper = g.survivalQuantile(1e-14);
            assertEquals(1e-14, g.survival(upper), 1e-15, g.spec());
            assertEquals(1.0, integrateSurvival(g, 0, upper), 1e-9, g.spec());
            double a = 0.5;
            assertEquals(g.meanResidualLife(a), integrateSurvival(g, a, upper) / g.survival(a), 1e-9, g.spec());
            double h = 1e-5;
            double slope = -(g.survival(a + h) - g.survival(a - h)) / (2 * h);
            assertEquals(g.density(a), slope, 1e-8, g.spec());
            assertEquals(g.density(a) / g.survival(a), g.hazard(a), 1e-12, g.spec());
        }
    }
}
