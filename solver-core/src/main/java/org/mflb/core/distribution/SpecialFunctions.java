package org.mflb.core.distribution;

import org.hipparchus.special.Erf;
import org.hipparchus.special.Gamma;

/**
 * The special functions the service laws need, in the forms that stay accurate where the
 * survival function underflows: the scaled complementary error function {@code erfcx}, the
 * normal Mills ratio, and the tail of the continued fraction of the upper incomplete gamma
 * function. Hipparchus supplies {@code ln Γ}, {@code erfc} and the regularized {@code Q(a, x)}
 * in the central range.
 */
final class SpecialFunctions {

    /** Relative accuracy at which continued fractions stop. */
    private static final double EPS = 1e-16;
    /** Guard against a zero denominator in the modified Lentz algorithm (Numerical Recipes §5.2). */
    private static final double TINY = 1e-300;
    /** Iteration cap of the continued fractions; far above what any argument in range needs. */
    private static final int MAX_TERMS = 1_000_000;
    /** Above this, erfcx is computed by its continued fraction (converges in < 100 terms there). */
    private static final double ERFCX_CF_THRESHOLD = 6.0;
    private static final double SQRT_PI = Math.sqrt(Math.PI);
    private static final double SQRT_HALF_PI = Math.sqrt(Math.PI / 2);
    private static final double LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    private SpecialFunctions() {
    }

    /** @return {@code ln Γ(x)}, {@code x > 0} */
    static double logGamma(double x) {
        return Gamma.logGamma(x);
    }

    /** @return regularized lower incomplete gamma {@code P(a, x) = γ(a, x)/Γ(a)} */
    static double gammaP(double a, double x) {
        if (x <= 0) {
            return 0.0;
        }
        return Gamma.regularizedGammaP(a, x);
    }

    /** @return regularized upper incomplete gamma {@code Q(a, x) = Γ(a, x)/Γ(a)} */
    static double gammaQ(double a, double x) {
        if (x <= 0) {
            return 1.0;
        }
        return Gamma.regularizedGammaQ(a, x);
    }

    /**
     * The remainder {@code R} of the Legendre continued fraction of the upper incomplete gamma
     * function (Numerical Recipes eq. 6.2.7), written so that
     * <pre>
     *   Γ(a, x) = e^{-x} x^a / (x + 1 − a − R),   R = a₁/(b₁ − a₂/(b₂ − …)),
     *   a_n = n(n − a),  b_n = x + 2n + 1 − a.
     * </pre>
     * Used for {@code x > a + 1}, where it converges quickly. For integer {@code a} it terminates
     * (Erlang). Computing {@code R} instead of {@code Γ(a, x)} gives the hazard
     * {@code (x + 1 − a − R)/x} and the mean residual life {@code 1 − R} of the unit-scale gamma law
     * without cancellation or underflow at any {@code x}.
     */
    static double gammaCfRemainder(double a, double x) {
        double a1 = 1.0 - a;
        if (a1 == 0.0) {
            return 0.0;
        }
        // Modified Lentz evaluation of G = b1 + c2/(b2 + c3/(b3 + ...)), c_n = -a_n; R = a1 / G.
        double f = x + 3.0 - a;
        if (Math.abs(f) < TINY) {
            f = TINY;
        }
        double c = f;
        double d = 0.0;
        for (int n = 2; n < MAX_TERMS; n++) {
            double an = -n * (n - a);
            double bn = x + 2.0 * n + 1.0 - a;
            d = bn + an * d;
            if (Math.abs(d) < TINY) {
                d = TINY;
            }
            c = bn + an / c;
            if (Math.abs(c) < TINY) {
                c = TINY;
            }
            d = 1.0 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1.0) <= EPS) {
                break;
            }
        }
        return a1 / f;
    }

    /**
     * Scaled complementary error function {@code erfcx(x) = e^{x²} erfc(x)}, finite for every
     * {@code x} with {@code x² < 709}, and behaving like {@code 1/(x√π)} for large {@code x}.
     */
    static double erfcx(double x) {
        if (x < 0) {
            // erfc(-x) = 2 - erfc(x)  =>  erfcx(x) = 2 e^{x²} - erfcx(-x)
            return 2.0 * expSquare(x) - erfcx(-x);
        }
        if (x < ERFCX_CF_THRESHOLD) {
            return expSquare(x) * Erf.erfc(x);
        }
        // Laplace continued fraction erfc(x) = e^{-x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
        double f = x;
        double c = f;
        double d = 0.0;
        for (int n = 1; n < MAX_TERMS; n++) {
            double an = 0.5 * n;
            d = x + an * d;
            c = x + an / c;
            d = 1.0 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1.0) <= EPS) {
                break;
            }
        }
        return 1.0 / (SQRT_PI * f);
    }

    /** @return {@code e^{x²}}, with the rounding error of {@code x²} compensated */
    private static double expSquare(double x) {
        double hi = x * x;
        double lo = Math.fma(x, x, -hi);
        return Math.exp(hi) * (1.0 + lo);
    }

    /** @return {@code e^{-x²}}, with the rounding error of {@code x²} compensated */
    private static double expMinusSquare(double x) {
        double hi = x * x;
        double lo = Math.fma(x, x, -hi);
        return Math.exp(-hi) * (1.0 - lo);
    }

    /**
     * @return {@code erfc(x)}; beyond the continued-fraction threshold as {@code e^{-x²} erfcx(x)},
     *         which keeps full relative accuracy down to underflow (Hipparchus' {@code erfc} loses
     *         about two digits near {@code x = 26})
     */
    static double erfc(double x) {
        if (x < ERFCX_CF_THRESHOLD) {
            return Erf.erfc(x);
        }
        if (x > 27.3) {
            return 0.0; // erfc(27.3) < 1e-325: below the smallest subnormal
        }
        return expMinusSquare(x) * erfcx(x);
    }

    /** @return Mills ratio of the standard normal law, {@code Φc(z)/φ(z) = √(π/2)·erfcx(z/√2)} */
    static double millsRatio(double z) {
        return SQRT_HALF_PI * erfcx(z / Math.sqrt(2.0));
    }

    /** @return standard normal survival {@code Φc(z) = P(N > z)} */
    static double normalSurvival(double z) {
        return 0.5 * erfc(z / Math.sqrt(2.0));
    }

    /** @return {@code ln Φc(z)}, accurate where {@code Φc(z)} underflows */
    static double logNormalSurvival(double z) {
        if (z < -1.0) {
            // Φc(z) = 1 − Φ(z), Φ(z) = Φc(−z) small: log1p keeps a tiny ln Φc exact
            return Math.log1p(-normalSurvival(-z));
        }
        if (z < 1.0) {
            return Math.log(normalSurvival(z));
        }
        return -0.5 * z * z - LN_SQRT_2PI + Math.log(millsRatio(z));
    }

    /** @return standard normal density {@code φ(z)} */
    static double normalDensity(double z) {
        return Math.exp(-0.5 * z * z - LN_SQRT_2PI);
    }
}
