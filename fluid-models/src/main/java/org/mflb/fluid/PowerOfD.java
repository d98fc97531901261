package org.mflb.fluid;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * SQ(d), the power of {@code d} choices: an arrival samples {@code d} servers and joins the one
 * with the fewest jobs. The shortest sampled server has at least {@code k} jobs iff every sampled
 * one has, so
 * <pre>
 *   with replacement:          h(y) = y^d                                (Mitzenmacher; Vvedenskaya et al.)
 *   d distinct out of N:       h(y) = Π_{j=0}^{d−1} (N y − j)/(N − j)      (hypergeometric)
 * </pre>
 * The second is exact for a system of {@code N} servers at states {@code y ∈ (1/N)ℕ} and tends to
 * the first as {@code N → ∞}; below {@code y = (d−1)/N} it is 0 (fewer than {@code d} servers
 * have {@code k} jobs). Both are polynomials, so derivatives of every order are exact: they are
 * computed by multiplying the linear factors as truncated Taylor series.
 */
public final class PowerOfD implements SmoothRouting {

    /** How the {@code d} servers are sampled. */
    public enum Sampling {
        /** Independently, with replacement: the mean-field limit. */
        REPLACEMENT,
        /** {@code d} distinct servers out of {@code N}: the real algorithm. */
        DISTINCT
    }

    private static final int MAX_ORDER = 4;

    private final int d;
    private final Sampling sampling;
    private final int n;

    private PowerOfD(int d, Sampling sampling, int n) {
        this.d = d;
        this.sampling = sampling;
        this.n = n;
    }

    /** @return SQ(d) with servers sampled independently with replacement, {@code d ≥ 1} */
    public static PowerOfD withReplacement(int d) {
        return new PowerOfD(Require.atLeast("d", d, 1), Sampling.REPLACEMENT, 0);
    }

    /** @return SQ(d) with {@code d} distinct servers out of {@code n}, {@code 1 ≤ d ≤ n} */
    public static PowerOfD distinct(int d, int n) {
        Require.atLeast("d", d, 1);
        Require.atLeast("n", n, 1);
        if (d > n) {
            throw MflbException.invalid("d", d, "<= n (" + n + ") when sampling distinct servers");
        }
        return new PowerOfD(d, Sampling.DISTINCT, n);
    }

    @Override
    public int d() {
        return d;
    }

    /** @return the sampling scheme */
    public Sampling sampling() {
        return sampling;
    }

    /** @return {@code N} for distinct sampling, 0 with replacement */
    public int n() {
        return n;
    }

    @Override
    public double selection(double y) {
        if (sampling == Sampling.REPLACEMENT) {
            return power(y, d);
        }
        double product = 1.0;
        for (int j = 0; j < d; j++) {
            double factor = (n * y - j) / (n - j);
            if (factor <= 0) {
                return 0.0;
            }
            product *= factor;
        }
        return product;
    }

    @Override
    public double selectionDerivative(int order, double y) {
        if (order < 0 || order > MAX_ORDER) {
            throw MflbException.invalid("order", order, "in [0, " + MAX_ORDER + "]");
        }
        if (order == 0) {
            return selection(y);
        }
        if (sampling == Sampling.DISTINCT && n * y <= d - 1) {
            return 0.0;
        }
        // Taylor coefficients of Π (a_j + b_j ε) up to ε^order; h^{(m)}(y) = m!·c_m.
        double[] c = new double[order + 1];
        c[0] = 1.0;
        for (int j = 0; j < d; j++) {
            double a;
            double b;
            if (sampling == Sampling.REPLACEMENT) {
                a = y;
                b = 1.0;
            } else {
                a = (n * y - j) / (n - j);
                b = (double) n / (n - j);
            }
            for (int m = order; m >= 1; m--) {
                c[m] = c[m] * a + c[m - 1] * b;
            }
            c[0] *= a;
        }
        double factorial = 1;
        for (int m = 2; m <= order; m++) {
            factorial *= m;
        }
        return factorial * c[order];
    }

    @Override
    public boolean dependsOnSize() {
        return sampling == Sampling.DISTINCT;
    }

    @Override
    public SmoothRouting limit() {
        return sampling == Sampling.DISTINCT ? withReplacement(d) : this;
    }

    /**
     * With {@code ε = 1/N}, {@code h_N(y) = Π_{j<d} (y − jε) · Π_{j<d} 1/(1 − jε)}; expanding both
     * products with {@code s₁ = Σ j = d(d−1)/2}, {@code s₂ = Σ_{i<j} ij} and {@code p₂ = Σ j²},
     * <pre>
     *   h¹(y) = s₁ (y^d − y^{d−1}),     h²(y) = (p₂ + s₂) y^d − s₁² y^{d−1} + s₂ y^{d−2}.
     * </pre>
     */
    @Override
    public double sizeCorrectionDerivative(int term, int order, double y) {
        if (sampling != Sampling.DISTINCT) {
            return 0.0;
        }
        if (term < 1 || term > 2) {
            throw MflbException.invalid("term", term, "1 or 2");
        }
        if (order < 0 || order > 2) {
            throw MflbException.invalid("order", order, "in [0, 2]");
        }
        double s1 = 0;
        double s2 = 0;
        double p2 = 0;
        for (int j = 0; j < d; j++) {
            s1 += j;
            p2 += (double) j * j;
            for (int i = 0; i < j; i++) {
                s2 += (double) i * j;
            }
        }
        if (term == 1) {
            return s1 * (monomialDerivative(d, order, y) - monomialDerivative(d - 1, order, y));
        }
        return (p2 + s2) * monomialDerivative(d, order, y) - s1 * s1 * monomialDerivative(d - 1, order, y)
                + s2 * monomialDerivative(d - 2, order, y);
    }

    /** {@code order}-th derivative of {@code y^e} ({@code e ≥ 0}; 0 for negative {@code e}). */
    private static double monomialDerivative(int e, int order, double y) {
        if (e < 0 || order > e) {
            return 0.0;
        }
        double c = 1;
        for (int r = 0; r < order; r++) {
            c *= e - r;
        }
        return c * power(y, e - order);
    }

    private static double power(double y, int exponent) {
        double result = 1.0;
        double base = y;
        int e = exponent;
        while (e > 0) {
            if ((e & 1) != 0) {
                result *= base;
            }
            base *= base;
            e >>= 1;
        }
        return result;
    }

    @Override
    public String name() {
        return sampling == Sampling.REPLACEMENT ? "SQ(" + d + ")" : "SQ(" + d + ") distinct, N = " + n;
    }
}
