package org.mflb.fluid.diffusion;

import org.mflb.core.MflbException;

/**
 * Transient means {@code E X₁(t), E X₂(t)} of the Halfin–Whitt JSQ system from a given state
 * (docs/models.md §9): for the exact N-server chain ({@link #prelimit}) and for the diffusion
 * ({@link #diffusion}: the forward equation of the Kushner lattices of steps 0.2, 0.1, 0.05, each by
 * uniformisation, extrapolated to h = 0). Both on the cut {@code x₁ ≥ −(β + 6)},
 * {@code x₂ ≤ max(x₂(0) + 8, (16 + ln(1 + 40/β))/β)}, where the stationary tails are below 1e-7
 * (accuracy about 1e-6, the aim of a transient comparison); the mass reaching the top level is
 * returned so that the cut can be checked. The work grows like {@code N^{3/2} t}: seconds for
 * N ≤ 1600 and t ≤ 10.
 *
 * @param times the output times
 * @param meanX1 E X₁(t)
 * @param meanX2 E X₂(t)
 * @param errorX1 error estimate of {@code meanX1} (0 for the exact chain)
 * @param errorX2 error estimate of {@code meanX2} (0 for the exact chain)
 * @param topMass the largest probability of the top level over the times
 */
public record HalfinWhittTransient(double[] times, double[] meanX1, double[] meanX2, double[] errorX1,
        double[] errorX2, double topMass) {

    /** Steps of the lattices of {@link #diffusion}. */
    static final double[] DIFFUSION_STEPS = {0.2, 0.1, 0.05};

    /** Copies. */
    public HalfinWhittTransient {
        times = times.clone();
        meanX1 = meanX1.clone();
        meanX2 = meanX2.clone();
        errorX1 = errorX1.clone();
        errorX2 = errorX2.clone();
    }

    private static double height(HalfinWhittJsq model, double x2) {
        return Math.max(x2 + 8, (16 + Math.log(1 + 40 / model.beta())) / model.beta());
    }

    private static double depth(HalfinWhittJsq model) {
        return model.beta() + 6;
    }

    private static void checkStart(double x1, double x2) {
        if (!(x1 <= 0 && x1 >= -5)) {
            throw MflbException.invalid("x1(0)", x1, "in [-5, 0]");
        }
        if (!(x2 >= 0 && x2 <= 50)) {
            throw MflbException.invalid("x2(0)", x2, "in [0, 50]");
        }
    }

    /**
     * @param model β
     * @param n N
     * @param x1 X₁(0), in [−5, 0]: {@code Q₁(0) = N + round(x₁√N)}
     * @param x2 X₂(0), in [0, 50]: {@code Q₂(0) = round(x₂√N)} (at most Q₁(0))
     * @param times increasing times ≥ 0
     * @return the exact transient means of the capacity-2 chain
     */
    public static HalfinWhittTransient prelimit(HalfinWhittJsq model, int n, double x1, double x2, double[] times) {
        checkStart(x1, x2);
        JsqPrelimit chain = new JsqPrelimit(n, model.beta(), depth(model), height(model, x2));
        double root = Math.sqrt(n);
        int k = (int) Math.round(-x1 * root);
        int j = (int) Math.min(Math.round(x2 * root), n - k);
        double[][] r = LevelChainTransient.means(chain, j, Math.min(k, chain.lastPhase(j)), times);
        return new HalfinWhittTransient(times, r[0], r[1], new double[times.length], new double[times.length],
                max(r[2]));
    }

    /**
     * @param model β
     * @param x1 X₁(0), in [−5, 0], rounded to a multiple of 0.2
     * @param x2 X₂(0), in [0, 50], rounded to a multiple of 0.2
     * @param times increasing times ≥ 0
     * @return the diffusion's transient means, extrapolated in h
     */
    public static HalfinWhittTransient diffusion(HalfinWhittJsq model, double x1, double x2, double[] times) {
        checkStart(x1, x2);
        double coarse = DIFFUSION_STEPS[0];
        long k0 = Math.round(-x1 / coarse);
        long j0 = Math.round(x2 / coarse);
        int m = times.length;
        double[][] values = new double[DIFFUSION_STEPS.length][];
        double top = 0;
        for (int s = 0; s < DIFFUSION_STEPS.length; s++) {
            double h = DIFFUSION_STEPS[s];
            long factor = Math.round(coarse / h);
            HalfinWhittLattice lattice = new HalfinWhittLattice(model.beta(), h, depth(model),
                    Math.ceil(height(model, x2) / coarse) * coarse);
            int j = (int) (j0 * factor);
            int k = (int) Math.min(k0 * factor, lattice.lastPhase(j));
            double[][] r = LevelChainTransient.means(lattice, j, k, times);
            values[s] = new double[2 * m];
            System.arraycopy(r[0], 0, values[s], 0, m);
            System.arraycopy(r[1], 0, values[s], m, m);
            top = Math.max(top, max(r[2]));
        }
        double[][] e = Extrapolation.toZero(DIFFUSION_STEPS, values);
        return new HalfinWhittTransient(times, java.util.Arrays.copyOfRange(e[0], 0, m),
                java.util.Arrays.copyOfRange(e[0], m, 2 * m), java.util.Arrays.copyOfRange(e[1], 0, m),
                java.util.Arrays.copyOfRange(e[1], m, 2 * m), top);
    }

    private static double max(double[] a) {
        double m = 0;
        for (double v : a) {
            m = Math.max(m, v);
        }
        return m;
    }
}
