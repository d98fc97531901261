package org.mflb.pde.workload;

import org.mflb.core.ode.TimeGrid;
import org.mflb.core.sojourn.SojournLaw;

/**
 * A transient of the LL(d) workload equation (docs/models.md §11) on a time grid: the workload ccdf
 * {@code F̄(t_k, ·)} on the nodes {@code j h ≤ reach} at every output time, and what follows from it
 * for a job arriving then: {@code P(W > w) = F̄(t_k, w)^d}, {@code R = W + X}. The means are
 * trapezoidal integrals over {@code [0, reach]} (the tail beyond the reach is not included).
 * Immutable.
 */
public final class WorkloadTransient {

    private final WorkloadTransport model;
    private final TimeGrid grid;
    private final double h;
    private final double[][] profiles;
    private final CellMoments weights;
    private final boolean richardson;

    WorkloadTransient(WorkloadTransport model, TimeGrid grid, double h, double[][] profiles, CellMoments weights,
            boolean richardson) {
        this.model = model;
        this.grid = grid;
        this.h = h;
        this.profiles = profiles;
        this.weights = weights;
        this.richardson = richardson;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return grid;
    }

    /** @return the node spacing {@code h} of the profiles (the coarse step when extrapolated) */
    public double step() {
        return h;
    }

    /** @return where the grid ends */
    public double reach() {
        return (profiles[0].length - 1) * h;
    }

    /** @return whether the profiles are Richardson extrapolations over {@code h} and {@code h/2} */
    public boolean richardson() {
        return richardson;
    }

    /** @return {@code F̄(t_k, jh)}, {@code j h ≤ reach} (a copy) */
    public double[] workloadNodes(int k) {
        return profiles[k].clone();
    }

    /** @return {@code F̄(t_k, w)}, interpolated between nodes (0 beyond the reach, 1 for {@code w < 0}) */
    public double workloadSurvival(int k, double w) {
        if (w < 0) {
            return 1.0;
        }
        if (w > reach()) {
            return 0.0;
        }
        return Math.min(1.0, Math.max(0.0, new NodeInterpolation(h, profiles[k], new double[0]).at(w)));
    }

    /** @return {@code F̄(t_k, 0+)}: the fraction of busy servers */
    public double busyFraction(int k) {
        return profiles[k][0];
    }

    /** @return the mean workload of a server {@code ∫F̄(t_k, w) dw} */
    public double meanWorkload(int k) {
        return trapezoid(profiles[k], 1);
    }

    /** @return {@code E[W]} of a job arriving at {@code t_k}: {@code ∫F̄(t_k, w)^d dw} */
    public double meanWaitingTime(int k) {
        return trapezoid(profiles[k], model.d());
    }

    /** @return {@code E[R] = E[W] + 1} of a job arriving at {@code t_k} */
    public double meanResponseTime(int k) {
        return meanWaitingTime(k) + 1;
    }

    private double trapezoid(double[] f, int power) {
        double s = 0;
        for (int j = 0; j < f.length; j++) {
            double v = power == 1 ? f[j] : Math.pow(f[j], power);
            s += (j == 0 || j == f.length - 1) ? 0.5 * v : v;
        }
        return s * h;
    }

    /** @return the waiting-time law of a job arriving at {@code t_k} (atom {@code 1 − F̄(t_k, 0+)^d} at 0) */
    public SojournLaw waitingTime(int k) {
        NodeInterpolation f = new NodeInterpolation(h, profiles[k], new double[0]);
        int d = model.d();
        return new NodalLaw(w -> Math.pow(Math.max(0, f.at(w)), d), meanWaitingTime(k), reach());
    }

    /** @return the response-time law of a job arriving at {@code t_k}: {@code P(U + X > t)} */
    public SojournLaw responseTime(int k) {
        double mean = meanResponseTime(k);
        if (model.pointMassSizes()) {
            SojournLaw w = waitingTime(k);
            return new NodalLaw(t -> t < 1 ? 1.0 : w.survival(t - 1), mean, reach() + 1);
        }
        double[] p = profiles[k].clone();
        for (int j = 0; j < p.length; j++) {
            p[j] = Math.pow(p[j], model.d());
        }
        NodeInterpolation s = new NodeInterpolation(h, WorkloadGrid.responseNodes(weights, p), new double[0]);
        return new NodalLaw(s::at, mean, reach());
    }
}
