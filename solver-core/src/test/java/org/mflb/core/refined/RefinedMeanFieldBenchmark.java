package org.mflb.core.refined;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.linalg.RealSchurForm;

/**
 * Speed benchmark of the refined mean field (not a test: timings depend on the machine). Run with
 * {@code java -cp <test-classes>:<classes>:<deps> org.mflb.core.refined.RefinedMeanFieldBenchmark}.
 * Reports the median over repetitions after warm-up, for SQ(2) queues at λ = 0.9.
 */
public final class RefinedMeanFieldBenchmark {

    private RefinedMeanFieldBenchmark() {
    }

    private static double medianMillis(Runnable task, int warmup, int reps) {
        for (int i = 0; i < warmup; i++) {
            task.run();
        }
        double[] t = new double[reps];
        for (int i = 0; i < reps; i++) {
            long start = System.nanoTime();
            task.run();
            t[i] = (System.nanoTime() - start) / 1e6;
        }
        java.util.Arrays.sort(t);
        return t[reps / 2];
    }

    public static void main(String[] args) {
        for (int k : new int[] {20, 60}) {
            TailModel model = new TailModel(k, 0.9, 2, false);
            ClosedFormTailModel closed = new ClosedFormTailModel(k, 0.9, 2, false);
            double[] pi = model.queueFixedPoint();
            AutomaticRateDerivatives ad = new AutomaticRateDerivatives(model);
            RateJets jets2 = new RateJets(ad, 2 * k, 2);
            RateJets jets4 = new RateJets(ad, 2 * k, 4);
            System.out.printf("K=%d  AD jets order 2: %.4f ms, order 4: %.4f ms (%d colour groups)%n", k,
                    medianMillis(() -> ad.evaluate(0, pi, jets2), 2000, 2001),
                    medianMillis(() -> ad.evaluate(0, pi, jets4), 2000, 2001), ad.groupCount());
            DMatrixRMaj a = new DMatrixRMaj(k, k);
            model.jacobian(0, pi, a);
            System.out.printf("K=%d  real Schur form: %.3f ms%n", k, medianMillis(() -> RealSchurForm.of(a), 200, 201));
            RefinedMeanField order1 = new RefinedMeanField(1);
            RefinedMeanField order2 = new RefinedMeanField(2);
            System.out.printf("K=%d  steady state order 1 (AD, incl. sparsity discovery): %.3f ms%n", k,
                    medianMillis(() -> order1.steadyState(model, pi), 300, 301));
            System.out.printf("K=%d  steady state order 1 (AD, reused derivative source): %.3f ms%n", k,
                    medianMillis(() -> order1.steadyState(model, ad, pi), 300, 301));
            System.out.printf("K=%d  steady state order 1 (closed-form derivatives): %.3f ms%n", k,
                    medianMillis(() -> order1.steadyState(closed, pi), 300, 301));
            int reps = k <= 20 ? 101 : 11;
            System.out.printf("K=%d  steady state order 2 (AD): %.3f ms%n", k,
                    medianMillis(() -> order2.steadyState(model, pi), reps, reps));
            SteadyStateExpansion e = order2.steadyState(model, pi);
            System.out.printf("K=%d  mean queue length: mean field %.10f, 1/N %.10f, 1/N² %.10f at N = 10%n", k,
                    e.meanTotal(10, 0), e.meanTotal(10, 1), e.meanTotal(10, 2));
        }
        TailModel model = new TailModel(20, 0.9, 2, false);
        double[] times = {1, 5, 10, 50};
        for (int order = 1; order <= 2; order++) {
            RefinedMeanField rmf = new RefinedMeanField(order);
            System.out.printf("K=20  transient order %d, t in [0, 50]: %.1f ms%n", order,
                    medianMillis(() -> rmf.transientRegime(model, new double[20], 0, times), 2, 3));
        }
    }
}
