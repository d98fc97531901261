package org.mflb.fluid.diffusion;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The stationary law of a {@link LevelChain} by linear level reduction (docs/models.md §9). With
 * {@code π_j} the row vector of level j, {@code T_j = −A_j} (A_j the level's local generator,
 * its diagonal holding every outflow) and the rank-one up-matrix {@code up_j e_0 e_0ᵀ}, the
 * stationary equations reduce, from the top level down, to
 * <pre>
 *   π_j = π_{j−1}(0) up_{j−1} ĝ_j,     ĝ_jᵀ T_j = e_0ᵀ + ĝ_j(0) up_{j−1} w_jᵀ,     w_j(k) = ĝ_{j+1}(k) down_{j+1}(k)
 * </pre>
 * (w_M = 0): the whole level is one scalar times a fixed vector, because mass enters it from below
 * only at phase 0. Each ĝ_j is two solves with the tridiagonal M-matrix {@code T_jᵀ} (Thomas
 * algorithm: its pivots stay positive without pivoting, and its substitutions add terms of one
 * sign; its pivots are formed as sums of outflow rates, Grassmann–Taksar–Heyman style, never as
the difference of a diagonal and a product, so a leak far below the diagonal's rounding error, as at
a boundary many standard deviations away, keeps them positive) and the scalar
 * {@code ĝ_j(0) = y(0)/(1 − up_{j−1} z(0))}, so the work is linear in the number of states and the
 * memory linear in the number of levels: each level keeps only its mass, its boundary mass and the
 * first two moments of its phase. Level 0 solves {@code π_0ᵀ T_0 = up_0 w_0ᵀ}; that its solution has
 * {@code π_0(0) = 1} is the conservation of probability, reported as {@link LevelChainLaw#balanceResidual()}.
 */
public final class LevelReduction {

    private LevelReduction() {
    }

    /**
     * @param chain the chain
     * @param phaseMarginal whether to compute the phase marginal {@code Σ_j π_j(k)} too (a second
     *        sweep, doubling the time)
     * @return the stationary law's level-wise summaries
     */
    public static LevelChainLaw stationary(LevelChain chain, boolean phaseMarginal) {
        int top = chain.topLevel();
        Sweep sweep = new Sweep(chain);
        sweep.run(null, null);
        double[] mass = new double[top + 1];
        double[] boundary = new double[top + 1];
        double[] first = new double[top + 1];
        double[] second = new double[top + 1];
        mass[0] = sweep.level0Mass;
        boundary[0] = sweep.level0Boundary;
        first[0] = sweep.level0First;
        second[0] = sweep.level0Second;
        double[] coefficient = new double[top + 1];
        for (int j = 1; j <= top; j++) {
            double c = boundary[j - 1] * sweep.up[j - 1];
            coefficient[j] = c;
            mass[j] = c * sweep.gMass[j];
            boundary[j] = c * sweep.gBoundary[j];
            first[j] = c * sweep.gFirst[j];
            second[j] = c * sweep.gSecond[j];
        }
        double total = 0;
        for (double m : mass) {
            total += m;
        }
        if (!(total > 0) || Double.isInfinite(total)) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                    "level reduction failed: total mass " + total + " (rates too large or too small for double precision)");
        }
        for (int j = 0; j <= top; j++) {
            mass[j] /= total;
            boundary[j] /= total;
            first[j] /= total;
            second[j] /= total;
            coefficient[j] /= total;
        }
        double[] marginal = null;
        if (phaseMarginal) {
            marginal = new double[chain.lastPhase(0) + 1];
            coefficient[0] = 1 / total;
            sweep.run(coefficient, marginal);
        }
        return new LevelChainLaw(chain.step(), mass, boundary, first, second, sweep.up.clone(), marginal,
                Math.abs(sweep.level0Boundary - 1));
    }

    /** One top-down pass; stores the per-level summaries of ĝ_j, or accumulates the phase marginal. */
    private static final class Sweep {
        private final LevelChain chain;
        final double[] up;
        final double[] gMass;
        final double[] gBoundary;
        final double[] gFirst;
        final double[] gSecond;
        double level0Mass;
        double level0Boundary;
        double level0First;
        double level0Second;

        Sweep(LevelChain chain) {
            this.chain = chain;
            int top = chain.topLevel();
            up = new double[top + 1];
            gMass = new double[top + 1];
            gBoundary = new double[top + 1];
            gFirst = new double[top + 1];
            gSecond = new double[top + 1];
        }

        /**
         * @param coefficient null on the first pass; then {@code π_j = coefficient[j] ĝ_j} (and
         *        {@code π_0 = coefficient[0] z_0}) is accumulated into {@code marginal}
         */
        void run(double[] coefficient, double[] marginal) {
            int top = chain.topLevel();
            int width = chain.lastPhase(0) + 1;
            double[] toward = new double[width];
            double[] away = new double[width];
            double[] down = new double[width];
            double[] w = new double[width]; // ĝ_{j+1}(k) down_{j+1}(k), to be scaled by up_j
            double[] cp = new double[width];
            double[] dy = new double[width];
            double[] dz = new double[width];
            double[] y = new double[width];
            double[] z = new double[width];
            int previousLast = -1;
            for (int j = top; j >= 0; j--) {
                int last = chain.lastPhase(j);
                if (last < 0 || last >= width || (previousLast >= 0 && last < previousLast)) {
                    throw new IllegalStateException("lastPhase must be non-increasing in the level, within [0, K_0]");
                }
                java.util.Arrays.fill(toward, 0, last + 1, 0);
                java.util.Arrays.fill(away, 0, last + 1, 0);
                java.util.Arrays.fill(down, 0, last + 1, 0);
                double u = j < top ? chain.rates(j, toward, away, down) : ratesTop(j, toward, away, down);
                up[j] = u;
                // the rates from above, now that up_j is known: w = up_j ĝ_{j+1} ∘ down_{j+1}
                for (int k = 0; k <= last; k++) {
                    w[k] = k <= previousLast ? u * w[k] : 0;
                }
                // T_jᵀ: diag, sub (row k, column k−1) = −away(k−1), super (row k, column k+1) = −toward(k+1).
                // The pivots m_k = diag_k − away(k−1) toward(k)/m_{k−1} are formed without that subtraction
                // (Grassmann–Taksar–Heyman): m_k = away(k) + leak_k, leak_k = down(k) + toward(k) leak_{k−1}/m_{k−1}
                // the rate of leaving phases 0..k other than by away(k), a sum of positive terms, so that a leak
                // far below the rounding error of diag_k (a boundary many standard deviations away) stays positive.
                double leak = 0;
                double previousPivot = 1;
                for (int k = 0; k <= last; k++) {
                    leak = (j > 0 ? down[k] : 0) + (k == 0 ? (j < top ? u : 0) : toward[k] * (leak / previousPivot));
                    double m = (k < last ? away[k] : 0) + leak;
                    previousPivot = m;
                    double sub = k > 0 ? -away[k - 1] : 0;
                    if (!(m > 0)) {
                        throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                                "level reduction: singular level " + j + " (a phase without outflow)");
                    }
                    cp[k] = k < last ? -toward[k + 1] / m : 0;
                    dy[k] = ((k == 0 ? 1 : 0) - (k > 0 ? sub * dy[k - 1] : 0)) / m;
                    dz[k] = (w[k] - (k > 0 ? sub * dz[k - 1] : 0)) / m;
                }
                y[last] = dy[last];
                z[last] = dz[last];
                for (int k = last - 1; k >= 0; k--) {
                    y[k] = dy[k] - cp[k] * y[k + 1];
                    z[k] = dz[k] - cp[k] * z[k + 1];
                }
                if (j == 0) {
                    // π_0ᵀ T_0 = w_0ᵀ (π_0(0) = 1 by conservation): π_0 = z
                    double s0 = 0;
                    double s1 = 0;
                    double s2 = 0;
                    for (int k = 0; k <= last; k++) {
                        s0 += z[k];
                        s1 += k * z[k];
                        s2 += (double) k * k * z[k];
                    }
                    level0Mass = s0;
                    level0Boundary = z[0];
                    level0First = s1;
                    level0Second = s2;
                    if (coefficient != null) {
                        for (int k = 0; k <= last; k++) {
                            marginal[k] += coefficient[0] * z[k];
                        }
                    }
                    break;
                }
                // ĝ_j = y + ĝ_j(0) z, y = T_j^{-T} e_0, z = T_j^{-T} w_j (w_j already carries up_j)
                double g0 = y[0] / (1 - z[0]);
                double s0 = 0;
                double s1 = 0;
                double s2 = 0;
                for (int k = 0; k <= last; k++) {
                    double g = y[k] + g0 * z[k];
                    s0 += g;
                    s1 += k * g;
                    s2 += (double) k * k * g;
                    if (coefficient != null) {
                        marginal[k] += coefficient[j] * g;
                    }
                    w[k] = g * down[k];
                }
                gMass[j] = s0;
                gBoundary[j] = g0;
                gFirst[j] = s1;
                gSecond[j] = s2;
                previousLast = last;
            }
        }

        private double ratesTop(int j, double[] toward, double[] away, double[] down) {
            chain.rates(j, toward, away, down);
            return 0;
        }
    }
}
