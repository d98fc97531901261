package org.mflb.pde.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.pde.ErlangCrommelin;

/**
 * {@code d = 1} is random routing: independent M/G/1 FCFS queues (docs/models.md §11.3), whose
 * workload is the waiting time: Pollaczek–Khinchine {@code E[W] = λE[X²]/(2(1 − λ))}, and for
 * deterministic sizes the Erlang–Crommelin law of docs/models.md §7.
 */
class WorkloadMG1Test {

    @Test
    void meanWaitIsPollaczekKhinchine() {
        String[] laws = {"det", "erlang:k=2", "h2:scv=4", "gamma:scv=0.5", "lognormal:scv=4", "weibull:shape=0.5"};
        for (String spec : laws) {
            ServiceDistribution g = ServiceDistributions.parse(spec);
            for (double lambda : new double[] {0.5, 0.9}) {
                WorkloadEquilibrium eq = LeastLoaded.of(1, lambda, g).equilibrium();
                double exact = lambda * g.moment(2) / (2 * (1 - lambda));
                // the default accuracy, 1e-6 relative on E[R], holds
                assertEquals(1 + exact, eq.meanResponseTime(), 1e-6 * (1 + exact), spec + ", lambda = " + lambda);
                assertTrue(eq.relativeErrorEstimate() <= 1e-6);
                assertEquals(1 - lambda, eq.idleShare(), 1e-15);
                assertEquals(lambda, eq.workloadSurvival(0), 1e-15, "F(0+) = lambda");
            }
        }
    }

    /**
     * M/D/1: {@code P(W > w)} by Erlang–Crommelin; the quantiles to 1e-8 (the march at a requested
     * 1e-9 on quantiles relative to {@code max(q, 1)}; measured errors near 1e-11).
     */
    @Test
    void deterministicSizesGiveErlangCrommelin() {
        Percentiles percentiles = Percentiles.of(50, 90, 99, 99.9);
        for (double lambda : new double[] {0.5, 0.9}) {
            WorkloadEquilibrium eq = LeastLoaded.of(1, lambda, ServiceDistributions.parse("det"))
                    .equilibrium(1e-9, percentiles);
            for (double w : new double[] {0.3, 1, 1.5, 2, 4.2, 10, 25}) {
                assertEquals(ErlangCrommelin.waitingSurvival(lambda, w), eq.waitingTime().survival(w), 1e-9,
                        "lambda = " + lambda + ": P(W > " + w + ")");
                // R = W + 1
                assertEquals(ErlangCrommelin.waitingSurvival(lambda, w), eq.responseTime().survival(w + 1), 1e-9);
            }
            for (WorkloadEquilibrium.Quantile q : eq.waitingQuantiles()) {
                double target = 1 - q.percentile() / 100;
                String c = "lambda = " + lambda + ": W p" + q.percentile();
                if (target >= lambda) {
                    assertEquals(0.0, q.value(), 0.0, c + " (the atom P(W = 0) = 1 - lambda)");
                    continue;
                }
                // the exact quantile lies within 1e-8: the exact survival brackets 1 - p there
                assertTrue(ErlangCrommelin.waitingSurvival(lambda, q.value() - 1e-8) > target, c);
                assertTrue(ErlangCrommelin.waitingSurvival(lambda, q.value() + 1e-8) < target, c);
            }
            for (WorkloadEquilibrium.Quantile q : eq.responseQuantiles()) {
                WorkloadEquilibrium.Quantile w = eq.waitingQuantiles().get(eq.responseQuantiles().indexOf(q));
                assertEquals(w.value() + 1, q.value(), 1e-12, "R = W + 1");
            }
        }
    }
}
