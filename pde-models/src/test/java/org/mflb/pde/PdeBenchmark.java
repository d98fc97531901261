package org.mflb.pde;

import org.mflb.core.ode.TimeGrid;

/**
 * Benchmark (a main, not a test): SQ(2), λ = 0.9, log-normal SCV 4, t ∈ [0, 50] from empty.
 * Prints the wall time of the default settings and their error against a reference run
 * (Richardson over h = 0.0025 and 0.00125).
 */
public final class PdeBenchmark {

    private PdeBenchmark() {
    }

    public static void main(String[] args) {
        TimeGrid grid = TimeGrid.uniform(50, 0.5);
        HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, TestLaws.lognormal(4));
        for (int warm = 0; warm < 2; warm++) {
            pde.transientFrom(PdeInitialState.empty(), grid);
        }
        PdeTransient ref = pde.withAgeStep(0.0025).transientFrom(PdeInitialState.empty(), grid);
        for (double h : new double[] {0.04, 0.02, 0.01}) {
            long t0 = System.nanoTime();
            PdeTransient tr = pde.withAgeStep(h).transientFrom(PdeInitialState.empty(), grid);
            double secs = (System.nanoTime() - t0) * 1e-9;
            double err = 0;
            for (int k = 0; k < grid.size(); k++) {
                double[] a = tr.tail(k);
                double[] b = ref.tail(k);
                for (int i = 1; i < Math.max(a.length, b.length); i++) {
                    err = Math.max(err, Math.abs((i < a.length ? a[i] : 0) - (i < b.length ? b[i] : 0)));
                }
            }
            System.out.printf("h = %.3f (Richardson): %.3f s, levels %d, max tail error vs reference %.2e%n", h, secs,
                    tr.levels(), err);
        }
    }
}
