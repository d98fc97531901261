package org.mflb.pde.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.sojourn.Percentiles;

/**
 * Exponential job sizes, where (E2) has the closed forms of docs/models.md §11.4:
 * <pre>
 *   F̄(w) = (λ + (λ^{1−d} − λ) e^{(d−1)w})^{−1/(d−1)},   P(R > t) = F̄(t)/λ,
 *   t_p = ln(((1 − p)^{1−d} − λ^d)/(1 − λ^d))/(d − 1),   E[R] = Σ_{n≥0} λ^{dn}/(1 + n(d−1)).
 * </pre>
 */
class WorkloadExponentialTest {

    /**
     * The issue asks for 1e-10 on E[R] and the quantiles. The march is run at a requested 1e-11:
     * its estimate (the change of the Richardson value between grid pairs) is conservative by about
     * 16 here, so the actual error is far below 1e-10 (measured: 1e-12 on E[R]).
     */
    private static final double CLOSED_FORM = 1e-10;

    static double workload(int d, double lambda, double w) {
        return Math.pow(lambda + (Math.pow(lambda, 1 - d) - lambda) * Math.exp((d - 1) * w), -1.0 / (d - 1));
    }

    static double meanResponse(int d, double lambda) {
        double s = 0;
        double term = 1;
        for (int n = 0; n < 100_000 && term > 1e-18; n++) {
            term = Math.pow(lambda, d * (double) n) / (1 + n * (d - 1.0));
            s += term;
        }
        return s;
    }

    static double responseQuantile(int d, double lambda, double p) {
        double ld = Math.pow(lambda, d);
        return Math.log((Math.pow(1 - p, 1 - d) - ld) / (1 - ld)) / (d - 1);
    }

    @Test
    void seriesMatchesTheClosedFormsForTwoAndThreeChoicesAndTheReferenceNumbers() {
        for (double lambda : new double[] {0.5, 0.9, 0.99}) {
            double l2 = lambda * lambda;
            assertEquals(-Math.log(1 - l2) / l2, meanResponse(2, lambda), 1e-13 * meanResponse(2, lambda));
            double r = Math.pow(lambda, 1.5);
            double atanh = 0.5 * Math.log((1 + r) / (1 - r));
            assertEquals(atanh / r, meanResponse(3, lambda), 1e-13 * meanResponse(3, lambda));
        }
        // docs/models.md §11.4
        assertEquals(2.0502854405, meanResponse(2, 0.9), 1e-10);
        assertEquals(1.4875165429, meanResponse(3, 0.9), 1e-10);
        assertEquals(1.8346845139, responseQuantile(2, 0.9, 0.5), 1e-10);
        assertEquals(3.8788471432, responseQuantile(2, 0.9, 0.9), 1e-10);
        assertEquals(6.2577684096, responseQuantile(2, 0.9, 0.99), 1e-10);
    }

    @Test
    void marchReproducesTheClosedFormsToOneInTenBillion() {
        Percentiles percentiles = Percentiles.of(50, 90, 99);
        for (int d : new int[] {2, 3}) {
            for (double lambda : new double[] {0.5, 0.9, 0.99}) {
                String c = "d = " + d + ", lambda = " + lambda;
                WorkloadEquilibrium eq = LeastLoaded.of(d, lambda, ServiceDistributions.parse("exp"))
                        .equilibrium(1e-11, percentiles);
                double exact = meanResponse(d, lambda);
                assertEquals(exact, eq.meanResponseTime(), CLOSED_FORM * exact, c + ": E[R]");
                assertTrue(eq.errorEstimate() <= 1e-11 * eq.meanResponseTime(), c + ": estimate");
                for (WorkloadEquilibrium.Quantile q : eq.responseQuantiles()) {
                    double p = q.percentile() / 100;
                    assertEquals(responseQuantile(d, lambda, p), q.value(), CLOSED_FORM, c + ": p" + q.percentile());
                    assertEquals(q.value(), eq.responseTime().quantile(p), 0.0, "the law gives the same quantile");
                }
                for (double w : new double[] {0, 0.3, 1, 2.5, 7}) {
                    assertEquals(workload(d, lambda, w), eq.workloadSurvival(w), CLOSED_FORM, c + ": F(" + w + ")");
                    assertEquals(workload(d, lambda, w) / lambda, eq.responseTime().survival(w), CLOSED_FORM,
                            c + ": P(R > " + w + ")");
                    assertEquals(Math.pow(workload(d, lambda, w), d), eq.waitingTime().survival(w), CLOSED_FORM,
                            c + ": P(W > " + w + ")");
                }
                assertEquals(1 - Math.pow(lambda, d), eq.idleShare(), 1e-15);
            }
        }
    }

    @Test
    void defaultAccuracyIsMetAndStated() {
        WorkloadEquilibrium eq = LeastLoaded.of(2, 0.9, ServiceDistributions.parse("exp")).equilibrium();
        double exact = meanResponse(2, 0.9);
        assertEquals(LeastLoaded.DEFAULT_TOLERANCE, eq.tolerance());
        assertTrue(eq.relativeErrorEstimate() <= 1e-6, "estimate " + eq.relativeErrorEstimate());
        assertTrue(Math.abs(eq.meanResponseTime() - exact) <= eq.errorEstimate(), "the estimate bounds the error");
        assertEquals(exact, eq.meanResponseTime(), 1e-6 * exact);
    }

    /** θ = d(1 − E e^{−θX}) (docs/models.md §11.5): exp θ = d − 1; the table's values for det, Erlang-2, H2 SCV 10. */
    @Test
    void heavyTrafficRates() {
        for (int d = 2; d <= 4; d++) {
            assertEquals(d - 1, LeastLoaded.of(d, 0.5, ServiceDistributions.parse("exp")).heavyTrafficRate(), 1e-11);
        }
        assertEquals(1.593624, LeastLoaded.of(2, 0.5, ServiceDistributions.parse("det")).heavyTrafficRate(), 1e-6);
        assertEquals(2.821439, LeastLoaded.of(3, 0.5, ServiceDistributions.parse("det")).heavyTrafficRate(), 1e-6);
        // Erlang-2, d = 2: θ = 2(1 − 4/(2+θ)²) gives θ = √5 − 1
        assertEquals(Math.sqrt(5) - 1, LeastLoaded.of(2, 0.5, ServiceDistributions.parse("erlang:k=2"))
                .heavyTrafficRate(), 1e-11);
        assertEquals(2.372281, LeastLoaded.of(3, 0.5, ServiceDistributions.parse("erlang:k=2")).heavyTrafficRate(),
                1e-6);
        assertEquals(0.426401, LeastLoaded.of(2, 0.5, ServiceDistributions.parse("h2:scv=10")).heavyTrafficRate(),
                1e-6);
        assertEquals(1.283349, LeastLoaded.of(3, 0.5, ServiceDistributions.parse("h2:scv=10")).heavyTrafficRate(),
                1e-6);
    }
}
