package org.mflb.core.distribution;

import java.util.function.DoubleUnaryOperator;

/**
 * Double-exponential quadrature (Takahasi–Mori), the independent integrator of the distribution
 * tests: tanh-sinh on finite intervals (robust to integrable end-point singularities such as the
 * gamma density {@code t^{a−1}}, {@code a < 1}) and exp-sinh on {@code [a, ∞)} (exponential and
 * algebraic tails). Step halving until two levels agree to {@code 1e-15} relative, at most
 * {@code h = 2^-10}; for analytic integrands the error then is at the rounding level.
 */
final class Quadrature {

    private static final double HALF_PI = Math.PI / 2;
    private static final int MAX_LEVEL = 10;
    private static final double TOL = 1e-15;
    private static final double T_MAX = 6.5;

    private Quadrature() {
    }

    /**
     * @return {@code ∫_a^b f}, {@code a < b} finite. The nodes are placed as offsets {@code s} in
     *         {@code (0, b − a)} and the weights computed from {@code s}, so a short interval far
     *         from 0 keeps all its nodes ({@code f} is evaluated at {@code a + s}, rounded)
     */
    static double finite(DoubleUnaryOperator f, double a, double b) {
        double width = b - a;
        double d = 0.5 * width;
        double h = 1.0;
        double sum = HALF_PI * f.applyAsDouble(a + d) + tanhSinhSum(f, a, width, h, 1);
        double integral = h * d * sum;
        for (int level = 1; level <= MAX_LEVEL; level++) {
            h *= 0.5;
            sum += tanhSinhSum(f, a, width, h, 2);
            double next = h * d * sum;
            if (level >= 3 && Math.abs(next - integral) <= TOL * Math.abs(next)) {
                return next;
            }
            integral = next;
        }
        return integral;
    }

    /** Sum of the tanh-sinh terms at {@code t = kh}, {@code k = step, 2·step, …} (odd k when step = 2, from 1). */
    private static double tanhSinhSum(DoubleUnaryOperator f, double a, double width, double h, int step) {
        double d = 0.5 * width;
        double sum = 0;
        for (int k = 1; k * h <= T_MAX; k += step) {
            double t = k * h;
            double u = HALF_PI * Math.sinh(t);
            double cosh = Math.cosh(u);
            double w = HALF_PI * Math.cosh(t) / (cosh * cosh);
            // distance of the node from the nearer end: d(1 − tanh u) = 2d/(1 + e^{2u})
            double delta = d * 2.0 / (1.0 + Math.exp(2.0 * u));
            double right = width - delta;
            boolean leftInside = delta > 0;
            boolean rightInside = right < width;
            if (!(leftInside || rightInside) || w == 0) {
                break;
            }
            // an end point is never evaluated (the integrand may be singular there)
            sum += w * ((leftInside ? f.applyAsDouble(a + delta) : 0.0) + (rightInside ? f.applyAsDouble(a + right) : 0.0));
        }
        return sum;
    }

    /** @return {@code ∫_a^∞ f}; {@code f} must decay at least like {@code x^{-1-δ}} */
    static double toInfinity(DoubleUnaryOperator f, double a) {
        return toInfinity(f, a, 1.0);
    }

    /**
     * @param scale length over which {@code f} varies near {@code a} (the rule is insensitive to it
     *        within a few orders of magnitude, but it must not be below the resolution {@code ulp(a)})
     * @return {@code ∫_a^∞ f}
     */
    static double toInfinity(DoubleUnaryOperator f, double a, double scale) {
        if (scale != 1.0 || a != 0.0) {
            // substitute x = a + scale·y so that the nodes resolve the scale of f near a
            return scale * toInfinity(y -> f.applyAsDouble(a + scale * y), 0.0, 1.0);
        }
        double h = 1.0;
        double sum = expSinhSum(f, a, h, 0, 1);
        double integral = h * sum;
        for (int level = 1; level <= MAX_LEVEL; level++) {
            h *= 0.5;
            sum += expSinhSum(f, a, h, 1, 2);
            double next = h * sum;
            if (level >= 3 && Math.abs(next - integral) <= TOL * Math.abs(next)) {
                return next;
            }
            integral = next;
        }
        return integral;
    }

    /** Terms at {@code t = ±kh}, {@code k = first, first+step, …}; {@code x = a + exp(π/2 sinh t)}. */
    private static double expSinhSum(DoubleUnaryOperator f, double a, double h, int first, int step) {
        double sum = 0;
        if (first == 0) {
            sum += HALF_PI * f.applyAsDouble(a + 1.0);
            first = step;
        }
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int k = first; k * h <= T_MAX; k += step) {
                double t = sign * k * h;
                double e = Math.exp(HALF_PI * Math.sinh(t));
                double x = a + e;
                if (!(x > a) || !Double.isFinite(x) || e == 0) {
                    break;
                }
                double w = HALF_PI * Math.cosh(t) * e;
                double fx = f.applyAsDouble(x);
                if (fx == 0) {
                    if (sign > 0) {
                        break;
                    }
                    continue;
                }
                sum += w * fx;
            }
        }
        return sum;
    }
}
