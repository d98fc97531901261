package org.mflb.pde.workload;

import java.util.Arrays;
import java.util.Locale;

import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.sojourn.Percentiles;

/**
 * The speed figure of issue 26 for the LL(d) workload model: the equilibrium with response-time
 * quantiles for log-normal sizes of SCV 4 at {@code λ = 0.95}, {@code d = 2}, to the default accuracy
 * (1e-6 relative on {@code E[R]} and on the quantiles 50, 90, 99, 99.9); the target is well under a
 * second. {@link #equilibrium()} is the task to time ({@code mflb bench} runs such tasks after
 * warm-up); {@link #main} prints the median of repetitions.
 */
public final class WorkloadBenchmark {

    /** The name of the benchmark case. */
    public static final String EQUILIBRIUM_CASE =
            "LL(2) equilibrium with response quantiles 50-99.9, lambda 0.95, lognormal SCV 4 (1e-6 on E[R])";

    private static final LeastLoaded MODEL = LeastLoaded.of(2, 0.95, ServiceDistributions.parse("lognormal:scv=4"));

    private WorkloadBenchmark() {
    }

    /** @return the equilibrium of the benchmark case, with its quantiles computed */
    public static WorkloadEquilibrium equilibrium() {
        WorkloadEquilibrium eq = MODEL.equilibrium(LeastLoaded.DEFAULT_TOLERANCE, Percentiles.DEFAULT);
        eq.responseQuantiles();
        return eq;
    }

    /**
     * @param warmups untimed runs first (JIT)
     * @param repetitions timed runs, {@code ≥ 1}
     * @return the median wall time of one run, in seconds
     */
    public static double medianSeconds(int warmups, int repetitions) {
        for (int i = 0; i < warmups; i++) {
            equilibrium();
        }
        double[] t = new double[Math.max(1, repetitions)];
        for (int i = 0; i < t.length; i++) {
            long t0 = System.nanoTime();
            equilibrium();
            t[i] = (System.nanoTime() - t0) * 1e-9;
        }
        Arrays.sort(t);
        return t[t.length / 2];
    }

    /** Prints the case, its results and the median time of 9 runs after 5 warm-up runs. */
    public static void main(String[] args) {
        WorkloadEquilibrium eq = equilibrium();
        System.out.println(EQUILIBRIUM_CASE);
        System.out.printf(Locale.ROOT, "  E[R] = %.10f (estimated error %.1e relative), reach %.0f, finest step %.5f%n",
                eq.meanResponseTime(), eq.relativeErrorEstimate(), eq.reach(), eq.finestStep());
        for (WorkloadEquilibrium.Quantile q : eq.responseQuantiles()) {
            System.out.printf(Locale.ROOT, "  p%s = %.10f (estimated error %.1e)%n", q.percentile(), q.value(),
                    q.errorEstimate());
        }
        System.out.printf(Locale.ROOT, "  median wall time %.3f s%n", medianSeconds(5, 9));
    }
}
