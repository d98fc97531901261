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
     * The coefficients of {@code e_N = c₁ N^{-1/2} + c₂ N^{-1}}: the least-squares line of
     * {@code √N e_N} against {@code N^{-1/2}} (intercept c₁, slope c₂), so that the next term of the
     * expansion does not bias c₁; with a single N, {@code c₂ = 0} and {@code c₁ = √N e_N}.
     *
     * @param servers N values
     * @param errors {@code e_N}
     * @return {@code {c₁, c₂}}
     */
    public static double[] rootCoefficients(int[] servers, double[] errors) {
        int n = servers.length;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 1 / Math.sqrt(servers[i]);
            y[i] = errors[i] / x[i];
        }
        if (n == 1) {
            return new double[] {y[0], 0};
        }
        double c2 = slope(x, y);
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i] / n;
            my += y[i] / n;
        }
        return new double[] {my - c2 * mx, c2};
    }
}
