package org.mflb.fluid.nonsmooth;

import org.mflb.core.ode.LocalRate;


/**
 * Regime (a) of the learning threshold with {@code ℓ ≥ 2}, far from {@code x_ℓ = 1}: the
 * coordinates are the gaps {@code g_i = 1 − x_i}, {@code i ≤ ℓ}, and {@code x_{ℓ+1..K}}, with [GABL]
 * eq. (2)(a) written for the gaps,
 * <pre>
 *   dg_i/dt = −λ(t) (g_i − g_{i−1})/s + μ_i (x_i − x_{i+1}),   s = g_ℓ = 1 − x_ℓ,
 * </pre>
 * integrated directly (its stiffness {@code λ/s ≤ ℓλ/G} is bounded while the deficit
 * {@code G = Σ g_i} stays above {@code gLow}). It carries the surface {@code x_ℓ = α}, where the
 * threshold drops, which lies at {@code s = 1 − α ≥ 4 gLow}; below {@code gLow} it hands over to
 * {@link DeficitPiece}.
 */
final class GapPiece extends Piece {

    private final int ell;
    private final double drop;
    private final double handOver;
    private final int[] lowGaps;

    /**
     * @param drop {@code 1 − α}
     * @param handOver the deficit below which {@link DeficitPiece} takes over
     */
    GapPiece(Regime regime, int levels, double[] mu, LocalRate lambda, double drop, double handOver) {
        super(regime, levels, mu, lambda);
        this.ell = regime.threshold();
        this.drop = drop;
        this.handOver = handOver;
        this.lowGaps = new int[ell];
        for (int j = 0; j < ell; j++) {
            lowGaps[j] = j;
        }
    }

    @Override
    int dimension() {
        return levels;
    }

    @Override
    double[] encode(double t, double[] x, double[] gap) {
        double[] y = new double[levels];
        System.arraycopy(gap, 0, y, 0, ell);
        System.arraycopy(x, ell, y, ell, levels - ell);
        return y;
    }

    @Override
    void derivatives(double t, double[] y, double[] f) {
        double rate = lambda.at(t) / y[ell - 1];
        for (int i = 1; i <= ell; i++) {
            double gi = y[i - 1];
            double below = i == 1 ? 0.0 : y[i - 2];
            double exactly = i < ell ? y[i] - gi : (1.0 - gi) - (levels > ell ? y[ell] : 0.0);
            f[i - 1] = -rate * (gi - below) + mu[i - 1] * exactly;
        }
        for (int j = ell + 1; j <= levels; j++) {
            double above = j < levels ? y[j] : 0.0;
            f[j - 1] = -mu[j - 1] * (y[j - 1] - above);
        }
    }

    @Override
    int switches() {
        return 2;
    }

    @Override
    double switchingFunction(int k, double t, double[] y) {
        if (k == 0) {
            return y[ell - 1] - drop;
        }
        double deficit = 0;
        for (int i = ell - 1; i >= 0; i--) {
            deficit += y[i];
        }
        return handOver - deficit;
    }

    /** The switching functions read the gaps {@code g_1..g_ℓ}. */
    @Override
    int[] switchingCoordinates() {
        return lowGaps;
    }

    @Override
    Regime.Surface surface(int k) {
        return k == 0 ? Regime.Surface.THRESHOLD_DROP : null;
    }

    @Override
    void decode(double t, double[] y, double[] x, double[] gap) {
        System.arraycopy(y, 0, gap, 0, ell);
        for (int j = 0; j < ell; j++) {
            x[j] = 1.0 - gap[j];
        }
        System.arraycopy(y, ell, x, ell, levels - ell);
        gapsFromTail(x, gap, ell);
    }
}
