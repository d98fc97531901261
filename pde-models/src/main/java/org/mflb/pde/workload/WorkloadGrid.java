package org.mflb.pde.workload;

import org.mflb.core.distribution.ServiceDistribution;

/**
 * One grid's solution of the equilibrium workload equation (docs/models.md §11.2–11.3): the nodal
 * ccdf {@code F_k ≈ F̄(k h)} on {@code [0, w_max]}, the response-time ccdf at the nodes, the
 * trapezoidal integrals of {@code F̄^d} and {@code F̄}, and the tail beyond {@code w_max}
 * ({@link TailTerm}). Immutable.
 */
final class WorkloadGrid {

    private final LeastLoaded model;
    private final double h;
    private final double[] f;
    private final double[] p;
    private final NodeInterpolation workload;
    private final NodeInterpolation response;
    private final double bodyWait;
    private final double bodyWork;
    private final TailTerm tail;

    /**
     * @param model the model
     * @param march a march of it
     * @param withTail whether to compute the tail term (finite mean only)
     */
    WorkloadGrid(LeastLoaded model, VolterraMarch march, boolean withTail) {
        this(model, march, withTail, Double.POSITIVE_INFINITY);
    }

    /**
     * @param model the model
     * @param march a march of it
     * @param withTail whether to compute the tail term (finite mean only)
     * @param sufficient the tail's uncertainty that suffices: above it the tail equation is solved
     *        ({@link TailTerm})
     */
    WorkloadGrid(LeastLoaded model, VolterraMarch march, boolean withTail, double sufficient) {
        this.model = model;
        this.h = march.step();
        this.f = march.workload();
        int n = f.length;
        int d = model.d();
        this.p = new double[n];
        for (int k = 0; k < n; k++) {
            p[k] = Math.pow(f[k], d);
        }
        double[] breaks = model.kinks();
        this.workload = new NodeInterpolation(h, f, breaks);
        this.response = model.pointMassSizes() ? null : new NodeInterpolation(h, responseNodes(march.weights(), p), breaks);
        this.bodyWait = trapezoid(p, h);
        this.bodyWork = trapezoid(f, h);
        this.tail = new TailTerm(model, h, p, withTail, sufficient);
    }

    private static double trapezoid(double[] v, double h) {
        double s = 0.5 * (v[0] + v[v.length - 1]);
        for (int k = 1; k < v.length - 1; k++) {
            s += v[k];
        }
        return s * h;
    }

    /**
     * {@code P(R > t_k) = Ḡ(t_k) + ∫_{(0, t_k]} F̄(t_k − s)^d dG(s)}, the piecewise-linear {@code F̄^d}
     * integrated exactly against {@code dG}: {@code S_k = Ḡ_k + β_{k−1} P_0 + Σ_{i=1}^{k} κ_{k−i} P_i}
     * with {@code κ_0 = α_0}, {@code κ_j = α_j + β_{j−1}}.
     */
    static double[] responseNodes(CellMoments w, double[] p) {
        int n = p.length;
        double[] kappa = new double[n];
        for (int j = 0; j < n; j++) {
            kappa[j] = w.alpha(j) + (j > 0 ? w.beta(j - 1) : 0.0);
        }
        double[] x = p.clone();
        x[0] = 0;
        double[] s = Convolution.linear(x, kappa, n);
        s[0] = 1.0;
        for (int k = 1; k < n; k++) {
            s[k] = Math.min(1.0, Math.max(0.0, s[k] + w.survival(k) + w.beta(k - 1) * p[0]));
        }
        return s;
    }

    double step() {
        return h;
    }

    /** @return {@code w_max}, the last node */
    double reach() {
        return (f.length - 1) * h;
    }

    /** @return {@code F̄(w_max)} */
    double workloadAtReach() {
        return f[f.length - 1];
    }

    /** @return the nodal values (a copy) */
    double[] nodes() {
        return f.clone();
    }

    /** @return {@code ∫_0^{w_max} F̄^d} (trapezoidal) */
    double bodyWait() {
        return bodyWait;
    }

    /** @return {@code ∫_0^{w_max} F̄} (trapezoidal) */
    double bodyWork() {
        return bodyWork;
    }

    TailTerm tail() {
        return tail;
    }

    /** @return {@code E[W]} on this grid: body plus tail term ({@code +∞} for an infinite mean) */
    double meanWait() {
        return bodyWait + tail.waitTail();
    }

    /** @return {@code ∫_0^∞ F̄}: body plus tail */
    double meanWork() {
        return bodyWork + tail.workTail();
    }

    /** @return {@code F̄(w)}: interpolated on the grid, the tail continuation beyond it */
    double workload(double w) {
        if (!(w >= 0)) {
            return 1.0;
        }
        if (w <= reach()) {
            return Math.max(0.0, workload.at(w));
        }
        return tail.workload(w);
    }

    /** @return {@code P(W > w) = F̄(w)^d}, 1 for {@code w < 0} */
    double waitingSurvival(double w) {
        if (w < 0) {
            return 1.0;
        }
        return Math.pow(workload(w), model.d());
    }

    /** @return {@code P(R > t)} */
    double responseSurvival(double t) {
        if (t < 0) {
            return 1.0;
        }
        if (response == null) {
            // a point mass at 1: R = W + 1
            return t < 1 ? 1.0 : waitingSurvival(t - 1);
        }
        if (t <= reach()) {
            return Math.min(1.0, Math.max(0.0, response.at(t)));
        }
        return tail.responseSurvival(t, waitingSurvival(t));
    }

    /** @return the law of the job sizes */
    ServiceDistribution service() {
        return model.service();
    }
}
