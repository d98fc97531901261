package org.mflb.pde;

import java.util.Arrays;

import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;

/**
 * Benchmark and long studies (a main, not a test; run it on a quiet machine):
 * <ol>
 * <li>issue 6's speed target: SQ(2), λ = 0.9, log-normal SCV 4, t ∈ [0, 50] from empty, output every
 * 0.5: wall time (median of 5 after warm-up) and max tail error against a reference (Richardson over
 * h = 0.00625 and 0.003125), for several steps, with the observed order;</li>
 * <li>equilibria with heavy tails: levels, cut-off mass and wall time.</li>
 * </ol>
 * {@code java ... org.mflb.pde.PdeBenchmark}
 */
public final class PdeBenchmark {

    private PdeBenchmark() {
    }

    static double maxError(PdeTransient a, PdeTransient b) {
        double err = 0;
        for (int k = 0; k < a.grid().size(); k++) {
            double[] x = a.tail(k);
            double[] y = b.tail(k);
            for (int i = 1; i < Math.max(x.length, y.length); i++) {
                err = Math.max(err, Math.abs((i < x.length ? x[i] : 0) - (i < y.length ? y[i] : 0)));
            }
        }
        return err;
    }

    static double medianSeconds(Runnable r, int repeats) {
        double[] t = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            long t0 = System.nanoTime();
            r.run();
            t[i] = (System.nanoTime() - t0) * 1e-9;
        }
        Arrays.sort(t);
        return t[repeats / 2];
    }

    public static void main(String[] args) {
        TimeGrid grid = TimeGrid.uniform(50, 0.5);
        HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, ServiceDistributions.parse("lognormal:scv=4"));
        for (int warm = 0; warm < 5; warm++) {
            pde.transientFrom(PdeInitialState.empty(), grid);
        }
        PdeTransient ref = pde.withAgeStep(0.00625).withRichardson(true).transientFrom(PdeInitialState.empty(), grid);
        System.out.println("SQ(2), lambda 0.9, lognormal SCV 4, t in [0, 50]:");
        double previous = Double.NaN;
        for (double h : new double[] {0.1, 0.05, 0.025, 0.0125}) {
            HydrodynamicPde p = pde.withAgeStep(h);
            PdeTransient tr = p.transientFrom(PdeInitialState.empty(), grid);
            double err = maxError(tr, ref);
            double secs = medianSeconds(() -> p.transientFrom(PdeInitialState.empty(), grid), 5);
            System.out.printf("  h = %.4f: %.3f s, max tail error %.2e (ratio %.2f, order %.2f)%s%n", h, secs, err,
                    previous / err, Math.log(previous / err) / Math.log(2), h == HydrodynamicPde.DEFAULT_AGE_STEP
                            ? "   <- default" : "");
            previous = err;
        }
        for (double h : new double[] {0.1, 0.05}) {
            HydrodynamicPde p = pde.withAgeStep(h).withRichardson(true);
            double err = maxError(p.transientFrom(PdeInitialState.empty(), grid), ref);
            double secs = medianSeconds(() -> p.transientFrom(PdeInitialState.empty(), grid), 5);
            System.out.printf("  h = %.4f with Richardson: %.3f s, max tail error %.2e%n", h, secs, err);
        }
        System.out.println("Equilibria:");
        String[][] cases = {{"1", "0.9", "pareto:shape=2.5"}, {"1", "0.7", "lognormal:scv=4"},
            {"1", "0.6", "weibull:shape=0.5"}, {"2", "0.9", "pareto:shape=2.5"}, {"2", "0.9", "lognormal:scv=10"},
            {"3", "0.9", "pareto:shape=1.5"}, {"2", "0.9", "pareto:shape=1.6"}};
        for (String[] c : cases) {
            HydrodynamicPde p = HydrodynamicPde.of(Integer.parseInt(c[0]), Double.parseDouble(c[1]),
                    ServiceDistributions.parse(c[2]));
            long t0 = System.nanoTime();
            PdeEquilibrium eq = p.equilibrium();
            double secs = (System.nanoTime() - t0) * 1e-9;
            System.out.printf("  d = %s, lambda %s, %s: E[Q] %.8f, levels %d, cut-off %.2e +- %.1e, %.2f s%n", c[0],
                    c[1], c[2], eq.meanQueueLength(), eq.levels(), eq.cutOffMass(), eq.cutOffUncertainty(), secs);
        }
    }
}
