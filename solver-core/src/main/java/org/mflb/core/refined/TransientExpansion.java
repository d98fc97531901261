package org.mflb.core.refined;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Transient size expansion along the mean-field trajectory {@code x(t)} from a deterministic
 * initial state (Gast, Bortolussi &amp; Tribastone 2019, Thm 1–2; docs/models.md §4):
 * <pre>
 *   E[X^N(t)]      = x(t) + V(t)/N + A(t)/N² + O(1/N³)
 *   N·Cov(X^N(t))  = W(t) + (B(t) − V(t)V(t)ᵀ)/N + O(1/N²)
 * </pre>
 * with {@code V(0) = W(0) = A(0) = B(0) = 0}, sampled at the requested times. Immutable;
 * accessors return copies.
 */
public final class TransientExpansion {

    private final int order;
    private final int dimension;
    private final double[] times;
    private final double[][] x;
    private final double[][] v;
    private final double[][] w;
    private final double[][] a;
    private final double[][] b;

    TransientExpansion(int order, double[] times, double[][] x, double[][] v, double[][] w, double[][] a, double[][] b) {
        this.order = order;
        this.dimension = x[0].length;
        this.times = times;
        this.x = x;
        this.v = v;
        this.w = w;
        this.a = a;
        this.b = b;
    }

    /** @return the order of the expansion (1 or 2) */
    public int order() {
        return order;
    }

    /** @return the dimension {@code K} */
    public int dimension() {
        return dimension;
    }

    /** @return the number of output times */
    public int timeCount() {
        return times.length;
    }

    /** @return the output times */
    public double[] times() {
        return times.clone();
    }

    /** @return the mean-field state {@code x(t_k)} */
    public double[] meanField(int k) {
        return x[k].clone();
    }

    /** @return {@code V(t_k)} */
    public double[] firstOrderTerm(int k) {
        return v[k].clone();
    }

    /** @return {@code W(t_k)} */
    public DMatrixRMaj covarianceTerm(int k) {
        return new DMatrixRMaj(dimension, dimension, true, w[k]);
    }

    /** @return {@code A(t_k)} (order 2 only) */
    public double[] secondOrderTerm(int k) {
        requireOrder2("secondOrderTerm");
        return a[k].clone();
    }

    /** @return {@code B(t_k)} (order 2 only) */
    public DMatrixRMaj secondMomentTerm(int k) {
        requireOrder2("secondMomentTerm");
        return new DMatrixRMaj(dimension, dimension, true, b[k]);
    }

    /**
     * @param k time index
     * @param n system size {@code N > 0}
     * @param truncation 0 (mean field), 1 ({@code + V/N}) or 2 ({@code + A/N²}), at most {@link #order()}
     * @return the approximate {@code E[X^N(t_k)]}
     */
    public double[] mean(int k, double n, int truncation) {
        Require.positive("N", n);
        Require.between("order", truncation, 0, order);
        double[] m = x[k].clone();
        for (int i = 0; i < dimension; i++) {
            if (truncation >= 1) {
                m[i] += v[k][i] / n;
            }
            if (truncation >= 2) {
                m[i] += a[k][i] / (n * n);
            }
        }
        return m;
    }

    /** @return {@code Σ_i} of {@link #mean(int, double, int)}: the mean number of jobs per server for tail vectors */
    public double meanTotal(int k, double n, int truncation) {
        double sum = 0;
        for (double value : mean(k, n, truncation)) {
            sum += value;
        }
        return sum;
    }

    /** @return the linear-noise standard deviations {@code sqrt(W_ii(t_k)/N)} */
    public double[] standardDeviation(int k, double n) {
        Require.positive("N", n);
        double[] sd = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            sd[i] = Math.sqrt(Math.max(0.0, w[k][i * dimension + i]) / n);
        }
        return sd;
    }

    private void requireOrder2(String what) {
        if (order < 2) {
            throw MflbException.invalid("order", order, "2 for " + what);
        }
    }
}
