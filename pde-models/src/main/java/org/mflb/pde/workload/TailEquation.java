package org.mflb.pde.workload;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

import org.mflb.core.distribution.ServiceDistribution;

/**
 * The workload equation beyond the grid's end, solved for the correction {@code T − T̃} of the tail term
 * (docs/models.md §11.2). With {@code F̃} the continuation that keeps only the grid's part of {@code U}
 * ({@link TailTerm}), the missing part {@code δ = F̄ − F̃} on {@code w = w_max + x}, {@code x > 0},
 * satisfies the Volterra equation
 * <pre>
 *   δ(x) = λ ∫_0^x (F̃ + δ)^d(x − s) Ḡ(s) ds,      T − T̃ = ∫_0^∞ [(F̃ + δ)^d − F̃^d](x) dx,
 * </pre>
 * a contraction of ratio about {@code c = dλF̄(w_max)^{d−1}}, solved by Picard iteration from
 * {@code δ = 0} (the first iterate is the first-order term of the bound {@code dλ∫F̄^{2d−1}}). Beyond a
 * few hundred the functions are smooth on the scale of {@code x} (for heavy tails: power laws), so the
 * table is geometric: Gauss–Legendre nodes on {@code [0, 2^{−4}]} and on the doublings
 * {@code [2^i, 2^{i+1}]} (each split into {@code split} equal parts) up to {@code 2^{30} max(w_max, 1)};
 * the inner integral splits {@code [0, x]} at the same powers of two measured from both ends (where
 * {@code Ḡ(s)} and {@code F̃(x − s)} vary) and at the law's kinks, and interpolates the table
 * log-linearly (exact for power laws). The part beyond the table is closed by the geometric remainder
 * of the last doublings. {@link #correction} is computed at two table densities; their difference is
 * the discretisation uncertainty.
 */
final class TailEquation {

    private static final double[] GL_X = TailTerm.GL_X;
    private static final double[] GL_W = TailTerm.GL_W;
    /** The first doubling starts here (the table is uniform on {@code [0, FIRST]}). */
    private static final double FIRST = 0.0625;
    /** Doublings beyond {@code max(w_max, 1)}: the correction's integrand falls like {@code x^{−(2d−1)(α−1)−1}}. */
    private static final int EXTRA_DOUBLINGS = 30;
    private static final int MAX_ITERATIONS = 12;

    private final ServiceDistribution law;
    private final double lambda;
    private final int d;
    private final double[] kinks;
    private final double contraction;

    private final double[] x;
    private final double[] weight;
    /** Index of the first node of each doubling (and the end), to close the remainder. */
    private final int[] doublingStart;
    private final double[] base;

    /**
     * @param continuation {@code F̃(w_max + x)} as a function of {@code x}
     * @param split parts per doubling
     */
    TailEquation(ServiceDistribution law, double lambda, int d, double[] kinks, double reach, double contraction,
            DoubleUnaryOperator continuation, int split) {
        this.law = law;
        this.lambda = lambda;
        this.d = d;
        this.kinks = kinks;
        this.contraction = contraction;
        int doublings = EXTRA_DOUBLINGS + (int) Math.ceil(Math.log(Math.max(reach, 1.0)) / Math.log(2)) + 4;
        int intervals = split * (doublings + 1);
        x = new double[intervals * GL_X.length];
        weight = new double[x.length];
        doublingStart = new int[doublings + 2];
        int k = 0;
        double a = 0;
        double b = FIRST;
        for (int i = 0; i <= doublings; i++) {
            doublingStart[i] = k;
            double part = (b - a) / split;
            for (int j = 0; j < split; j++) {
                double lo = a + j * part;
                for (int q = 0; q < GL_X.length; q++) {
                    x[k] = lo + 0.5 * part * (1 + GL_X[q]);
                    weight[k] = 0.5 * part * GL_W[q];
                    k++;
                }
            }
            a = b;
            b *= 2;
        }
        doublingStart[doublings + 1] = k;
        base = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            base[i] = continuation.applyAsDouble(x[i]);
        }
    }

    /**
     * @return {@code {T − T̃, its uncertainty}}: the Picard iteration's last change times
     *         {@code c/(1 − c)} and the geometric remainder beyond the table (not the table's
     *         discretisation: compare two densities for that)
     */
    double[] correction() {
        int n = x.length;
        double[] delta = new double[n];
        double[] g = new double[n];
        double previous = 0;
        double value = 0;
        double change = Double.POSITIVE_INFINITY;
        for (int it = 0; it < MAX_ITERATIONS; it++) {
            for (int i = 0; i < n; i++) {
                g[i] = Math.pow(base[i] + delta[i], d);
            }
            double[] next = new double[n];
            for (int i = 0; i < n; i++) {
                next[i] = lambda * convolve(g, x[i]);
            }
            delta = next;
            value = sum(delta, 0, n);
            change = Math.abs(value - previous);
            previous = value;
            if (change <= 1e-5 * value) {
                break;
            }
        }
        // the remainder beyond the table, from the ratio of the last two doublings
        int m = doublingStart.length - 1;
        double last = sum(delta, doublingStart[m - 1], doublingStart[m]);
        double before = sum(delta, doublingStart[m - 2], doublingStart[m - 1]);
        double r = before > 0 ? last / before : 0;
        double remainder = r < 1 ? last * r / (1 - r) : Double.POSITIVE_INFINITY;
        double c = Math.min(contraction, 0.5);
        return new double[] {value + remainder, change * c / (1 - c) + remainder};
    }

    /** {@code Σ w_i [(F̃ + δ)^d − F̃^d]} over the nodes {@code [from, to)}. */
    private double sum(double[] delta, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += weight[i] * (Math.pow(base[i] + delta[i], d) - Math.pow(base[i], d));
        }
        return s;
    }

    /** {@code ∫_0^t g(t − s) Ḡ(s) ds}, {@code g} interpolated on the table. */
    private double convolve(double[] g, double t) {
        double[] cuts = new double[2 * EXTRA_DOUBLINGS + 256 + kinks.length];
        int k = 0;
        cuts[k++] = 0;
        cuts[k++] = t;
        cuts[k++] = 0.5 * t;
        for (double p = FIRST; p < 0.5 * t && k < cuts.length - kinks.length - 2; p *= 2) {
            cuts[k++] = p;
            cuts[k++] = t - p;
        }
        for (double kink : kinks) {
            if (kink > 0 && kink < t) {
                cuts[k++] = kink;
            }
        }
        double[] sorted = Arrays.copyOf(cuts, k);
        Arrays.sort(sorted);
        double s = 0;
        for (int i = 0; i + 1 < sorted.length; i++) {
            double a = sorted[i];
            double b = sorted[i + 1];
            if (b <= a) {
                continue;
            }
            double half = 0.5 * (b - a);
            double mid = 0.5 * (a + b);
            for (int q = 0; q < GL_X.length; q++) {
                double sq = mid + half * GL_X[q];
                s += half * GL_W[q] * interpolate(g, t - sq) * law.survival(sq);
            }
        }
        return s;
    }

    /** Log-linear interpolation of the positive table {@code v} at {@code u ≥ 0} (linear where it vanishes). */
    private double interpolate(double[] v, double u) {
        int i = Arrays.binarySearch(x, u);
        if (i >= 0) {
            return v[i];
        }
        int hi = -i - 1;
        if (hi == 0) {
            return v[0];
        }
        if (hi >= x.length) {
            return v[x.length - 1];
        }
        int lo = hi - 1;
        double theta = (u - x[lo]) / (x[hi] - x[lo]);
        if (v[lo] > 0 && v[hi] > 0 && x[lo] > 0) {
            double tl = Math.log(u / x[lo]) / Math.log(x[hi] / x[lo]);
            return v[lo] * Math.pow(v[hi] / v[lo], tl);
        }
        return v[lo] + theta * (v[hi] - v[lo]);
    }
}
