package org.mflb.fluid.nonsmooth;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.LocalRate;

/**
 * The gaps below the top in regime (a) of the threshold policy {@code ℓ ≥ 2} in infinite-server
 * pools ([GABL], eq. (2)(a)): with {@code g_i = 1 − q_i},
 * <pre>
 *   dg_i/dt = −λ(t) (g_i − g_{i−1})/s + i (g_{i+1} − g_i),   i = 1..ℓ−1,
 *   g_0 = 0,   g_ℓ = s = 1 − q_ℓ = G(t) − Σ_{j&lt;ℓ} g_j,
 * </pre>
 * where the deficit {@code G = Σ_{i≤ℓ} g_i} follows a drift of its own that does not involve these
 * gaps ({@link DeficitPiece}), so {@code G(t)} is an input here. The relaxation rate {@code λ/s} is
 * unbounded as {@code q_ℓ → 1}; these gaps are integrated with the L-stable {@link RadauIIA},
 * never with an explicit method and never replaced by their quasi-steady value.
 */
final class LowerGaps implements RadauIIA.StiffSystem {

    /**
     * Floor of {@code s} in the drift: reached only where {@code G < ℓ·1e-30} (at the ends of regime
     * (a), where the located end may lie a rounding error past {@code G = 0}); the gaps are then far
     * below {@link NonSmoothPolicy#ON_SURFACE} and are driven to 0 at the rate {@code 1e30·λ}.
     */
    private static final double S_FLOOR = 1e-30;

    private final int ell;
    private final LocalRate lambda;
    private final RadauIIA radau;
    private DoubleUnaryOperator deficit;
    private double t;
    private final double[] g;
    private double step = 1e-3;

    /**
     * @param ell the threshold {@code ℓ ≥ 2}
     * @param lambda {@code λ(t)}
     * @param settings tolerances (the absolute one applies to the gaps themselves)
     */
    LowerGaps(int ell, LocalRate lambda, IntegratorSettings settings) {
        this.ell = ell;
        this.lambda = lambda;
        this.radau = new RadauIIA(this, settings.absoluteTolerance(), settings.relativeTolerance());
        this.g = new double[ell - 1];
    }

    @Override
    public int dimension() {
        return ell - 1;
    }

    /**
     * {@code s = G − Σ g_j}, kept at least {@code G/ℓ} and {@link #S_FLOOR}. A solution has
     * {@code s ≥ G/ℓ} (the top gap is the largest), so this changes the drift only off the
     * solution, at the trial states of the Newton iteration: a long implicit step starts from gaps
     * that are far too large for the deficit at the end of the step. (And at the very end of regime
     * (a), where {@code G} falls below the gaps' integration error and the computed gaps may sum to
     * more than {@code G}; the Jacobian then follows the floor, see {@link #jacobian}.)
     */
    private double top(double time, double[] y) {
        double deficitNow = deficit.applyAsDouble(time);
        return Math.max(Math.max(deficitNow - sum(y), deficitNow / ell), S_FLOOR);
    }

    private static double sum(double[] y) {
        double total = 0;
        for (double v : y) {
            total += v;
        }
        return total;
    }

    @Override
    public void derivatives(double time, double[] y, double[] f) {
        double s = top(time, y);
        double rate = lambda.at(time) / s;
        for (int i = 1; i < ell; i++) {
            double gi = y[i - 1];
            double below = i == 1 ? 0.0 : y[i - 2];
            double above = i == ell - 1 ? s : y[i];
            f[i - 1] = -rate * (gi - below) + i * (above - gi);
        }
    }

    @Override
    public void jacobian(double time, double[] y, double[][] jac) {
        double s = top(time, y);
        double lam = lambda.at(time);
        double rate = lam / s;
        // The Jacobian of the drift as evaluated. Where s sits on a floor of top() it does not
        // depend on the gaps: the terms through s vanish. (They are of order λ g/s², huge exactly
        // there, near the end of regime (a) where the gaps lie a rounding error above G; kept, they
        // made the simplified Newton iteration of Radau IIA diverge at every step size: issue 5.)
        boolean onFloor = s != deficit.applyAsDouble(time) - sum(y);
        for (int i = 1; i < ell; i++) {
            double[] row = jac[i - 1];
            Arrays.fill(row, 0.0);
            double a = y[i - 1] - (i == 1 ? 0.0 : y[i - 2]);
            // off the floor ∂s/∂g_j = −1: the 1/s factor and (for i = ℓ−1) the top gap depend on every g_j
            if (!onFloor) {
                double viaS = rate * a / s;
                for (int j = 0; j < ell - 1; j++) {
                    row[j] -= viaS;
                    if (i == ell - 1) {
                        row[j] -= i;
                    }
                }
            }
            row[i - 1] += -rate - i;
            if (i >= 2) {
                row[i - 2] += rate;
            }
            if (i < ell - 1) {
                row[i] += i;
            }
        }
    }

    /** The clock of {@code λ} restarts where the gaps stand: their time becomes 0. */
    void clockRestarted() {
        t = 0;
    }

    /** Sets the time and the gaps {@code g_1..g_{ℓ−1}} (not kept). */
    void reset(double time, double[] gaps) {
        t = time;
        System.arraycopy(gaps, 0, g, 0, ell - 1);
    }

    /** Advances the gaps to {@code time ≥} the current time, with the deficit {@code G(t)}. */
    void advanceTo(double time, DoubleUnaryOperator deficitOfTime) {
        if (time <= t) {
            return;
        }
        deficit = deficitOfTime;
        step = radau.advance(t, g, time, step, null);
        t = time;
    }

    /**
     * The gaps at {@code time ≥} the current time, integrated on a copy: the current time, gaps and
     * step size do not change.
     *
     * @param out the gaps {@code g_1..g_{ℓ−1}} at {@code time}; modified
     */
    void peek(double time, DoubleUnaryOperator deficitOfTime, double[] out) {
        System.arraycopy(g, 0, out, 0, ell - 1);
        if (time <= t) {
            return;
        }
        deficit = deficitOfTime;
        radau.advance(t, out, time, step, null);
    }

    /** @return the current gaps {@code g_1..g_{ℓ−1}} (not a copy) */
    double[] gaps() {
        return g;
    }
}
