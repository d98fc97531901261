package org.mflb.pde.workload;

import java.util.function.DoubleUnaryOperator;

import org.mflb.core.ode.TimeGrid;
import org.mflb.core.sojourn.SojournLaw;

/**
 * A transient of the LL(d) workload equation (docs/models.md §11.6) on a time grid: the workload
 * ccdf {@code F̄(t_k, ·)} on the nodes {@code j h ≤ reach} at every output time, and what follows from
 * it for a job arriving then: {@code P(W > w) = F̄(t_k, w)^d}, {@code R = W + X}. The means are
 * trapezoidal integrals over {@code [0, reach]} (the tail beyond the reach is not included). With
 * Richardson extrapolation every value (profile, means, survival functions) is extrapolated from the
 * runs at {@code h} and {@code h/2}, each computed at its own resolution. Immutable.
 */
public final class WorkloadTransient {

    /** One run of the scheme: its step, profiles at the output times, and weights. */
    static final class Run {
        final double h;
        final double[][] profiles;
        final CellMoments weights;

        Run(double h, double[][] profiles, CellMoments weights) {
            this.h = h;
            this.profiles = profiles;
            this.weights = weights;
        }
    }

    private final WorkloadTransport model;
    private final TimeGrid grid;
    private final Run coarse;
    /** The run at {@code h/2}, or null without Richardson extrapolation. */
    private final Run fine;

    WorkloadTransient(WorkloadTransport model, TimeGrid grid, Run coarse, Run fine) {
        this.model = model;
        this.grid = grid;
        this.coarse = coarse;
        this.fine = fine;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return grid;
    }

    /** @return the node spacing {@code h} of the profiles (the coarse step when extrapolated) */
    public double step() {
        return coarse.h;
    }

    /** @return where the grid ends */
    public double reach() {
        return (coarse.profiles[0].length - 1) * coarse.h;
    }

    /** @return whether the values are Richardson extrapolations over {@code h} and {@code h/2} */
    public boolean richardson() {
        return fine != null;
    }

    /** @return {@code F̄(t_k, jh)}, {@code j h ≤ reach} (a copy; extrapolated at the coarse nodes) */
    public double[] workloadNodes(int k) {
        double[] c = coarse.profiles[k].clone();
        if (fine != null) {
            double[] f = fine.profiles[k];
            for (int j = 0; j < c.length; j++) {
                c[j] = clamp((4 * f[2 * j] - c[j]) / 3);
            }
        }
        return c;
    }

    /** @return {@code F̄(t_k, w)}, interpolated between nodes (0 beyond the reach, 1 for {@code w < 0}) */
    public double workloadSurvival(int k, double w) {
        if (w < 0) {
            return 1.0;
        }
        if (w > reach()) {
            return 0.0;
        }
        return extrapolate(run -> new NodeInterpolation(run.h, run.profiles[k], new double[0]).at(w));
    }

    /** @return {@code F̄(t_k, 0+)}: the fraction of busy servers */
    public double busyFraction(int k) {
        return extrapolate(run -> run.profiles[k][0]);
    }

    /** @return the mean workload of a server {@code ∫F̄(t_k, w) dw} */
    public double meanWorkload(int k) {
        return extrapolate(run -> trapezoid(run, k, 1));
    }

    /** @return {@code E[W]} of a job arriving at {@code t_k}: {@code ∫F̄(t_k, w)^d dw} */
    public double meanWaitingTime(int k) {
        return extrapolate(run -> trapezoid(run, k, model.d()));
    }

    /** @return {@code E[R] = E[W] + 1} of a job arriving at {@code t_k} */
    public double meanResponseTime(int k) {
        return meanWaitingTime(k) + 1;
    }

    /** @return the waiting-time law of a job arriving at {@code t_k} (atom {@code 1 − F̄(t_k, 0+)^d} at 0) */
    public SojournLaw waitingTime(int k) {
        int d = model.d();
        DoubleUnaryOperator c = waiting(coarse, k, d);
        DoubleUnaryOperator f = fine == null ? null : waiting(fine, k, d);
        return new NodalLaw(combine(c, f), meanWaitingTime(k), reach());
    }

    /** @return the response-time law of a job arriving at {@code t_k}: {@code P(U + X > t)} */
    public SojournLaw responseTime(int k) {
        double mean = meanResponseTime(k);
        if (model.pointMassSizes()) {
            SojournLaw w = waitingTime(k);
            return new NodalLaw(t -> t < 1 ? 1.0 : w.survival(t - 1), mean, reach() + 1);
        }
        DoubleUnaryOperator c = response(coarse, k);
        DoubleUnaryOperator f = fine == null ? null : response(fine, k);
        return new NodalLaw(combine(c, f), mean, reach());
    }

    private static DoubleUnaryOperator waiting(Run run, int k, int d) {
        NodeInterpolation f = new NodeInterpolation(run.h, run.profiles[k], new double[0]);
        return w -> Math.pow(Math.max(0, f.at(w)), d);
    }

    private DoubleUnaryOperator response(Run run, int k) {
        double[] p = run.profiles[k].clone();
        for (int j = 0; j < p.length; j++) {
            p[j] = Math.pow(p[j], model.d());
        }
        NodeInterpolation s = new NodeInterpolation(run.h, WorkloadGrid.responseNodes(run.weights, p), new double[0]);
        return s::at;
    }

    private static DoubleUnaryOperator combine(DoubleUnaryOperator coarse, DoubleUnaryOperator fine) {
        if (fine == null) {
            return coarse;
        }
        return t -> (4 * fine.applyAsDouble(t) - coarse.applyAsDouble(t)) / 3;
    }

    private double extrapolate(java.util.function.ToDoubleFunction<Run> value) {
        double c = value.applyAsDouble(coarse);
        return fine == null ? c : (4 * value.applyAsDouble(fine) - c) / 3;
    }

    private double trapezoid(Run run, int k, int power) {
        double[] f = run.profiles[k];
        double s = 0;
        for (int j = 0; j < f.length; j++) {
            double v = power == 1 ? f[j] : Math.pow(f[j], power);
            s += (j == 0 || j == f.length - 1) ? 0.5 * v : v;
        }
        return s * run.h;
    }

    private static double clamp(double x) {
        return Math.min(1.0, Math.max(0.0, x));
    }
}
