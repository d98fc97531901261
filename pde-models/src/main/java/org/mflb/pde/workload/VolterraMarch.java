package org.mflb.pde.workload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The march of the equilibrium workload equation (E2) of docs/models.md §11 on the grid
 * {@code w_k = k h}, by the product trapezoidal rule ({@link CellMoments}): with {@code P_j = F_j^d},
 * <pre>
 *   F_0 = λ,   F_k = λ [ Ḡe(w_k) + B_{k−1} P_0 + Σ_{j=1}^{k−1} ω_{k−j} P_j + A_0 P_k ],   ω_m = B_{m−1} + A_m,
 * </pre>
 * the last term implicit (a scalar Newton step; {@code λ A_0 d ≤ λ d h/2}, a contraction). The
 * history sums {@code Σ ω_{k−j} P_j} are accumulated by the divide-and-conquer scheme of relaxed
 * (online) convolution: a block of {@code 2S} unknowns is solved as its first half, then the first
 * half's contribution to the second half (one FFT middle product of length {@code 2S}, the kernel's
 * transform cached per size), then the second half; blocks of {@link #BLOCK} unknowns are summed
 * directly. Cost {@code O(K log² K)} for {@code K} nodes instead of {@code O(K²)}. The grid grows by
 * doubling: the nodes already computed are kept, their contribution to the new ones is one more
 * middle product.
 *
 * <p>The number of unknowns is always {@code BLOCK·2^k} (nodes {@code 1 + BLOCK·2^k}).
 */
final class VolterraMarch {

    /** Unknowns per directly summed block. */
    static final int BLOCK = 64;
    /** Products {@code la·lk} below which a block contribution is summed directly. */
    private static final long DIRECT = 128L * 128L;

    private final int d;
    private final double lambda;
    private final CellMoments weights;
    private double[] f = new double[0];
    private double[] p = new double[0];
    private double[] hist = new double[0];
    private double[] omega = new double[0];
    private int nodes;
    private final Map<Integer, Convolution> kernels = new HashMap<>();

    VolterraMarch(int d, double lambda, CellMoments weights) {
        this.d = d;
        this.lambda = lambda;
        this.weights = weights;
    }

    /** @return the grid step */
    double step() {
        return weights.step();
    }

    /** @return nodes computed */
    int nodes() {
        return nodes;
    }

    /** @return the weights (grown to at least {@link #nodes()} + 1) */
    CellMoments weights() {
        return weights;
    }

    /** @return {@code F̄(w_k)}, {@code k < nodes()} (a copy) */
    double[] workload() {
        return Arrays.copyOf(f, nodes);
    }

    /** @return the number of nodes {@code 1 + BLOCK·2^k} the march would reach for at least {@code n} nodes */
    static int roundedNodes(int n) {
        int unknowns = BLOCK;
        while (unknowns + 1 < n) {
            unknowns *= 2;
        }
        return unknowns + 1;
    }

    /** Marches on until at least {@code n} nodes are known (rounded up to {@code 1 + BLOCK·2^k}). */
    void extendTo(int n) {
        int target = roundedNodes(n);
        if (target <= nodes) {
            return;
        }
        weights.ensure(target + 1);
        f = Arrays.copyOf(f, target);
        p = Arrays.copyOf(p, target);
        hist = Arrays.copyOf(hist, target);
        int old = omega.length;
        omega = Arrays.copyOf(omega, target);
        for (int m = Math.max(1, old); m < target; m++) {
            omega[m] = weights.omega(m);
        }
        if (nodes == 0) {
            f[0] = lambda;
            p[0] = Math.pow(lambda, d);
            nodes = 1;
        }
        while (nodes < target) {
            int unknowns = nodes - 1;
            int hi = unknowns == 0 ? 1 + BLOCK : 1 + 2 * unknowns;
            if (unknowns > 0) {
                addContribution(1, nodes, nodes, hi);
            }
            solve(nodes, hi);
            nodes = hi;
        }
    }

    /** Solves nodes {@code [lo, hi)} whose history already holds every {@code j < lo}. */
    private void solve(int lo, int hi) {
        if (hi - lo <= BLOCK) {
            double a0 = weights.a(0);
            for (int k = lo; k < hi; k++) {
                double s = hist[k];
                for (int j = lo; j < k; j++) {
                    s += omega[k - j] * p[j];
                }
                double c = weights.excess(k) + weights.b(k - 1) * p[0] + s;
                double x = node(c, a0, f[k - 1]);
                f[k] = x;
                p[k] = power(x);
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        solve(lo, mid);
        addContribution(lo, mid, mid, hi);
        solve(mid, hi);
    }

    /** {@code hist[k] += Σ_{j ∈ [jLo, jHi)} ω_{k−j} P_j} for {@code k ∈ [kLo, kHi)}, {@code kLo = jHi}. */
    private void addContribution(int jLo, int jHi, int kLo, int kHi) {
        int la = jHi - jLo;
        int lk = kHi - kLo;
        if ((long) la * lk <= DIRECT) {
            for (int k = kLo; k < kHi; k++) {
                double s = 0;
                for (int j = jLo; j < jHi; j++) {
                    s += omega[k - j] * p[j];
                }
                hist[k] += s;
            }
            return;
        }
        // lags k − j run over [1, lb]; the middle product needs no padding beyond lb
        int lb = lk + la - 1;
        Convolution kernel = kernels.computeIfAbsent(lb, n -> new Convolution(omega, 1, n, Convolution.size(n)));
        double[] out = new double[kernel.size()];
        kernel.apply(p, jLo, la, out);
        for (int k = kLo; k < kHi; k++) {
            hist[k] += out[k - kLo + la - 1];
        }
    }

    /** Solves {@code x = λ (c + A_0 x^d)} by Newton from {@code guess}; {@code 0} when {@code c ≤ 0} (round-off). */
    private double node(double c, double a0, double guess) {
        if (!(c > 0)) {
            return 0.0;
        }
        if (d == 1) {
            return lambda * c / (1 - lambda * a0);
        }
        double x = lambda * (c + a0 * power(Math.min(guess, 1.0)));
        for (int it = 0; it < 30; it++) {
            double xd1 = Math.pow(x, d - 1);
            double g = x - lambda * (c + a0 * xd1 * x);
            double dx = g / (1 - lambda * a0 * d * xd1);
            x -= dx;
            if (Math.abs(dx) <= 1e-16 * x) {
                break;
            }
        }
        return Math.max(0.0, x);
    }

    private double power(double x) {
        switch (d) {
            case 1:
                return x;
            case 2:
                return x * x;
            case 3:
                return x * x * x;
            default:
                return Math.pow(x, d);
        }
    }
}
