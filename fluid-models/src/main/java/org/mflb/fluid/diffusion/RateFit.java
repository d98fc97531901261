package org.mflb.fluid.diffusion;

/**
 * Least-squares fits of a convergence rate: the slope of {@code log|e_N|} against {@code log N},
 * and the coefficient c₁ of {@code e_N ≈ c₁/√N}.
 */
public final class RateFit {

    private RateFit() {
    }

    /**
     * @param x abscissae (at least two distinct)
     * @param y ordinates
     * @return the least-squares slope of y against x
     */
    public static double slope(double[] x, double[] y) {
        int n = x.length;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i] / n;
            my += y[i] / n;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxy / sxx;
    }

    /**
     * @param servers N values
     * @param errors {@code e_N}
     * @return the least-squares c₁ of {@code e_N = c₁ N^{-1/2}}: {@code Σ e_N N^{-1/2} / Σ N^{-1}}
     */
    public static double rootCoefficient(int[] servers, double[] errors) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < servers.length; i++) {
            num += errors[i] / Math.sqrt(servers[i]);
            den += 1.0 / servers[i];
        }
        return num / den;
    }
}
