package org.mflb.pde;

import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;

/**
 * One run of the first-order upwind scheme for the age-structured hydrodynamic PDE of SQ(d)
 * (MODELS.md §5, paper 002), on a uniform age grid with {@code Δt = Δa = h}.
 * <p>
 * The state is {@code n[k][j]}, the mass of servers holding exactly {@code k} jobs
 * ({@code 1 ≤ k ≤ L}) whose job in service has age in cell {@code j} = {@code [jh, (j+1)h)}; the
 * last cell {@code J−1} is the age interval {@code [(J−1)h, ∞)} and keeps its mass. In the notation
 * of MODELS.md, {@code ν_k(t, a) ≈ n[k][j]/h} and {@code μ_ℓ = Σ_{k ≥ ℓ} ν_k}. One step:
 * <pre>
 *   θ_k = λ(t + h/2) r_k/(x_k − x_{k+1}) = λ Σ_{i<d} x_k^i x_{k+1}^{d−1−i}     (arrival rate per exactly-k server)
 *   v[k][j] = n[k][j] e^{−θ_k h} + n[k−1][j] (1 − e^{−θ_{k−1} h})           (arrivals keep the age; exact positivity)
 *   n'[k][j+1] = p_j v[k][j],   completions c_k = Σ_j (1 − p_j) v[k][j]        (transport one cell, survival)
 *   n'[k][0] = c_{k+1} + [k = 1] (1 − e^{−θ_0 h}) (1 − x_1)                    (new services start at age 0)
 * </pre>
 * with cell survival {@code p_j = ∫_{cell j} Ḡ(a + h) da / ∫_{cell j} Ḡ(a) da}, computed from
 * {@code I(a) = ∫_a^∞ Ḡ = Ḡ(a) m(a)} (never from the hazard, so heavy tails give no overflow), and in
 * the last cell the rate {@code 1/m(A)} (the residual work of the aged jobs is kept in mean). Every
 * factor lies in [0, 1], so the scheme preserves positivity; mass moves between levels and ages but
 * {@code x_0 = 1} is conserved exactly. Arrivals to level {@code L} are blocked (the mass {@code x_L}
 * is reported as cut off). The scheme is first order in {@code h}.
 */
final class AgeGridScheme {

    private final int d;
    private final ArrivalRate lambda;
    private final double h;
    private final int levels;
    private final int cells;
    /** Survival factor of cell j over one step; index cells-1 is the aged last cell. */
    private final double[] survive;
    /** Mean residual life of a job in cell j. */
    private final double[] residual;
    /** n[(k−1)·cells + j]. */
    private final double[] n;
    /** Mass with exactly k jobs, k = 0..levels+1 (index 0 unused). */
    private final double[] exact;
    /** Tail x_k, k = 0..levels+1. */
    private final double[] x;
    private final double[] frac;
    private final double[] theta;
    private final double[] completions;
    private int active;
    private double t;
    private double maxAgedMass;
    private double maxTopLevel;

    /**
     * @param d choices
     * @param lambda arrival rate
     * @param service service law (mean 1)
     * @param h age and time step
     * @param levels levels kept
     * @param cells age cells (the last keeps the ages beyond {@code (cells−1)h})
     * @param initial exactly-k masses {@code X_1..X_m} at {@code t0} ({@code m ≤ levels})
     * @param equilibriumAges whether initial jobs in service have the equilibrium age density
     *        {@code Ḡ(a)} (otherwise they all start at age 0)
     * @param t0 start time
     */
    AgeGridScheme(int d, ArrivalRate lambda, ServiceDistribution service, double h, int levels, int cells,
            double[] initial, boolean equilibriumAges, double t0) {
        this.d = d;
        this.lambda = lambda;
        this.h = h;
        this.levels = levels;
        this.cells = cells;
        this.survive = new double[cells];
        this.residual = new double[cells];
        this.n = new double[levels * cells];
        this.exact = new double[levels + 2];
        this.x = new double[levels + 2];
        this.frac = new double[levels + 1];
        this.theta = new double[levels + 1];
        this.completions = new double[levels + 2];
        this.t = t0;
        double[] integral = new double[cells + 1];
        for (int j = 0; j <= cells; j++) {
            integral[j] = residualIntegral(service, j * h);
        }
        for (int j = 0; j < cells - 1; j++) {
            double in = integral[j] - integral[j + 1];
            double out = integral[j + 1] - integral[j + 2];
            double p = in > 0 ? out / in : Double.NaN;
            if (!(p >= 0 && p <= 1)) {
                // I(a) has lost all precision (far light tail): fall back on the hazard at the cell's end.
                p = Math.exp(-h * service.hazard((j + 1) * h));
            }
            survive[j] = Math.min(1.0, Math.max(0.0, p));
            residual[j] = service.meanResidualLife((j + 0.5) * h);
        }
        double ageMax = (cells - 1) * h;
        double mLast = service.meanResidualLife(ageMax);
        survive[cells - 1] = mLast > 0 && Double.isFinite(mLast) ? Math.exp(-h / mLast) : 0.0;
        residual[cells - 1] = Double.isFinite(mLast) ? mLast : 0.0;
        for (int k = 1; k <= initial.length; k++) {
            int base = (k - 1) * cells;
            if (equilibriumAges) {
                for (int j = 0; j < cells - 1; j++) {
                    n[base + j] = initial[k - 1] * Math.max(0.0, integral[j] - integral[j + 1]);
                }
                n[base + cells - 1] = initial[k - 1] * Math.max(0.0, integral[cells - 1]);
            } else {
                n[base] = initial[k - 1];
            }
        }
        active = equilibriumAges ? cells : 1;
        for (int k = 1; k <= levels; k++) {
            double s = 0;
            int base = (k - 1) * cells;
            for (int j = 0; j < cells; j++) {
                s += n[base + j];
            }
            exact[k] = s;
        }
        updateTail();
    }

    /** {@code I(a) = ∫_a^∞ Ḡ(u) du = Ḡ(a) m(a)}, 0 where Ḡ has underflowed. */
    private static double residualIntegral(ServiceDistribution service, double a) {
        double s = service.survival(a);
        if (s <= 0) {
            return 0.0;
        }
        double v = s * service.meanResidualLife(a);
        return Double.isFinite(v) ? v : 0.0;
    }

    private void updateTail() {
        x[levels + 1] = 0;
        double s = 0;
        for (int k = levels; k >= 1; k--) {
            s += exact[k];
            x[k] = s;
        }
        x[0] = 1.0;
        maxTopLevel = Math.max(maxTopLevel, x[levels]);
        double aged = 0;
        for (int k = 1; k <= levels; k++) {
            aged += n[(k - 1) * cells + cells - 1];
        }
        maxAgedMass = Math.max(maxAgedMass, aged);
    }

    /** {@code Σ_{i<d} u^i v^{d−1−i} = (u^d − v^d)/(u − v)}, stable when {@code u ≈ v}. */
    private double chooseRatio(double u, double v) {
        // Horner in u: ((1·u + v)u + v²)u + ... ; no division, so no overflow when v is tiny
        double s = 1;
        double vi = 1;
        for (int i = 1; i < d; i++) {
            vi *= v;
            s = s * u + vi;
        }
        return s;
    }

    /** Advances one step {@code h}. */
    void step() {
        double lam = lambda.at(t + 0.5 * h);
        for (int k = 0; k <= levels; k++) {
            theta[k] = k == levels ? 0.0 : lam * chooseRatio(x[k], x[k + 1]);
            frac[k] = -Math.expm1(-theta[k] * h);
        }
        double idleArrivals = frac[0] * (1.0 - x[1]);
        int last = cells - 1;
        boolean full = active == cells;
        int top = full ? last : active;
        for (int k = levels; k >= 1; k--) {
            int base = (k - 1) * cells;
            int below = (k - 2) * cells;
            double keep = 1.0 - frac[k];
            double join = k >= 2 ? frac[k - 1] : 0.0;
            double done = 0;
            double mass = 0;
            if (full) {
                double vLast = n[base + last] * keep + (k >= 2 ? n[below + last] * join : 0.0);
                double vPrev = n[base + last - 1] * keep + (k >= 2 ? n[below + last - 1] * join : 0.0);
                double moved = vLast * survive[last] + vPrev * survive[last - 1];
                n[base + last] = moved;
                done += vLast + vPrev - moved;
                mass += moved;
            }
            int jStart = full ? last - 2 : active - 1;
            if (k >= 2) {
                for (int j = jStart; j >= 0; j--) {
                    double v = n[base + j] * keep + n[below + j] * join;
                    double moved = v * survive[j];
                    n[base + j + 1] = moved;
                    done += v - moved;
                    mass += moved;
                }
            } else {
                for (int j = jStart; j >= 0; j--) {
                    double v = n[base + j] * keep;
                    double moved = v * survive[j];
                    n[base + j + 1] = moved;
                    done += v - moved;
                    mass += moved;
                }
            }
            completions[k] = done;
            exact[k] = mass;
        }
        completions[levels + 1] = 0;
        for (int k = 1; k <= levels; k++) {
            double start = completions[k + 1] + (k == 1 ? idleArrivals : 0.0);
            n[(k - 1) * cells] = start;
            exact[k] += start;
        }
        if (!full) {
            active = Math.min(cells, top + 1);
        }
        t += h;
        updateTail();
    }

    /** @return current time */
    double time() {
        return t;
    }

    /** Copies {@code (1, x_1, ..., x_L)} into {@code out} (length {@code L+1}; modified). */
    void tail(double[] out) {
        System.arraycopy(x, 0, out, 0, levels + 1);
    }

    /**
     * Mean virtual waiting time (MODELS.md §5):
     * {@code Σ_k r_k (k−1) + Σ_k (θ_k/λ) ∫ ν_k(a) m(a) da}, with {@code r_k/(x_k − x_{k+1}) = θ_k/λ}.
     */
    double meanWait() {
        double w = 0;
        for (int k = 1; k <= levels; k++) {
            double xk = x[k];
            double xk1 = x[k + 1];
            double rk = Math.pow(xk, d) - Math.pow(xk1, d);
            w += rk * (k - 1);
            double work = 0;
            int base = (k - 1) * cells;
            for (int j = 0; j < active; j++) {
                work += n[base + j] * residual[j];
            }
            w += chooseRatio(xk, xk1) * work;
        }
        return w;
    }

    /** @return largest {@code x_L} seen (mass cut off by the level truncation) */
    double maxTopLevel() {
        return maxTopLevel;
    }

    /** @return largest mass seen in the aged last cell */
    double maxAgedMass() {
        return maxAgedMass;
    }

    /**
     * Runs the scheme over {@code grid} and records {@code tail}, mean queue length and mean wait at
     * each grid time, interpolating linearly between steps (an O(h²) error, below the scheme's).
     *
     * @param grid output times, starting at the scheme's start time
     * @param tails output, {@code [grid.size()][levels+1]} (modified)
     * @param waits output (modified)
     */
    void run(TimeGrid grid, double[][] tails, double[] waits) {
        double[] prev = new double[levels + 1];
        double eps = 1e-9 * h;
        int next = 0;
        while (next < grid.size()) {
            double target = grid.time(next);
            if (target <= t + eps) {
                tail(tails[next]);
                waits[next] = meanWait();
                next++;
            } else if (target < t + h - eps) {
                // an output time strictly inside the next step: interpolate between its ends
                tail(prev);
                double prevWait = meanWait();
                double prevT = t;
                step();
                double curWait = meanWait();
                while (next < grid.size() && grid.time(next) < t - eps) {
                    double w = (grid.time(next) - prevT) / h;
                    for (int i = 0; i <= levels; i++) {
                        tails[next][i] = prev[i] + w * (x[i] - prev[i]);
                    }
                    waits[next] = prevWait + w * (curWait - prevWait);
                    next++;
                }
            } else {
                step();
            }
        }
    }
}
