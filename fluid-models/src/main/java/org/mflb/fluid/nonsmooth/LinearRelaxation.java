package org.mflb.fluid.nonsmooth;

/**
 * The drift of a linear piece in its coordinates {@code y_0..y_{n−1}}, with {@code λ} constant:
 * <pre>
 *   dy_0/dt = a (y_0* − y_0) − b y_1,
 *   dy_i/dt = −μ_i (y_i − y_{i+1}),   i = 1..n−1,  y_n = 0,     a &gt; 0, b ≥ 0, μ_i &gt; 0,
 * </pre>
 * the form of regime (b) ({@link SlidingPiece}: {@code y_0} the gap of the first free level, the
 * levels above it) and of regime (a) with {@code ℓ = 1} ({@link DeficitPiece}: {@code y_0} the deficit).
 * Its rest point is {@code (y_0*, 0, ..., 0)}, and every solution converges to it.
 * <p>
 * How fast, with a bound that needs no eigenvectors: in the scaled deviation
 * {@code z_i = (y_i − y_i*)/w_i}, {@code w_0 = 1}, {@code w_1 = a/(2b)}, {@code w_{i+1} = w_i/2}, the
 * matrix of the drift has logarithmic ∞-norm (largest row of diagonal plus off-diagonal moduli)
 * {@code max(−a + b w_1, −μ_i + μ_i/2) = −r}, {@code r = min(a, μ_1, ..., μ_{n−1})/2}, so
 * {@code ‖z(t)‖∞ ≤ e^{−rt} ‖z(0)‖∞} and
 * <pre>
 *   |y_i(t) − y_i*| ≤ max(1, w_1) e^{−rt} max_j |y_j(0) − y_j*|/w_j   for every i and t ≥ 0.
 * </pre>
 *
 * @param rest {@code y_0*}
 * @param decay {@code a > 0}
 * @param coupling {@code b ≥ 0}
 * @param slowest {@code min(μ_1, ..., μ_{n−1})} (any value {@code ≥ a} when {@code n = 1}), {@code > 0}
 */
record LinearRelaxation(double rest, double decay, double coupling, double slowest) {

    /** @return the rest point {@code (y_0*, 0, ..., 0)} in {@code n} coordinates */
    double[] restPoint(int n) {
        double[] y = new double[n];
        y[0] = rest;
        return y;
    }

    /**
     * @param y the coordinates now
     * @param accuracy a distance {@code > 0}
     * @return a time {@code τ ≥ 0} after which the solution from {@code y} stays within {@code accuracy}
     *         of the rest point in every coordinate, for ever (the bound above, in logarithms: the weights
     *         {@code 2^{−i}} of high levels would overflow)
     */
    double settlingTime(double[] y, double accuracy) {
        double w1 = coupling > 0 ? decay / (2 * coupling) : 1.0;
        double logW1 = Math.log(w1);
        double logZ = Math.log(Math.abs(y[0] - rest));
        for (int i = 1; i < y.length; i++) {
            if (y[i] != 0) {
                logZ = Math.max(logZ, Math.log(Math.abs(y[i])) - logW1 + (i - 1) * Math.log(2));
            }
        }
        if (logZ == Double.NEGATIVE_INFINITY) {
            return 0.0;
        }
        double r = 0.5 * (y.length > 1 ? Math.min(decay, slowest) : decay);
        return Math.max(0.0, (Math.max(0.0, logW1) + logZ - Math.log(accuracy)) / r);
    }
}
