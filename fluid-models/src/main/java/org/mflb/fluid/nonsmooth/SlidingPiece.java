package org.mflb.fluid.nonsmooth;

import org.mflb.core.ode.LocalRate;


/**
 * A sliding piece ({@link Regime.Kind#AT_LEVEL}, {@link Regime.Kind#ABOVE_LEVEL}) integrated on its
 * surface: the pinned levels {@code 1..m} are not integrated at all, the coordinates are
 * {@code y = (g, x_{m+2}, ..., x_K)} with the drift of {@link Regime} and {@code g = 1 − x_{m+1}}, the
 * gap of the first free level. That level may approach 1 only like {@code e^{−t}} (at integer
 * {@code λ}), and its surface {@code x_{m+1} = 1} is crossed when {@code g} falls to
 * {@link NonSmoothPolicy#ON_SURFACE}: {@code g} is integrated, and its drift written, so that it keeps
 * its full relative precision down there (no {@code 1 − x} is ever formed for it).
 */
final class SlidingPiece extends Piece {

    private final int m;
    private final Regime.Surface[] surfaces;

    SlidingPiece(Regime regime, int levels, double[] mu, LocalRate lambda, Regime.Surface[] surfaces) {
        super(regime, levels, mu, lambda);
        this.m = regime.pinned();
        this.surfaces = surfaces;
    }

    @Override
    int dimension() {
        return levels - m;
    }

    @Override
    double[] encode(double t, double[] x, double[] gap) {
        double[] y = new double[levels - m];
        System.arraycopy(x, m, y, 0, levels - m);
        y[0] = gap[m];
        return y;
    }

    private double at(double[] y, int level) {
        return level <= m ? 1.0 : level == m + 1 ? 1.0 - y[0] : level <= levels ? y[level - m - 1] : 0.0;
    }

    @Override
    void derivatives(double t, double[] y, double[] f) {
        double rate = lambda.at(t);
        double g = y[0];
        double r = m == 0 ? rate : rate - mu[m - 1] * g;
        double muNext = mu[m];
        double second = at(y, m + 2);
        boolean above = regime.kind() == Regime.Kind.ABOVE_LEVEL;
        // dg/dt = −dx_{m+1}/dt, grouped so that nothing of order 1 cancels against g:
        //   (b): −r + μ_{m+1}(x_{m+1} − x_{m+2}) = (μ_{m+1} − λ) − μ_{m+1} x_{m+2} + (μ_m − μ_{m+1}) g
        //   (c): −r g + μ_{m+1}(x_{m+1} − x_{m+2}) = μ_{m+1}(1 − x_{m+2}) − (λ + μ_{m+1}) g + μ_m g²
        double muM = m == 0 ? 0.0 : mu[m - 1];
        f[0] = above ? muNext * (1.0 - second) - (rate + muNext) * g + muM * g * g
                : (muNext - rate) - muNext * second + (muM - muNext) * g;
        for (int level = m + 2; level <= levels; level++) {
            double xl = y[level - m - 1];
            double d = -mu[level - 1] * (xl - at(y, level + 1));
            if (above) {
                d += r * (at(y, level - 1) - xl);
            }
            f[level - m - 1] = d;
        }
    }

    @Override
    int switches() {
        return surfaces.length;
    }

    @Override
    double switchingFunction(int k, double t, double[] y) {
        return switch (surfaces[k]) {
            case LEVEL_FULL -> NonSmoothPolicy.ON_SURFACE - y[0];
            case EXCESS_NEGATIVE -> {
                double rate = lambda.at(t);
                yield mu[m - 1] * y[0] - rate - Regime.margin(rate);
            }
            default -> throw new IllegalStateException(surfaces[k] + " does not end a sliding piece");
        };
    }

    /** Every switching function reads the first coordinate alone. */
    @Override
    int[] switchingCoordinates() {
        return FIRST;
    }

    @Override
    Regime.Surface surface(int k) {
        return surfaces[k];
    }

    /**
     * Regime (b) is a {@link LinearRelaxation} where the departure rate grows at the first free level
     * ({@code a = μ_{m+1} − μ_m > 0}: pools, or {@code m = 0}): {@code y_0* = (μ_{m+1} − λ)/a},
     * {@code b = μ_{m+1}}, {@code μ_i = μ_{m+1+i}}; both of its surfaces are affine in {@code g}.
     */
    @Override
    LinearRelaxation relaxation(double t) {
        double a = mu[m] - (m == 0 ? 0.0 : mu[m - 1]);
        if (regime.kind() != Regime.Kind.AT_LEVEL || !(a > 0)) {
            return null;
        }
        double slowest = Double.POSITIVE_INFINITY;
        for (int level = m + 2; level <= levels; level++) {
            slowest = Math.min(slowest, mu[level - 1]);
        }
        return slowest > 0 ? new LinearRelaxation((mu[m] - lambda.at(t)) / a, a, mu[m], slowest) : null;
    }

    @Override
    void decode(double t, double[] y, double[] x, double[] gap) {
        for (int j = 0; j < m; j++) {
            x[j] = 1.0;
            gap[j] = 0.0;
        }
        System.arraycopy(y, 0, x, m, levels - m);
        x[m] = 1.0 - y[0];
        gap[m] = y[0];
        gapsFromTail(x, gap, m + 1);
    }
}
