package org.mflb.pde.workload;

import java.util.Arrays;
import java.util.Locale;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;

/**
 * The transient mean-field limit of LL(d) (docs/models.md §11, [HVH]): the workload ccdf
 * {@code F̄(t, w) = P(V(t) > w)} of a server solves, for {@code w > 0},
 * <pre>
 *   ∂F̄/∂t = ∂F̄/∂w + λ(t) J(t, w),    J = P(U + X > w) − P(U > w) = P(U ≤ w &lt; U + X),
 *   P(U > u) = F̄(t, u)^d,   P(U + X > w) = Ḡ(w) + ∫_{(0,w]} F̄(t, w − s)^d dG(s):
 * </pre>
 * the workload drains at unit speed, and an arrival carries a server from {@code U ≤ w} to
 * {@code U + X > w}. A job arriving at {@code t} waits {@code W = U} and responds in {@code R = U + X}.
 *
 * <p><b>Scheme.</b> On the nodes {@code w_k = k h} with {@code Δt = Δw = h}, the transport is an
 * exact shift along the characteristics {@code w + t = const} and the source is integrated along them
 * by Heun's rule (second order) with the rate averaged over the step, {@code λ̄_n = (1/h)∫_{t_n}^{t_{n+1}} λ}
 * (exact for a piecewise-constant {@code λ(t)} that jumps at step ends):
 * <pre>
 *   F*_k = F_{k+1}^n + h λ̄_n J_{k+1}^n,    F_k^{n+1} = F_{k+1}^n + (h/2) λ̄_n [J_{k+1}^n + J_k(F*)],
 * </pre>
 * {@code J} evaluated with {@code F̄^d} piecewise linear integrated exactly against {@code dG}
 * (the weights of the equilibrium march, one FFT convolution per evaluation). Values are kept in
 * [0, 1]; beyond the reach {@code w_max} the ccdf is continued log-linearly (information moves
 * left at unit speed, so the reach must hold the workload: by default it is where the equilibrium at
 * the largest rate of the run, capped at 0.99, has a negligible tail, plus room for an overload).
 * Outputs between two steps are interpolated linearly in {@code t}. {@link #withRichardson}
 * extrapolates over {@code h} and {@code h/2}. Immutable; {@code withX} returns a modified copy.
 * <pre>{@code
 *   WorkloadTransient tr = WorkloadTransport.of(2, ArrivalRate.constant(0.9), ServiceDistributions.parse("h2:scv=10"))
 *           .transientFrom(WorkloadInitialState.empty(), TimeGrid.uniform(50, 1));
 *   double w = tr.meanWaitingTime(50);
 * }</pre>
 */
public final class WorkloadTransport {

    /** Default step {@code h = Δt = Δw}. */
    public static final double DEFAULT_STEP = 1.0 / 16;
    /** Largest automatic reach (heavy tails: the equilibrium tail beyond it is not negligible). */
    public static final double MAX_AUTOMATIC_REACH = 1024;
    /**
     * Equilibrium tail {@code ∫_{reach}^∞ F̄^d}, relative to {@code E[R]}, below which the automatic
     * reach stops growing (the equilibrium's default accuracy).
     */
    static final double REACH_TAIL = 1e-6;
    /** Equilibrium {@code F̄(reach)} below which the automatic reach stops growing. */
    static final double REACH_WORKLOAD = 1e-4;
    /** Largest number of nodes of one grid. */
    static final int MAX_NODES = 1 << 20;
    /** Largest work accepted, in FFT butterflies (about a minute on one core). */
    private static final double MAX_WORK = 3e10;

    private final int d;
    private final ArrivalRate lambda;
    private final ServiceDistribution service;
    private final boolean pointMass;
    private final double step;
    private final double reach;
    private final boolean richardson;

    private WorkloadTransport(int d, ArrivalRate lambda, ServiceDistribution service, boolean pointMass, double step,
            double reach, boolean richardson) {
        this.d = d;
        this.lambda = lambda;
        this.service = service;
        this.pointMass = pointMass;
        this.step = step;
        this.reach = reach;
        this.richardson = richardson;
    }

    /**
     * @param d servers sampled per arrival, in [1, 1000]
     * @param lambda arrival rate per server {@code λ(t) ≥ 0} (it may exceed 1 for a while)
     * @param service job-size law of mean 1
     */
    public static WorkloadTransport of(int d, ArrivalRate lambda, ServiceDistribution service) {
        Require.between("d", d, 1, 1000);
        if (lambda == null) {
            throw MflbException.invalid("lambda", null, "an arrival rate");
        }
        boolean pointMass = LeastLoaded.checkSizes(service);
        return new WorkloadTransport(d, lambda, service, pointMass, DEFAULT_STEP, 0, false);
    }

    /** @return the model at a constant rate {@code λ ≥ 0} */
    public static WorkloadTransport of(int d, double lambda, ServiceDistribution service) {
        return of(d, ArrivalRate.constant(lambda), service);
    }

    /**
     * @param h the step {@code Δt = Δw} in (0, 1/4]; {@code 1/h} must be an integer for deterministic
     *        sizes (the size is then a node, where {@code J} jumps: the segments of characteristics
     *        ending there use its left limit)
     * @return a copy with that step
     */
    public WorkloadTransport withStep(double h) {
        Require.positive("step", h);
        if (h > 0.25) {
            throw MflbException.invalid("step", h, "in (0, 0.25] (the mean job size is 1)");
        }
        if (pointMass && Math.abs(1 / h - Math.rint(1 / h)) > 1e-9) {
            throw MflbException.invalid("step", h, "1/m for an integer m with deterministic sizes (the size 1 must be a node)");
        }
        return new WorkloadTransport(d, lambda, service, pointMass, h, reach, richardson);
    }

    /** @return a copy whose grid ends at {@code w_max > 0}, or chooses it automatically for 0 */
    public WorkloadTransport withReach(double wMax) {
        if (wMax != 0) {
            Require.positive("reach", wMax);
        }
        return new WorkloadTransport(d, lambda, service, pointMass, step, wMax, richardson);
    }

    /** @return a copy with or without Richardson extrapolation over {@code h} and {@code h/2} */
    public WorkloadTransport withRichardson(boolean on) {
        return new WorkloadTransport(d, lambda, service, pointMass, step, reach, on);
    }

    /** @return servers sampled per arrival */
    public int d() {
        return d;
    }

    /** @return the arrival rate */
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    /** @return the job-size law */
    public ServiceDistribution service() {
        return service;
    }

    /** @return the step */
    public double step() {
        return step;
    }

    /**
     * Solves the transport equation from {@code initial} over {@code grid}.
     *
     * @param initial the workload law at {@code grid.start()}
     * @param grid output times
     * @return the transient
     * @throws MflbException INVALID_PARAMETER when the run would be too long (step, reach, horizon)
     */
    public WorkloadTransient transientFrom(WorkloadInitialState initial, TimeGrid grid) {
        if (initial == null) {
            throw MflbException.invalid("initial", null, "an initial workload law");
        }
        double span = grid.end() - grid.start();
        double wMax = reach > 0 ? reach : automaticReach(initial, grid);
        int cells = (int) Math.min(MAX_NODES, Math.ceil(wMax / step - 1e-9));
        int nodes = cells + 1;
        requireFeasible(span, nodes);
        WorkloadTransient.Run coarse = run(step, nodes, initial, grid);
        WorkloadTransient.Run fine = richardson ? run(step / 2, 2 * cells + 1, initial, grid) : null;
        return new WorkloadTransient(this, grid, coarse, fine);
    }

    boolean pointMassSizes() {
        return pointMass;
    }

    /**
     * The default reach: where the equilibrium at {@code λ̂ = min(0.99, sup λ)} (and at the initial
     * equilibrium's rate) leaves a tail {@code ∫_{reach}^∞ F̄^d} below {@link #REACH_TAIL} of its
     * {@code E[R]} and {@code F̄(reach)} below {@link #REACH_WORKLOAD} (at least 16, at most
     * {@link #MAX_AUTOMATIC_REACH}), plus
     * {@code 2 (sup λ − 1) T} when the rate exceeds 1 over a horizon {@code T}.
     */
    private double automaticReach(WorkloadInitialState initial, TimeGrid grid) {
        double span = grid.end() - grid.start();
        double sup = lambda.supremum(grid.start(), grid.end());
        double hat = Math.max(sup, initial.isEquilibrium() ? initial.equilibriumRate() : 0);
        hat = Math.min(0.99, hat);
        double wMax = 16;
        if (hat > 0) {
            LeastLoaded model = LeastLoaded.of(d, hat, service);
            VolterraMarch march = new VolterraMarch(d, hat, new CellMoments(service, EquilibriumSolver.COARSEST_STEP));
            while (wMax < MAX_AUTOMATIC_REACH) {
                march.extendTo((int) Math.round(wMax / EquilibriumSolver.COARSEST_STEP) + 1);
                WorkloadGrid g = new WorkloadGrid(model, march, model.hasFiniteMean());
                if (g.workloadAtReach() < REACH_WORKLOAD && g.tail().waitTail() <= REACH_TAIL * (1 + g.meanWait())) {
                    break;
                }
                wMax *= 2;
            }
        }
        return Math.min(MAX_AUTOMATIC_REACH, wMax) + 2 * Math.max(0, sup - 1) * span;
    }

    private void requireFeasible(double span, int nodes) {
        int size = Convolution.size(2 * (nodes + 1));
        double steps = Math.ceil(span / step) * (richardson ? 3 : 1);
        double work = steps * 4 * size * (Math.log(size) / Math.log(2));
        if (nodes >= MAX_NODES || work > MAX_WORK) {
            throw MflbException.invalid("step", step, String.format(Locale.ROOT,
                    "larger, or the reach (%.4g) or horizon (%.4g) smaller: the transient would take about %.2g FFT"
                            + " operations", (nodes - 1) * step, span, work));
        }
    }

    private WorkloadTransient.Run run(double h, int nodes, WorkloadInitialState initial, TimeGrid grid) {
        int n = nodes + 1; // and one ghost node
        CellMoments w = new CellMoments(service, h);
        w.ensure(n + 1);
        double[] kappa = new double[n];
        double[] gbar = new double[n];
        double[] first = new double[n];
        for (int j = 0; j < n; j++) {
            kappa[j] = w.alpha(j) + (j > 0 ? w.beta(j - 1) : 0.0);
            gbar[j] = w.survival(j);
            first[j] = j > 0 ? w.beta(j - 1) : 0.0;
        }
        Convolution kernel = new Convolution(kappa, 0, n, Convolution.size(2 * n));
        Source source = new Source(d, kernel, gbar, first);
        double[] f = initialProfile(initial, h, n);
        ghost(f);
        double[][] profiles = new double[grid.size()][];
        int o = 0;
        double t0 = grid.start();
        double tol = 1e-9 * h;
        while (o < grid.size() && grid.time(o) <= t0 + tol) {
            profiles[o++] = Arrays.copyOf(f, nodes);
        }
        int atomNode = pointMass ? (int) Math.round(1 / h) : 0;
        double[] star = new double[n];
        double[] next = new double[n];
        double[] sourceNow = new double[n];
        double[] sourcePredicted = new double[n];
        long stepIndex = 0;
        while (o < grid.size()) {
            double t = t0 + stepIndex * h;
            double t1 = t0 + (stepIndex + 1) * h;
            // λ averaged over the step: exact for a piecewise-constant rate, second order otherwise
            double rate = lambda.isConstant() ? lambda.at(t) : lambda.integral(t, t1) / h;
            double[] j0 = source.of(f, sourceNow);
            if (atomNode > 0) {
                // the segments ending at the jump of J (w = 1) lie left of it: its left limit 1 − F̄(1)^d
                j0[atomNode] = 1 - Math.pow(f[atomNode], d);
            }
            for (int k = 0; k < n - 1; k++) {
                star[k] = clamp(f[k + 1] + h * rate * j0[k + 1]);
            }
            ghost(star);
            double[] j1 = source.of(star, sourcePredicted);
            for (int k = 0; k < n - 1; k++) {
                next[k] = clamp(f[k + 1] + 0.5 * h * rate * (j0[k + 1] + j1[k]));
            }
            ghost(next);
            while (o < grid.size() && grid.time(o) <= t1 + tol) {
                double theta = Math.min(1, Math.max(0, (grid.time(o) - t) / h));
                double[] out = new double[nodes];
                for (int k = 0; k < nodes; k++) {
                    out[k] = theta >= 1 - 1e-9 ? next[k] : (1 - theta) * f[k] + theta * next[k];
                }
                profiles[o++] = out;
            }
            double[] swap = f;
            f = next;
            next = swap;
            stepIndex++;
        }
        return new WorkloadTransient.Run(h, profiles, w);
    }

    private double[] initialProfile(WorkloadInitialState initial, double h, int n) {
        if (!initial.isEquilibrium()) {
            return initial.sample(h, n);
        }
        VolterraMarch march = new VolterraMarch(d, initial.equilibriumRate(), new CellMoments(service, h));
        march.extendTo(n);
        return Arrays.copyOf(march.workload(), n);
    }

    private static double clamp(double x) {
        return x < 0 ? 0.0 : (x > 1 ? 1.0 : x);
    }

    /** The ghost node beyond the reach: a log-linear continuation of the last two. */
    private static void ghost(double[] f) {
        int n = f.length;
        double a = f[n - 3];
        double b = f[n - 2];
        f[n - 1] = a > 0 ? b * Math.min(1.0, b / a) : 0.0;
    }

    /** {@code J = P(U + X > w) − P(U > w)} at the nodes, by one FFT convolution. */
    private static final class Source {
        private final int d;
        private final Convolution kernel;
        private final double[] conv;
        private final double[] gbar;
        private final double[] first;
        private final double[] p;

        Source(int d, Convolution kernel, double[] gbar, double[] first) {
            this.d = d;
            this.kernel = kernel;
            this.conv = new double[kernel.size()];
            this.gbar = gbar;
            this.first = first;
            this.p = new double[gbar.length];
        }

        /** Writes {@code J(f)} into {@code out} and returns it. */
        double[] of(double[] f, double[] out) {
            int n = f.length;
            for (int k = 0; k < n; k++) {
                p[k] = d == 1 ? f[k] : (d == 2 ? f[k] * f[k] : Math.pow(f[k], d));
            }
            double p0 = p[0];
            p[0] = 0;
            kernel.apply(p, 0, n, conv);
            p[0] = p0;
            out[0] = 1 - p0;
            for (int k = 1; k < n; k++) {
                double s = gbar[k] + first[k] * p0 + conv[k];
                out[k] = Math.max(0.0, Math.min(1.0, s) - p[k]);
            }
            return out;
        }
    }
}
