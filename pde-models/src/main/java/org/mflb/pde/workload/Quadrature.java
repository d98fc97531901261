package org.mflb.pde.workload;

import java.util.function.DoubleUnaryOperator;

import org.mflb.core.distribution.ServiceDistribution;

/** Adaptive Gauss–Legendre quadrature (5 points, split while the halves disagree). */
final class Quadrature {

    private static final double[] X = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
        0.9061798459386640};
    private static final double[] W = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
        0.4786286704993665, 0.2369268850561891};

    private Quadrature() {
    }

    /** @return {@code ∫_a^b f} to an absolute {@code tol} (depth at most 50) */
    static double adaptive(DoubleUnaryOperator f, double a, double b, double tol) {
        return adaptive(f, a, b, gauss(f, a, b), tol, 0);
    }

    private static double adaptive(DoubleUnaryOperator f, double a, double b, double whole, double tol, int depth) {
        double m = 0.5 * (a + b);
        double left = gauss(f, a, m);
        double right = gauss(f, m, b);
        if (depth >= 50 || Math.abs(left + right - whole) <= tol) {
            return left + right;
        }
        return adaptive(f, a, m, left, 0.5 * tol, depth + 1) + adaptive(f, m, b, right, 0.5 * tol, depth + 1);
    }

    private static double gauss(DoubleUnaryOperator f, double a, double b) {
        double half = 0.5 * (b - a);
        double mid = 0.5 * (a + b);
        double s = 0;
        for (int i = 0; i < X.length; i++) {
            s += W[i] * f.applyAsDouble(mid + half * X[i]);
        }
        return s * half;
    }

    /** @return {@code ∫_0^∞ e^{−θs} Ḡ(s) ds = (1 − E e^{−θX})/θ}, {@code θ > 0}, to about 1e-15 */
    static double laplaceOfSurvival(ServiceDistribution law, double theta) {
        DoubleUnaryOperator f = s -> Math.exp(-theta * s) * law.survival(s);
        double sum = 0;
        double a = 0;
        double b = 0.5;
        while (true) {
            sum += adaptive(f, a, b, 1e-16 * Math.max(1e-3, sum));
            if (theta * b > 45 || law.survival(b) == 0) {
                return sum;
            }
            a = b;
            b *= 2;
        }
    }
}
