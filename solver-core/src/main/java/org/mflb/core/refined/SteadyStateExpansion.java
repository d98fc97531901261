package org.mflb.core.refined;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Steady-state size expansion of a population model around its mean-field fixed point {@code π}
 * (Gast &amp; Van Houdt 2017; Gast, Bortolussi &amp; Tribastone 2019, Thm 2; docs/models.md §4):
 * <pre>
 *   E[X^N]        = π + V/N + A/N² + O(1/N³)
 *   N·Cov(X^N)    = W + (B − V Vᵀ)/N + O(1/N²)
 *   E[(X^N−π)⊗³]  = C/N² + O(1/N³)
 * </pre>
 * {@code V} is the 1/N ("refined mean field") term, {@code W} the covariance of the linear-noise
 * (Ornstein–Uhlenbeck) approximation, {@code A} the 1/N² term; {@code B} and {@code C} are the
 * second- and third-moment terms they are computed from. The 1/N² terms are present only for
 * expansions of order 2. Immutable (the third-moment term may be computed on first request, when
 * the mean does not need it); accessors return copies and are thread-safe.
 */
public final class SteadyStateExpansion {

    private final int order;
    private final int dimension;
    private final double[] fixedPoint;
    private final double[] v;
    private final double[] w;
    private final double[] a;
    private final double[] b;
    /** {@code C}, computed on first use when the mean does not need it (affine rates). */
    private java.util.function.Supplier<double[]> thirdMoment;
    private double[] c;
    private final int reducedDimension;
    private final double spectralAbscissa;

    SteadyStateExpansion(int order, double[] fixedPoint, double[] v, double[] w, double[] a, double[] b,
                         java.util.function.Supplier<double[]> thirdMoment, int reducedDimension, double spectralAbscissa) {
        this.order = order;
        this.dimension = fixedPoint.length;
        this.fixedPoint = fixedPoint;
        this.v = v;
        this.w = w;
        this.a = a;
        this.b = b;
        this.thirdMoment = thirdMoment;
        this.reducedDimension = reducedDimension;
        this.spectralAbscissa = spectralAbscissa;
    }

    /** @return the order of the expansion: 1 (terms in 1/N) or 2 (terms in 1/N²) */
    public int order() {
        return order;
    }

    /** @return the dimension {@code K} */
    public int dimension() {
        return dimension;
    }

    /** @return the fixed point {@code π} */
    public double[] fixedPoint() {
        return fixedPoint.clone();
    }

    /** @return {@code V}, the 1/N term of the mean */
    public double[] firstOrderTerm() {
        return v.clone();
    }

    /** @return {@code W = lim N·Cov(X^N)}, {@code K×K} */
    public DMatrixRMaj covarianceTerm() {
        return new DMatrixRMaj(dimension, dimension, true, w);
    }

    /** @return {@code A}, the 1/N² term of the mean (order 2 only) */
    public double[] secondOrderTerm() {
        requireOrder2("secondOrderTerm");
        return a.clone();
    }

    /** @return {@code B}, the 1/N² term of {@code E[(X^N−π)(X^N−π)ᵀ]} (order 2 only) */
    public DMatrixRMaj secondMomentTerm() {
        requireOrder2("secondMomentTerm");
        return new DMatrixRMaj(dimension, dimension, true, b);
    }

    /** @return {@code C}, the 1/N² term of {@code E[(X^N−π)⊗³]}, flat row-major {@code K³} (order 2 only) */
    public synchronized double[] thirdMomentTerm() {
        requireOrder2("thirdMomentTerm");
        if (c == null) {
            c = thirdMoment.get();
            thirdMoment = null;
        }
        return c.clone();
    }

    /** @return dimension of the subspace spanned by the jumps (less than {@code K} under conservation laws) */
    public int reducedDimension() {
        return reducedDimension;
    }

    /** @return {@code max Re λ} of the (reduced) Jacobian at {@code π}: minus the slowest relaxation rate */
    public double spectralAbscissa() {
        return spectralAbscissa;
    }

    /**
     * The expansion of {@code E[X^N]} truncated at {@code 1/N^k}: {@code π} (k = 0),
     * {@code π + V/N} (k = 1), {@code π + V/N + A/N²} (k = 2).
     *
     * @param n system size {@code N > 0}
     * @param k truncation order, in {@code [0, order()]}
     * @return the approximate mean
     */
    public double[] mean(double n, int k) {
        Require.positive("N", n);
        Require.between("order", k, 0, order);
        double[] m = fixedPoint.clone();
        for (int i = 0; i < dimension; i++) {
            if (k >= 1) {
                m[i] += v[i] / n;
            }
            if (k >= 2) {
                m[i] += a[i] / (n * n);
            }
        }
        return m;
    }

    /** @return {@link #mean(double, int)} at the full order of the expansion */
    public double[] mean(double n) {
        return mean(n, order);
    }

    /**
     * @param n system size
     * @param k truncation order
     * @return {@code Σ_i E[X^N_i]} to order {@code k}: for tail vectors, the mean number of jobs per server
     */
    public double meanTotal(double n, int k) {
        double sum = 0;
        for (double x : mean(n, k)) {
            sum += x;
        }
        return sum;
    }

    /**
     * {@code Cov(X^N) ≈ W/N} (k = 1) or {@code W/N + (B − VVᵀ)/N²} (k = 2).
     *
     * @param n system size
     * @param k truncation order, in {@code [1, order()]}
     * @return the approximate covariance matrix
     */
    public DMatrixRMaj covariance(double n, int k) {
        Require.positive("N", n);
        Require.between("order", k, 1, order);
        DMatrixRMaj cov = new DMatrixRMaj(dimension, dimension);
        for (int i = 0; i < dimension; i++) {
            for (int j = 0; j < dimension; j++) {
                double value = w[i * dimension + j] / n;
                if (k >= 2) {
                    value += (b[i * dimension + j] - v[i] * v[j]) / (n * n);
                }
                cov.unsafe_set(i, j, value);
            }
        }
        return cov;
    }

    /** @return the linear-noise standard deviations {@code sqrt(W_ii/N)} */
    public double[] standardDeviation(double n) {
        Require.positive("N", n);
        double[] sd = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            sd[i] = Math.sqrt(Math.max(0.0, w[i * dimension + i]) / n);
        }
        return sd;
    }

    private void requireOrder2(String what) {
        if (order < 2) {
            throw MflbException.invalid("order", order, "2 for " + what);
        }
    }
}
