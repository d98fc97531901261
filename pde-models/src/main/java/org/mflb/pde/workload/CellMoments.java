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
 * <p>Each cell is integrated by adaptive 5-point Gauss–Legendre quadrature: the rule on the cell and
 * on its two halves must agree to {@code 1e-15 h}, else each half is split in turn. This resolves
 * kinks (Pareto at {@code x_m}) and singular derivatives at 0 (Weibull or gamma with shape below 1).
 * The halves are kept: they are the cells of the grid of step {@code h/2} ({@link #refine()}), which
 * so costs only the check of its own halves. The arrays grow on demand. Not thread-safe while growing;
 * read-only afterwards.
 */
final class CellMoments {

    private static final double[] GL_X = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
        0.9061798459386640};
    private static final double[] GL_W = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
        0.4786286704993665, 0.2369268850561891};
    private static final int MAX_DEPTH = 60;
    private static final double RELATIVE_TOLERANCE = 1e-15;

    private final ServiceDistribution law;
    private final double h;
    /** {@code Ḡ(mh)} and {@code Ḡe(mh)}, and the moments of cell {@code m}, for {@code m < count}. */
    private double[] survival = new double[0];
    private double[] excess = new double[0];
    private double[] a = new double[0];
    private double[] b = new double[0];
    /** The moments of the halves of cell {@code m} in their own coordinates, where {@code halved[m]}. */
    private double[] leftA = new double[0];
    private double[] leftB = new double[0];
    private double[] rightA = new double[0];
    private double[] rightB = new double[0];
    private boolean[] halved = new boolean[0];
    private int count;

    CellMoments(ServiceDistribution law, double h) {
        this.law = law;
        this.h = h;
    }

    double step() {
        return h;
    }

    ServiceDistribution law() {
        return law;
    }

    /** Makes nodes and cells {@code 0 ≤ m < n} available. */
    void ensure(int n) {
        if (n <= count) {
            return;
        }
        grow(n);
        for (int m = count; m < n; m++) {
            node(m);
            double[] whole = gauss(m * h, h);
            halve(m, whole);
        }
        count = n;
    }

    /**
     * @return the weights of the grid of step {@code h/2} over the same reach: its cells are the halves
     *         of these (checked against their own halves here), its even nodes these nodes
     */
    CellMoments refine() {
        CellMoments fine = new CellMoments(law, 0.5 * h);
        int n = 2 * count;
        fine.grow(n);
        for (int m = 0; m < count; m++) {
            if (!halved[m]) {
                halve(m, new double[] {a[m], b[m]});
            }
            fine.survival[2 * m] = survival[m];
            fine.excess[2 * m] = excess[m];
            fine.node(2 * m + 1);
            fine.a[2 * m] = leftA[m];
            fine.b[2 * m] = leftB[m];
            fine.a[2 * m + 1] = rightA[m];
            fine.b[2 * m + 1] = rightB[m];
        }
        fine.count = n;
        return fine;
    }

    private void grow(int n) {
        int capacity = Math.max(n, 2 * survival.length);
        if (capacity == survival.length) {
            return;
        }
        survival = Arrays.copyOf(survival, capacity);
        excess = Arrays.copyOf(excess, capacity);
        a = Arrays.copyOf(a, capacity);
        b = Arrays.copyOf(b, capacity);
        leftA = Arrays.copyOf(leftA, capacity);
        leftB = Arrays.copyOf(leftB, capacity);
        rightA = Arrays.copyOf(rightA, capacity);
        rightB = Arrays.copyOf(rightB, capacity);
        halved = Arrays.copyOf(halved, capacity);
    }

    private void node(int m) {
        double s = m * h;
        double sbar = law.survival(s);
        survival[m] = sbar;
        excess[m] = sbar > 0 ? sbar * law.meanResidualLife(s) : 0.0;
    }

    /** Computes (and checks against {@code whole}) the halves of cell {@code m}, and the cell from them. */
    private void halve(int m, double[] whole) {
        double x = m * h;
        double[] left = gauss(x, 0.5 * h);
        double[] right = gauss(x + 0.5 * h, 0.5 * h);
        if (!agree(whole, left, right, h)) {
            left = adaptive(x, 0.5 * h, left, 1);
            right = adaptive(x + 0.5 * h, 0.5 * h, right, 1);
        }
        leftA[m] = left[0];
        leftB[m] = left[1];
        rightA[m] = right[0];
        rightB[m] = right[1];
        halved[m] = true;
        double[] cell = join(left, right);
        a[m] = cell[0];
        b[m] = cell[1];
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

    /** The moments {@code ∫ Ḡ(1−σ) ds}, {@code ∫ Ḡ σ ds} on {@code [x, x + w]}, {@code σ = (s − x)/w}. */
    private double[] gauss(double x, double w) {
        double ia = 0;
        double ib = 0;
        for (int i = 0; i < GL_X.length; i++) {
            double sigma = 0.5 * (1 + GL_X[i]);
            double g = law.survival(x + sigma * w) * GL_W[i];
            ia += g * (1 - sigma);
            ib += g * sigma;
        }
        return new double[] {0.5 * w * ia, 0.5 * w * ib};
    }

    /** The moments on an interval from those of its halves (each in its own coordinates). */
    private static double[] join(double[] left, double[] right) {
        // left: σ = σ'/2; right: σ = 1/2 + σ'/2
        double lb = 0.5 * left[1];
        double rb = 0.5 * (right[0] + right[1]) + 0.5 * right[1];
        double total = left[0] + left[1] + right[0] + right[1];
        return new double[] {total - lb - rb, lb + rb};
    }

    private static boolean agree(double[] whole, double[] left, double[] right, double w) {
        double[] sum = join(left, right);
        return Math.abs(sum[0] - whole[0]) + Math.abs(sum[1] - whole[1]) <= RELATIVE_TOLERANCE * w;
    }

    /** Adaptive moments on {@code [x, x + w]} given the one-rule estimate {@code whole}. */
    private double[] adaptive(double x, double w, double[] whole, int depth) {
        double[] left = gauss(x, 0.5 * w);
        double[] right = gauss(x + 0.5 * w, 0.5 * w);
        if (depth >= MAX_DEPTH || agree(whole, left, right, w)) {
            return join(left, right);
        }
        return join(adaptive(x, 0.5 * w, left, depth + 1), adaptive(x + 0.5 * w, 0.5 * w, right, depth + 1));
    }
}
