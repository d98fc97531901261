package org.mflb.pde;

import java.util.function.DoubleUnaryOperator;

import org.hipparchus.transform.DftNormalization;
import org.hipparchus.transform.FastFourierTransformer;
import org.hipparchus.transform.TransformType;
import org.mflb.core.distribution.ServiceDistribution;

/**
 * The waiting- and response-time laws of SQ(d) under general service from the age profiles
 * (docs/models.md §7), on a uniform grid {@code u_n = nδ}, {@code n < M}. An arrival that joins a
 * server holding exactly {@code k ≥ 1} jobs, whose job in service has age {@code a}, waits
 * {@code R_a + S_2 + … + S_k}; it joins such a server with probability {@code c_k ν_k(a) da}, where
 * {@code c_k = r_k/(x_k − x_{k+1})} and {@code ν_k} is the age density of the servers with exactly
 * {@code k} jobs. So the waiting time's law is an atom {@code 1 − x_1^d} at 0 plus
 * <pre>   Σ_k c_k ρ_k ⊛ G^{⊛(k−1)},     ρ_k(du) = ∫ ν_k(a) g(a+u)/Ḡ(a) da du  (the residuals at level k),</pre>
 * and the response time adds one more service, {@code T = W + S}.
 * <p>
 * <b>Discretisation.</b> Every measure is represented by its masses at the nodes
 * ({@code m_n = ∫ hat_n dμ}, the hat functions of the grid: mass and first moment are kept, atoms
 * at nodes are exact), so sums of independent times are exact discrete convolutions, done by FFT
 * (zero-padded, truncated to the grid after every product, so nothing wraps around; the reversed
 * {@code β} of a level and the current service power share one complex transform). The CDF at a
 * node counts the share of the node's mass that lies left of it ({@link GridLaw}), second order in
 * {@code δ} for piecewise-smooth densities. The ages are given on cells of width {@code δ}
 * with {@code ν_k = β_{k,j} Ḡ(a)} in cell {@code j} ({@code β} = the PDE's {@code φ_k − φ_{k+1}} in
 * equilibrium, the cell mass over {@code ∫_{cell} Ḡ} in the transient scheme), and with a constant
 * {@code β} beyond the last cell: then the residual survival {@code R̄_k(u) = ∫ ν_k(a) Ḡ(a+u)/Ḡ(a) da}
 * has the exact cell integrals {@code Σ_j β_j (ΔJ_{j+n} − ΔJ_{j+n+1})}, with
 * {@code ΔJ_m = ∫_{cell m} I}, {@code I(a) = ∫_a^∞ Ḡ} (a correlation, also by FFT). Service laws
 * enter only through {@code I} (so heavy tails cause no overflow).
 */
final class SojournGrid {

    private final ServiceDistribution service;
    private final double delta;
    private final int nodes;
    private final int ageCells;
    private final int convSize;
    /** I(mδ), m = 0..J+M+2. */
    private final double[] tailIntegral;
    /** ∫ over cell m of Ḡ. */
    private final double[] cellSurvival;
    /** ∫ over cell m of I. */
    private final double[] cellWork;
    private final double[][] kernelHat;
    private final double[] serviceNodes;
    private final double[][] serviceHat;

    /**
     * @param service the service law
     * @param delta grid step {@code δ}
     * @param nodes grid nodes {@code M} (times {@code 0 .. (M−1)δ})
     * @param ageCells age cells {@code J} carrying their own {@code β}
     */
    SojournGrid(ServiceDistribution service, double delta, int nodes, int ageCells) {
        this.service = service;
        this.delta = delta;
        this.nodes = nodes;
        this.ageCells = ageCells;
        // one transform size for the correlation (ages + nodes) and the convolutions (2 × nodes), so that
        // the two real sequences of a level share one complex FFT
        int size = Integer.highestOneBit(Math.max(2, Math.max(ageCells + nodes + 2, 2 * nodes)) - 1) << 1;
        this.convSize = size;
        int points = ageCells + nodes + 3;
        tailIntegral = new double[points + 1];
        for (int m = 0; m <= points; m++) {
            tailIntegral[m] = residualIntegral(m * delta);
        }
        cellSurvival = new double[points];
        cellWork = new double[points];
        for (int m = 0; m < points; m++) {
            cellSurvival[m] = Math.max(0.0, tailIntegral[m] - tailIntegral[m + 1]);
            // Simpson's rule: exact for the piecewise-linear I of a deterministic law (kinks at nodes)
            double mid = residualIntegral((m + 0.5) * delta);
            cellWork[m] = delta / 6 * (tailIntegral[m] + 4 * mid + tailIntegral[m + 1]);
        }
        double[][] kernel = new double[2][convSize];
        for (int m = 0; m <= ageCells + nodes && m + 1 < points; m++) {
            kernel[0][m] = cellWork[m] - cellWork[m + 1];
        }
        FastFourierTransformer.transformInPlace(kernel, DftNormalization.STANDARD, TransformType.FORWARD);
        kernelHat = kernel;
        serviceNodes = new double[nodes];
        serviceNodes[0] = Math.max(0.0, 1.0 - cellSurvival[0] / delta);
        for (int n = 1; n < nodes; n++) {
            serviceNodes[n] = Math.max(0.0, (cellSurvival[n - 1] - cellSurvival[n]) / delta);
        }
        serviceHat = forward(serviceNodes, convSize);
    }

    /** @return a new accumulation of levels (for one time) on this grid */
    Accumulator start() {
        return new Accumulator();
    }

    /**
     * The cell integrals {@code ∫_{u_n}^{u_{n+1}} P(R_τ > u) du}, {@code n = 0..M}, of the residual of
     * a job of age exactly {@code τ}: {@code (I(τ+u_n) − I(τ+u_{n+1}))/Ḡ(τ)}.
     */
    double[] pointMassCells(double tau) {
        double logS = service.logSurvival(tau);
        double[] i = new double[nodes + 2];
        for (int n = 0; n <= nodes + 1; n++) {
            double a = tau + n * delta;
            double v = Math.exp(service.logSurvival(a) - logS) * service.meanResidualLife(a);
            i[n] = Double.isFinite(v) ? v : 0.0;
        }
        double[] cells = new double[nodes + 1];
        for (int n = 0; n <= nodes; n++) {
            cells[n] = Math.max(0.0, i[n] - i[n + 1]);
        }
        return cells;
    }

    private double residualIntegral(double a) {
        double s = service.survival(a);
        if (s <= 0) {
            return 0.0;
        }
        double v = s * service.meanResidualLife(a);
        return Double.isFinite(v) ? v : 0.0;
    }

    /** @return the grid step */
    double delta() {
        return delta;
    }

    /** @return the nodes M */
    int nodes() {
        return nodes;
    }

    /** @return the age cells J */
    int ageCells() {
        return ageCells;
    }

    /** @return {@code ∫_{cell j} Ḡ} */
    double cellSurvival(int j) {
        return cellSurvival[j];
    }

    /** @return {@code I(jδ) = ∫_{jδ}^∞ Ḡ} for {@code j ≤ J + M + 3} (the aged tail at {@code j = J}) */
    double tailIntegral(int j) {
        return tailIntegral[j];
    }

    private static double[][] forward(double[] values, int size) {
        double[][] data = new double[2][size];
        System.arraycopy(values, 0, data[0], 0, Math.min(values.length, size));
        FastFourierTransformer.transformInPlace(data, DftNormalization.STANDARD, TransformType.FORWARD);
        return data;
    }

    private static double[] inverse(double[][] hat, int keep) {
        double[][] data = {hat[0].clone(), hat[1].clone()};
        FastFourierTransformer.transformInPlace(data, DftNormalization.STANDARD, TransformType.INVERSE);
        return java.util.Arrays.copyOf(data[0], keep);
    }

    private static double[][] times(double[][] a, double[][] b) {
        int n = a[0].length;
        double[][] c = new double[2][n];
        for (int i = 0; i < n; i++) {
            c[0][i] = a[0][i] * b[0][i] - a[1][i] * b[1][i];
            c[1][i] = a[0][i] * b[1][i] + a[1][i] * b[0][i];
        }
        return c;
    }

    /** The levels added for one time: the waiting time's transform and the current service power. */
    final class Accumulator {
        private final double[][] waitHat = new double[2][convSize];
        /** {@code G^{⊛(k−1)}} on the nodes, for the next level {@code k}. */
        private double[] power = new double[nodes];
        private double powerMass = 1.0;
        private double continuousMass;
        private int levelsAdded;

        private Accumulator() {
            power[0] = 1.0;
        }

        /**
         * Adds the arrivals that join servers with exactly {@code k} jobs; levels must come in the order
         * {@code k = 1, 2, ...}. Three FFTs: one for the reversed {@code β} and the service power
         * together (two real sequences as one complex one), one back for their products with the
         * kernels, one for the residual's node masses.
         *
         * @param c {@code c_k = r_k/(x_k − x_{k+1})}
         * @param beta {@code β_{k,j}} on the age cells {@code j < J} (the age density is {@code β Ḡ})
         * @param betaTail {@code β} beyond the last age cell
         * @param cohort residual survival cell integrals of point masses in age (added to those of
         *        {@code β}; length {@code M+1}), or null
         * @param cohortMass their mass
         */
        void addLevel(double c, double[] beta, double betaTail, double[] cohort, double cohortMass) {
            levelsAdded++;
            double mass = cohortMass + betaTail * tailIntegral[ageCells];
            boolean any = betaTail != 0 || cohortMass != 0;
            for (int j = 0; j < ageCells; j++) {
                mass += beta[j] * cellSurvival[j];
                any |= beta[j] != 0;
            }
            any &= c != 0;
            if (saturated()) {
                // k − 1 full services already exceed the grid's end: these arrivals wait beyond it
                continuousMass += any ? c * mass : 0.0;
                return;
            }
            int n2 = convSize;
            double[][] z = new double[2][n2];
            if (any) {
                for (int j = 0; j < ageCells; j++) {
                    z[0][ageCells - 1 - j] = beta[j];
                }
            }
            System.arraycopy(power, 0, z[1], 0, nodes);
            FastFourierTransformer.transformInPlace(z, DftNormalization.STANDARD, TransformType.FORWARD);
            // unpack: B = (Z_k + conj Z_{−k})/2 (the β part), P = (Z_k − conj Z_{−k})/(2i) (the power)
            double[][] powerHat = new double[2][n2];
            double[][] back = new double[2][n2];
            for (int k = 0; k < n2; k++) {
                int m = (n2 - k) & (n2 - 1);
                double zr = z[0][k];
                double zi = z[1][k];
                double wr = z[0][m];
                double wi = -z[1][m];
                double br = 0.5 * (zr + wr);
                double bi = 0.5 * (zi + wi);
                double pr = 0.5 * (zi - wi);
                double pi = -0.5 * (zr - wr);
                powerHat[0][k] = pr;
                powerHat[1][k] = pi;
                // correlation B·D and next power P·G, packed as B·D + i P·G
                double cr = br * kernelHat[0][k] - bi * kernelHat[1][k];
                double ci = br * kernelHat[1][k] + bi * kernelHat[0][k];
                double gr = pr * serviceHat[0][k] - pi * serviceHat[1][k];
                double gi = pr * serviceHat[1][k] + pi * serviceHat[0][k];
                back[0][k] = cr - gi;
                back[1][k] = ci + gr;
            }
            FastFourierTransformer.transformInPlace(back, DftNormalization.STANDARD, TransformType.INVERSE);
            if (any) {
                double[] cells = new double[nodes + 1];
                for (int n = 0; n <= nodes; n++) {
                    int idx = ageCells - 1 + n;
                    cells[n] = (ageCells > 0 ? back[0][idx] : 0.0) + betaTail * cellWork[ageCells + n];
                    if (cohort != null) {
                        cells[n] += cohort[n];
                    }
                }
                double[] residual = new double[nodes];
                residual[0] = mass - cells[0] / delta;
                for (int n = 1; n < nodes; n++) {
                    residual[n] = (cells[n - 1] - cells[n]) / delta;
                }
                double[][] rHat = forward(residual, convSize);
                for (int i = 0; i < convSize; i++) {
                    double tr = rHat[0][i] * powerHat[0][i] - rHat[1][i] * powerHat[1][i];
                    double ti = rHat[0][i] * powerHat[1][i] + rHat[1][i] * powerHat[0][i];
                    waitHat[0][i] += c * tr;
                    waitHat[1][i] += c * ti;
                }
                continuousMass += c * mass;
            }
            double m = 0;
            for (int n = 0; n < nodes; n++) {
                power[n] = back[1][n];
                m += power[n];
            }
            powerMass = m;
        }

        /** @return whether the service sums of the levels added so far no longer reach below the grid's end */
        boolean saturated() {
            return powerMass < 1e-16;
        }

        /**
         * @param atom {@code P(W = 0) = 1 − x_1^d}
         * @param meanWait {@code E[W]} (from the PDE's mean-wait formula)
         * @return the waiting time's law on the grid
         */
        GridLaw waiting(double atom, double meanWait) {
            double[] w = inverse(waitHat, nodes);
            return new GridLaw(delta, w, continuousMass, t -> t < 0 ? atom : 0.0, meanWait);
        }

        /**
         * @param atom {@code P(W = 0)}
         * @param meanWait {@code E[W]}
         * @return the response time's law {@code W + S} on the grid (the atom's part {@code atom·Ḡ(t)} exact)
         */
        GridLaw response(double atom, double meanWait) {
            double[] w = inverse(waitHat, nodes);
            double[] t = inverse(times(forward(w, convSize), serviceHat), nodes);
            DoubleUnaryOperator atomPart = u -> atom * service.survival(u);
            return new GridLaw(delta, t, continuousMass, atomPart, meanWait + service.mean());
        }

        /** @return levels added */
        int levelsAdded() {
            return levelsAdded;
        }
    }
}
