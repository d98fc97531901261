package org.mflb.pde;

import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;

/**
 * One run of the second-order upwind scheme for the age-structured hydrodynamic PDE of SQ(d)
 * (docs/models.md §5, [AR]), on a uniform age grid with {@code Δt = Δa = h}.
 * <p>
 * <b>State.</b> {@code n_k(j)}: the mass of servers holding exactly {@code k} jobs
 * ({@code 1 ≤ k ≤ L}) whose job in service has age in cell {@code j = [jh, (j+1)h)}, with density
 * proportional to {@code Ḡ} inside the cell; an aged cell {@code [Jh, ∞)}; a <i>cohort</i> of the
 * jobs that were in service at the start with age exactly 0 (kept apart, at its exact age
 * {@code t − t_0}, since a point mass does not fit a cell); and the idle mass {@code n_0 = 1 − x_1}.
 * In the notation of docs/models.md, {@code ν_k(t, a) ≈ n_k(j)/h}.
 * <p>
 * <b>One step</b> is the Strang splitting {@code C(h/2) S(h) C(h/2)} of
 * <ul>
 * <li>{@code C}, the arrivals: within every cell the levels form a pure-birth chain
 * {@code n_k' = θ_{k−1} n_{k−1} − θ_k n_k}, {@code θ_k = λ r_k/(x_k − x_{k+1}) = λ Σ_{i<d} x_k^i x_{k+1}^{d−1−i}}
 * (an arrival keeps the age of the job in service). Each half step is solved level by level,
 * upwards, by the exponential integrator with the inflow {@code F_{k−1}} spread evenly over the half
 * step, and the outflow taken from the balance:
 * <pre>  n_k ← e^{−z_k} n_k + F_{k−1} (1 − e^{−z_k})/z_k,   F_k = n_k(old) + F_{k−1} − n_k(new),   z_k = θ_k h/2 </pre>
 * (second order, positive and mass-conserving for every {@code h}). The rates of the two halves use
 * {@code λ} averaged over the half step and {@code x} extrapolated (quadratically, from the last three
 * steps) to its midpoint, so the coefficients are accurate to O(h³); the first step, which has no
 * history, is predicted with frozen rates and then repeated. Arrivals to idle servers start a job:
 * those of the first half enter a fresh cell whose survivors, {@code s_1 = (2/h)∫_{h/2}^h Ḡ}, join
 * cell 0; those of the second half join cell 0 directly with {@code s_2 = (2/h)∫_0^{h/2} Ḡ}. Level
 * {@code L} receives no arrivals (its mass {@code x_L} is reported as cut off).</li>
 * <li>{@code S}, transport and service: cell {@code j} moves to cell {@code j+1} with survival
 * {@code p_j = ∫_{cell j} Ḡ(a + h) da / ∫_{cell j} Ḡ(a) da}, computed from
 * {@code I(a) = ∫_a^∞ Ḡ = Ḡ(a) m(a)} (never from the hazard, so heavy tails give no overflow); the
 * aged cell keeps its mass with survival {@code e^{−h/m(Jh)}}; the cohort survives with the exact
 * {@code Ḡ(τ + h)/Ḡ(τ)}. A completion at a server with {@code k ≥ 2} jobs starts the next job: the
 * completions {@code c_k} of the step start jobs uniformly over it, which survive to its end with
 * {@code q_0 = (1/h)∫_0^h Ḡ}; the others complete again (a cascade, {@code C_k = c_k + (1 − q_0) C_{k+1}},
 * new cell 0 {@code = q_0 C_{k+1}}).</li>
 * </ul>
 * Every factor lies in [0, 1] and every transfer is booked on both sides, so the scheme preserves
 * positivity and conserves {@code x_0 = 1} exactly. Its error is second order in {@code h} (measured
 * against the exact ODEs of exponential and H2 service: ratios 3.6–4.0 per halving of {@code h}); a
 * hazard that is infinite at age 0 (Weibull shape 0.5) lowers the order to about 1.5.
 * Work per step is proportional to the occupied (cell, level) pairs: every cell tracks its highest
 * occupied level, and an inflow below {@link #NEGLIGIBLE} into an empty level stops the upward sweep
 * (it is kept in that level, so nothing is lost).
 */
final class AgeGridScheme {

    /** Mass below which an inflow into an empty level is not carried further up. */
    static final double NEGLIGIBLE = 1e-30;

    private final int d;
    private final ArrivalRate lambda;
    private final ServiceDistribution service;
    private final double h;
    private final int levels;
    /** Non-aged age cells J. */
    private final int cells;
    private final int stride;
    /** Survival factor of age cell j over one step. */
    private final double[] survive;
    /** Mean residual life of the jobs in age cell j. */
    private final double[] residual;
    private final double agedSurvive;
    private final double agedResidual;
    private final double q0;
    private final double s1;
    private final double s2;
    /** Ring of age cells: the cell of age j lives in slot (start + j) mod J; level k at slot·stride + k. */
    private final double[] ring;
    /** Highest occupied level of each slot (0: empty). */
    private final int[] top;
    private final double[] aged;
    private int agedTop;
    private final double[] cohort;
    private int cohortTop;
    private double cohortAge;
    private final double[] fresh;
    private final double[] completions;
    private final double[] work;
    private double idle;
    private int start;
    private int active;
    /** Mass with exactly k jobs, k = 0..levels+1. */
    private final double[] exact;
    /** Tail x_k, k = 0..levels+1, now and one step ago. */
    private final double[] x;
    private final double[] xPrev;
    private final double[] xPrev2;
    /** Steps taken (for the extrapolation of the rates). */
    private int steps;
    private final double[] decay1;
    private final double[] gain1;
    private final double[] decay2;
    private final double[] gain2;
    private double t;
    private boolean started;
    private double maxAgedMass;
    private double maxTopLevel;

    /**
     * @param d choices
     * @param lambda arrival rate
     * @param service service law
     * @param h age and time step
     * @param levels levels kept
     * @param cells age cells before the aged cell (ages {@code [0, cells·h)})
     * @param initial exactly-k masses {@code X_1..X_m} at {@code t0} ({@code m ≤ levels})
     * @param equilibriumAges whether initial jobs in service have the equilibrium age density
     *        {@code Ḡ(a)/E[S]} (otherwise they all start at age 0)
     * @param t0 start time
     */
    AgeGridScheme(int d, ArrivalRate lambda, ServiceDistribution service, double h, int levels, int cells,
            double[] initial, boolean equilibriumAges, double t0) {
        this.d = d;
        this.lambda = lambda;
        this.service = service;
        this.h = h;
        this.levels = levels;
        this.cells = cells;
        this.stride = levels + 1;
        this.survive = new double[cells];
        this.residual = new double[cells];
        this.ring = new double[cells * stride];
        this.top = new int[cells];
        this.aged = new double[stride];
        this.cohort = new double[stride];
        this.fresh = new double[stride];
        this.completions = new double[levels + 2];
        this.work = new double[levels + 1];
        this.exact = new double[levels + 2];
        this.x = new double[levels + 2];
        this.xPrev = new double[levels + 2];
        this.xPrev2 = new double[levels + 2];
        this.decay1 = new double[levels + 1];
        this.gain1 = new double[levels + 1];
        this.decay2 = new double[levels + 1];
        this.gain2 = new double[levels + 1];
        this.t = t0;
        double[] integral = new double[cells + 2];
        for (int j = 0; j <= cells + 1; j++) {
            integral[j] = residualIntegral(service, j * h);
        }
        for (int j = 0; j < cells; j++) {
            double in = integral[j] - integral[j + 1];
            double out = integral[j + 1] - integral[j + 2];
            double p = in > 0 ? out / in : Double.NaN;
            if (!(p >= 0 && p <= 1)) {
                // I(a) has lost all precision (far light tail): fall back on the hazard at the cell's end
                p = Math.exp(-h * service.hazard((j + 1) * h));
            }
            survive[j] = Math.min(1.0, Math.max(0.0, p));
            residual[j] = finiteOrZero(service.meanResidualLife((j + 0.5) * h));
        }
        double ageMax = cells * h;
        double mLast = service.meanResidualLife(ageMax);
        agedSurvive = mLast > 0 && Double.isFinite(mLast) ? Math.exp(-h / mLast) : 0.0;
        agedResidual = finiteOrZero(mLast);
        double iHalf = residualIntegral(service, 0.5 * h);
        q0 = clamp((integral[0] - integral[1]) / h);
        s2 = clamp((integral[0] - iHalf) / (0.5 * h));
        s1 = clamp((iHalf - integral[1]) / (0.5 * h));
        double totalWork = integral[0];
        idle = 1.0;
        for (int k = 1; k <= initial.length; k++) {
            double mass = initial[k - 1];
            idle -= mass;
            if (mass == 0) {
                continue;
            }
            if (equilibriumAges) {
                for (int j = 0; j < cells; j++) {
                    double cellMass = mass * Math.max(0.0, integral[j] - integral[j + 1]) / totalWork;
                    ring[j * stride + k] = cellMass;
                    if (cellMass > 0) {
                        top[j] = k;
                    }
                }
                aged[k] = mass * Math.max(0.0, integral[cells]) / totalWork;
                agedTop = k;
            } else {
                cohort[k] = mass;
                cohortTop = k;
            }
        }
        idle = Math.max(0.0, idle);
        active = equilibriumAges ? cells : 0;
        sumLevels();
        System.arraycopy(x, 0, xPrev, 0, x.length);
    }

    private static double clamp(double p) {
        return Double.isFinite(p) ? Math.min(1.0, Math.max(0.0, p)) : 1.0;
    }

    private static double finiteOrZero(double v) {
        return Double.isFinite(v) ? v : 0.0;
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

    /** Sums the exactly-k masses and the tail from the cells, the aged cell and the cohort. */
    private void sumLevels() {
        java.util.Arrays.fill(exact, 0.0);
        for (int j = 0; j < cells; j++) {
            int base = j * stride;
            for (int k = 1; k <= top[j]; k++) {
                exact[k] += ring[base + k];
            }
        }
        for (int k = 1; k <= agedTop; k++) {
            exact[k] += aged[k];
        }
        for (int k = 1; k <= cohortTop; k++) {
            exact[k] += cohort[k];
        }
        updateTail();
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
        double agedMass = 0;
        for (int k = 1; k <= agedTop; k++) {
            agedMass += aged[k];
        }
        maxAgedMass = Math.max(maxAgedMass, agedMass);
    }

    /** {@code Σ_{i<d} u^i v^{d−1−i} = (u^d − v^d)/(u − v)} by Horner, stable when {@code u ≈ v}. */
    private double chooseRatio(double u, double v) {
        double s = 1;
        double vi = 1;
        for (int i = 1; i < d; i++) {
            vi *= v;
            s = s * u + vi;
        }
        return s;
    }

    /**
     * Rates of one half step: λ averaged over {@code [a, b]}, {@code x} extrapolated linearly to the
     * fraction {@code w} of the coming step; fills {@code e^{−z_k}} and {@code (1 − e^{−z_k})/z_k}.
     */
    private void halfStepRates(double a, double b, double w, double[] decay, double[] gain) {
        double lam = lambda.isConstant() ? lambda.at(a) : lambda.integral(a, b) / (b - a);
        double half = 0.5 * h;
        double u = extrapolated(0, w);
        for (int k = 0; k < levels; k++) {
            double v = extrapolated(k + 1, w);
            double z = lam * chooseRatio(u, v) * half;
            double em = Math.expm1(-z);
            decay[k] = 1.0 + em;
            gain[k] = z > 1e-12 ? -em / z : 1.0 - 0.5 * z;
            u = v;
        }
        decay[levels] = 1.0; // level L is blocked
        gain[levels] = 1.0;
    }

    /**
     * {@code x_k(t + wh)} extrapolated from the last three steps (quadratic, error O(h³)), or from two
     * while there are only two.
     */
    private double extrapolated(int k, double w) {
        double v;
        if (steps >= 2) {
            v = 0.5 * (1 + w) * (2 + w) * x[k] - w * (2 + w) * xPrev[k] + 0.5 * w * (1 + w) * xPrev2[k];
        } else {
            v = x[k] + w * (x[k] - xPrev[k]);
        }
        return Math.min(1.0, Math.max(0.0, v));
    }

    /**
     * Half step of the birth chain on the levels {@code v[off+1..off+top]} with the inflow
     * {@code in} into level 1; returns the new highest occupied level. Modifies {@code v}.
     */
    private int chain(double[] v, int off, int top, double in, double[] decay, double[] gain) {
        double flow = in;
        int k = 1;
        for (; k <= top; k++) {
            double old = v[off + k];
            double now = decay[k] * old + gain[k] * flow;
            v[off + k] = now;
            flow = old + flow - now;
        }
        // carry the outflow of the highest level up until it is negligible (kept where it stops)
        while (flow > 0 && k <= levels) {
            if (flow < NEGLIGIBLE || k == levels) {
                v[off + k] = flow;
                return k;
            }
            double now = gain[k] * flow;
            v[off + k] = now;
            flow -= now;
            k++;
        }
        return k - 1;
    }

    /** Applies C(h/2) S C(h/2) to one cell; completions accumulate. Returns the new top. */
    private int cellStep(double[] v, int off, int top, double p) {
        if (top == 0) {
            return 0;
        }
        int t1 = chain(v, off, top, 0.0, decay1, gain1);
        double q = 1.0 - p;
        for (int k = 1; k <= t1; k++) {
            double m = v[off + k];
            completions[k] += m * q;
            v[off + k] = m * p;
        }
        return chain(v, off, t1, 0.0, decay2, gain2);
    }

    /**
     * Advances one step {@code h}. The first step has no previous {@code x} to extrapolate the rates
     * from: it is taken twice, first with the rates frozen at the start (a predictor), then from the
     * restored state with {@code x} interpolated between the start and the predicted end.
     */
    void step() {
        if (!started) {
            started = true;
            Snapshot saved = new Snapshot();
            advance();
            double[] predicted = x.clone();
            saved.restore();
            for (int k = 0; k < x.length; k++) {
                xPrev[k] = 2 * x[k] - predicted[k];
            }
        }
        advance();
    }

    /** The mutable state, saved once for the predictor of the first step. */
    private final class Snapshot {
        private final double[] ringCopy = ring.clone();
        private final int[] topCopy = top.clone();
        private final double[] agedCopy = aged.clone();
        private final double[] cohortCopy = cohort.clone();
        private final double[] xCopy = x.clone();
        private final double[] xPrevCopy = xPrev.clone();
        private final double[] exactCopy = exact.clone();
        private final int agedTopCopy = agedTop;
        private final int cohortTopCopy = cohortTop;
        private final double cohortAgeCopy = cohortAge;
        private final double idleCopy = idle;
        private final int startCopy = start;
        private final int activeCopy = active;
        private final double tCopy = t;
        private final int stepsCopy = steps;

        void restore() {
            System.arraycopy(ringCopy, 0, ring, 0, ring.length);
            System.arraycopy(topCopy, 0, top, 0, top.length);
            System.arraycopy(agedCopy, 0, aged, 0, aged.length);
            System.arraycopy(cohortCopy, 0, cohort, 0, cohort.length);
            System.arraycopy(xCopy, 0, x, 0, x.length);
            System.arraycopy(xPrevCopy, 0, xPrev, 0, xPrev.length);
            System.arraycopy(exactCopy, 0, exact, 0, exact.length);
            agedTop = agedTopCopy;
            cohortTop = cohortTopCopy;
            cohortAge = cohortAgeCopy;
            idle = idleCopy;
            start = startCopy;
            active = activeCopy;
            t = tCopy;
            steps = stepsCopy;
        }
    }

    private void advance() {
        double mid = t + 0.5 * h;
        halfStepRates(t, mid, 0.25, decay1, gain1);
        halfStepRates(mid, t + h, 0.75, decay2, gain2);
        java.util.Arrays.fill(completions, 0.0);
        // first half of the arrivals to idle servers: a fresh cell of new jobs
        java.util.Arrays.fill(fresh, 0.0);
        double toFresh = idle * (1.0 - decay1[0]);
        idle -= toFresh;
        int freshTop = chain(fresh, 0, 0, toFresh, decay1, gain1);
        // every age cell, the aged cell and the cohort: C(h/2) S C(h/2)
        for (int j = 0; j < active; j++) {
            int slot = (start + j) % cells;
            top[slot] = cellStep(ring, slot * stride, top[slot], survive[j]);
        }
        agedTop = cellStep(aged, 0, agedTop, agedSurvive);
        if (cohortTop > 0) {
            double sNow = service.survival(cohortAge);
            double p = sNow > 0 ? Math.exp(service.logSurvival(cohortAge + h) - service.logSurvival(cohortAge)) : 0.0;
            cohortTop = cellStep(cohort, 0, cohortTop, Math.min(1.0, Math.max(0.0, p)));
        }
        cohortAge += h;
        // the oldest cell moves into the aged cell; its slot becomes the new cell 0
        int newSlot = (start + cells - 1) % cells;
        int newBase = newSlot * stride;
        if (active == cells) {
            for (int k = 1; k <= top[newSlot]; k++) {
                aged[k] += ring[newBase + k];
            }
            agedTop = Math.max(agedTop, top[newSlot]);
        }
        java.util.Arrays.fill(ring, newBase, newBase + stride, 0.0);
        start = newSlot;
        active = Math.min(cells, active + 1);
        // fresh jobs of the first half: survivors join cell 0, the others complete
        int cellTop = 0;
        for (int k = 1; k <= freshTop; k++) {
            ring[newBase + k] = fresh[k] * s1;
            completions[k] += fresh[k] * (1.0 - s1);
            if (ring[newBase + k] > 0) {
                cellTop = k;
            }
        }
        // completions start new jobs one level down, which may complete again within the step
        double cascade = 0;
        for (int k = levels; k >= 1; k--) {
            if (cascade > 0) {
                ring[newBase + k] += q0 * cascade;
                cellTop = Math.max(cellTop, k);
            }
            cascade = completions[k] + (1.0 - q0) * cascade;
        }
        idle += cascade;
        // second half of the arrivals to idle servers enter cell 0 directly
        double toCell = idle * (1.0 - decay2[0]);
        idle -= toCell * s2;
        top[newSlot] = chain(ring, newBase, cellTop, toCell * s2, decay2, gain2);
        t += h;
        steps++;
        System.arraycopy(xPrev, 0, xPrev2, 0, x.length);
        System.arraycopy(x, 0, xPrev, 0, x.length);
        sumLevels();
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
     * Mean virtual waiting time (docs/models.md §5):
     * {@code Σ_k r_k (k−1) + Σ_k (θ_k/λ) ∫ ν_k(a) m(a) da}, with {@code r_k/(x_k − x_{k+1}) = θ_k/λ}.
     */
    double meanWait() {
        double[] work = this.work;
        java.util.Arrays.fill(work, 0.0);
        for (int j = 0; j < active; j++) {
            int slot = (start + j) % cells;
            int base = slot * stride;
            double m = residual[j];
            for (int k = 1; k <= top[slot]; k++) {
                work[k] += ring[base + k] * m;
            }
        }
        for (int k = 1; k <= agedTop; k++) {
            work[k] += aged[k] * agedResidual;
        }
        double mc = finiteOrZero(service.meanResidualLife(cohortAge));
        for (int k = 1; k <= cohortTop; k++) {
            work[k] += cohort[k] * mc;
        }
        double w = 0;
        for (int k = 1; k <= levels; k++) {
            double xk = x[k];
            double xk1 = x[k + 1];
            w += (Math.pow(xk, d) - Math.pow(xk1, d)) * (k - 1) + chooseRatio(xk, xk1) * work[k];
        }
        return w;
    }

    /** Kernels of the sojourn-time grid by (step, nodes): they depend on the grid only. */
    private final java.util.Map<java.util.List<Object>, SojournGrid> sojournGrids = new java.util.HashMap<>();

    /**
     * The waiting- and response-time laws of a job arriving now (docs/models.md §7): at level
     * {@code k} the age density within cell {@code j} is {@code n_k(j) Ḡ(a)/∫_{cell} Ḡ}, in the aged
     * cell {@code n_k Ḡ(a)/I(A)}, and the cohort is a point mass at its age. The convolution grid's
     * step divides the age step ({@code δ = h/q ≤ } {@link PdeSojournTimes#DEFAULT_STEP}), or is a
     * multiple {@code δ = m h} of it when the grid must reach further than
     * {@link PdeSojournTimes#DEFAULT_NODES} fine steps (then the {@code m} age cells of a grid cell share
     * one {@code β}: their mass over their {@code ∫ Ḡ}); it reaches where {@code P(W > end) ≤ tailTarget}
     * (widened until it does).
     */
    PdeSojournTimes sojournTimes(double tailTarget) {
        double meanWait = meanWait();
        double reach = PdeSojournTimes.initialReach(service, meanWait, tailTarget);
        double atom = 1.0 - Math.pow(x[1], d);
        for (int attempt = 0; ; attempt++) {
            double wanted = Math.min(PdeSojournTimes.MAX_STEP,
                    Math.max(PdeSojournTimes.DEFAULT_STEP, reach / PdeSojournTimes.DEFAULT_NODES));
            int q = wanted <= h ? (int) Math.max(1, Math.floor(h / wanted + 1e-9)) : 1;
            int m = wanted <= h ? 1 : (int) Math.ceil(wanted / h - 1e-9);
            double delta = m > 1 ? m * h : h / q;
            int ageCells = m > 1 ? (cells + m - 1) / m : cells * q;
            // nodes rounded up to a power of two, so that the kernels are shared between output times
            int nodes = Integer.highestOneBit((int) Math.min(PdeSojournTimes.MAX_NODES,
                    Math.ceil(reach / delta) + 1) - 1) << 1;
            SojournGrid grid = sojournGrids.computeIfAbsent(java.util.List.of(q, m, nodes),
                    key -> new SojournGrid(service, delta, nodes, ageCells));
            SojournGrid.Accumulator acc = grid.start();
            double[] cohortCells = cohortTop > 0 ? grid.pointMassCells(cohortAge) : null;
            double[] beta = new double[ageCells];
            double[] scaled = cohortCells != null ? new double[cohortCells.length] : null;
            double agedIntegral = grid.tailIntegral(ageCells);
            for (int k = 1; k <= levels; k++) {
                java.util.Arrays.fill(beta, 0.0);
                boolean any = false;
                for (int j = 0; j < active; j++) {
                    int slot = (start + j) % cells;
                    if (k > top[slot]) {
                        continue;
                    }
                    double mass = ring[slot * stride + k];
                    if (mass == 0) {
                        continue;
                    }
                    any = true;
                    if (m > 1) {
                        beta[j / m] += mass; // divided by the grid cell's ∫ Ḡ below
                        continue;
                    }
                    double cellSurvival = 0;
                    for (int i = 0; i < q; i++) {
                        cellSurvival += grid.cellSurvival(j * q + i);
                    }
                    double b = cellSurvival > 0 ? mass / cellSurvival : 0.0;
                    for (int i = 0; i < q; i++) {
                        beta[j * q + i] = b;
                    }
                }
                if (m > 1) {
                    for (int g = 0; g < ageCells; g++) {
                        double cs = grid.cellSurvival(g);
                        beta[g] = cs > 0 ? beta[g] / cs : 0.0;
                    }
                }
                double betaTail = k <= agedTop && agedIntegral > 0 ? aged[k] / agedIntegral : 0.0;
                double cohortMass = k <= cohortTop ? cohort[k] : 0.0;
                if (scaled != null) {
                    for (int n = 0; n < scaled.length; n++) {
                        scaled[n] = cohortMass * cohortCells[n];
                    }
                }
                if (!any && betaTail == 0 && cohortMass == 0 && x[k] == 0) {
                    break;
                }
                acc.addLevel(chooseRatio(x[k], x[k + 1]), beta, betaTail, cohortMass > 0 ? scaled : null, cohortMass);
            }
            GridLaw waiting = acc.waiting(atom, meanWait);
            if (waiting.survival(waiting.end()) <= tailTarget || attempt >= 8 || nodes >= PdeSojournTimes.MAX_NODES) {
                return new PdeSojournTimes(waiting, acc.response(atom, meanWait), atom);
            }
            reach = PdeSojournTimes.widerReach(waiting, tailTarget);
        }
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
     * Runs the scheme over {@code grid} and records {@code tail} and mean wait at each grid time,
     * interpolating linearly between steps (an O(h²) error, like the scheme's).
     *
     * @param grid output times, starting at the scheme's start time
     * @param tails output, {@code [grid.size()][levels+1]} (modified)
     * @param waits output (modified)
     */
    void run(TimeGrid grid, double[][] tails, double[] waits) {
        run(grid, tails, waits, null, 0.0);
    }

    /**
     * As {@link #run(TimeGrid, double[][], double[])}, and also the sojourn-time laws of a job
     * arriving at each grid time ({@code sojourns} non-null): computed from the state at the step's
     * end at or just after the grid time (exact when the grid times are multiples of {@code h}).
     */
    void run(TimeGrid grid, double[][] tails, double[] waits, PdeSojournTimes[] sojourns, double tailTarget) {
        double[] prev = new double[levels + 1];
        double eps = 1e-9 * h;
        int next = 0;
        while (next < grid.size()) {
            double target = grid.time(next);
            if (target <= t + eps) {
                tail(tails[next]);
                waits[next] = meanWait();
                if (sojourns != null) {
                    sojourns[next] = sojournTimes(tailTarget);
                }
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
                    if (sojourns != null) {
                        sojourns[next] = sojournTimes(tailTarget);
                    }
                    next++;
                }
            } else {
                step();
            }
        }
    }
}
