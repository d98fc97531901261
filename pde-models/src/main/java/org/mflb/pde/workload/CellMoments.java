package org.mflb.pde.workload;

import java.util.Arrays;

import org.mflb.core.distribution.ServiceDistribution;

/**
 * The weights of the product trapezoidal rule on the grid {@code s_m = m h} (docs/models.md §11.2):
 * for every cell {@code [mh, (m+1)h]}, with {@code τ = (s − mh)/h},
 * <pre>
 *   A_m = ∫ Ḡ(s)(1 − τ) ds,   B_m = ∫ Ḡ(s) τ ds,   C_m = A_m + B_m = ∫ Ḡ(s) ds,
 * </pre>
 * and at every node {@code Ḡ(mh)} and {@code Ḡe(mh) = Ḡ(mh)·m(mh)} (the law's mean residual life,
 * exact). A piecewise-linear function integrated against {@code Ḡ} with these weights is integrated
 * exactly, whatever {@code Ḡ} does inside a cell (jumps, kinks, an infinite slope at 0). The same
 * weights give the moments of the Stieltjes measure {@code dG} over the cell {@code (mh, (m+1)h]}, by
 * parts: {@code ∫(1−τ)dG = Ḡ(mh) − C_m/h} and {@code ∫τ dG = C_m/h − Ḡ((m+1)h)}, so an atom of
 * {@code G} on a node (the deterministic law at 1) is counted once, in the cell it closes.
 *
 * <p>Each cell is integrated by adaptive 5-point Gauss–Legendre quadrature (a cell is split while
 * the rule on it and on its halves disagree by more than {@code 1e-15 h}), which resolves kinks
 * (Pareto at {@code x_m}) and singular derivatives at 0 (Weibull or gamma with shape below 1). The
 * arrays grow on demand. Not thread-safe; owned by one march.
 */
final class CellMoments {

    private static final double[] GL_X = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
        0.9061798459386640};
    private static final double[] GL_W = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
        0.4786286704993665, 0.2369268850561891};
    private static final int MAX_DEPTH = 60;

    private final ServiceDistribution law;
    private final double h;
    private final double absoluteTolerance;
    /** {@code Ḡ(mh)} and {@code Ḡe(mh)}, nodes {@code 0 ≤ m < nodes}. */
    private double[] survival = new double[0];
    private double[] excess = new double[0];
    /** {@code A_m}, {@code B_m}, cells {@code 0 ≤ m < nodes}. */
    private double[] a = new double[0];
    private double[] b = new double[0];
    private int nodes;

    CellMoments(ServiceDistribution law, double h) {
        this.law = law;
        this.h = h;
        this.absoluteTolerance = 1e-15 * h;
    }

    double step() {
        return h;
    }

    ServiceDistribution law() {
        return law;
    }

    /** Makes nodes and cells {@code 0 ≤ m < n} available. */
    void ensure(int n) {
        if (n <= nodes) {
            return;
        }
        int capacity = Math.max(n, 2 * survival.length);
        survival = Arrays.copyOf(survival, capacity);
        excess = Arrays.copyOf(excess, capacity);
        a = Arrays.copyOf(a, capacity);
        b = Arrays.copyOf(b, capacity);
        double[] ab = new double[2];
        for (int m = nodes; m < n; m++) {
            double s = m * h;
            double sbar = law.survival(s);
            survival[m] = sbar;
            excess[m] = sbar > 0 ? sbar * law.meanResidualLife(s) : 0.0;
            ab[0] = 0;
            ab[1] = 0;
            adaptive(s, 0.0, 1.0, gauss(s, 0.0, 1.0), ab, 0);
            a[m] = ab[0];
            b[m] = ab[1];
        }
        nodes = n;
    }

    /** @return {@code Ḡ(mh)} */
    double survival(int m) {
        return survival[m];
    }

    /** @return {@code Ḡe(mh) = ∫_{mh}^∞ Ḡ} */
    double excess(int m) {
        return excess[m];
    }

    /** @return {@code A_m = ∫_cell Ḡ (1−τ)} */
    double a(int m) {
        return a[m];
    }

    /** @return {@code B_m = ∫_cell Ḡ τ} */
    double b(int m) {
        return b[m];
    }

    /** @return {@code ω_m = B_{m−1} + A_m} ({@code m ≥ 1}), the march's weight at lag {@code m} */
    double omega(int m) {
        return b[m - 1] + a[m];
    }

    /** @return {@code ∫_{(mh,(m+1)h]} (1 − τ) dG} */
    double alpha(int m) {
        return survival[m] - (a[m] + b[m]) / h;
    }

    /** @return {@code ∫_{(mh,(m+1)h]} τ dG} */
    double beta(int m) {
        return (a[m] + b[m]) / h - survival[m + 1];
    }

    /** The two moments on the sub-cell {@code τ ∈ [t0, t1]}: {@code ∫ Ḡ(1−τ) ds} and {@code ∫ Ḡ τ ds}. */
    private double[] gauss(double cellStart, double t0, double t1) {
        double half = 0.5 * (t1 - t0);
        double mid = 0.5 * (t1 + t0);
        double ia = 0;
        double ib = 0;
        for (int i = 0; i < GL_X.length; i++) {
            double tau = mid + half * GL_X[i];
            double g = law.survival(cellStart + tau * h) * GL_W[i];
            ia += g * (1 - tau);
            ib += g * tau;
        }
        double scale = half * h;
        return new double[] {ia * scale, ib * scale};
    }

    private void adaptive(double cellStart, double t0, double t1, double[] whole, double[] sum, int depth) {
        double tm = 0.5 * (t0 + t1);
        double[] left = gauss(cellStart, t0, tm);
        double[] right = gauss(cellStart, tm, t1);
        double da = left[0] + right[0] - whole[0];
        double db = left[1] + right[1] - whole[1];
        if (depth >= MAX_DEPTH || Math.abs(da) + Math.abs(db) <= absoluteTolerance * (t1 - t0)) {
            sum[0] += left[0] + right[0];
            sum[1] += left[1] + right[1];
            return;
        }
        adaptive(cellStart, t0, tm, left, sum, depth + 1);
        adaptive(cellStart, tm, t1, right, sum, depth + 1);
    }
}
