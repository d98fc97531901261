package org.mflb.pde;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.sojourn.Percentiles;

/**
 * The hydrodynamic (mean-field) limit of SQ(d) with general service times (docs/models.md §5, [AR]),
 * in its age form: {@code μ_ℓ(t, a)}, the density in the age {@code a} of the job in service of the
 * servers with at least {@code ℓ} jobs, solves
 * <pre>
 *   ∂_t μ_ℓ + ∂_a μ_ℓ = −η(a) μ_ℓ + [ℓ ≥ 2] λ(t) r_{ℓ−1} ν_{ℓ−1}/(x_{ℓ−1} − x_ℓ),
 *   μ_ℓ(t, 0) = ∫ η μ_{ℓ+1} da + [ℓ = 1] λ(t) r_0,      r_k = x_k^d − x_{k+1}^d,  x_ℓ = ∫ μ_ℓ da.
 * </pre>
 * {@code d = 1} is random routing (independent M/G/1 queues). Immutable; {@code withX} returns a
 * modified copy.
 * <pre>{@code
 *   HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, lognormal);
 *   PdeTransient tr = pde.transientFrom(PdeInitialState.empty(), TimeGrid.uniform(50, 1));
 *   PdeEquilibrium eq = pde.equilibrium();
 * }</pre>
 * Transients use the second-order upwind scheme along characteristics ({@code Δt = Δa = h}) of
 * {@link AgeGridScheme}; the default {@code h = 0.05} gives about 1e-4 on the tail vector for SQ(2),
 * λ = 0.9 up to t = 50 with exponential, Erlang, H2, log-normal and Pareto service, and about 5e-4
 * with Weibull shape 0.5 (whose hazard is infinite at age 0 and lowers the order to about 1.5).
 * {@link #withRichardson} extrapolates over {@code h} and {@code h/2} to buy more accuracy. The
 * equilibrium is solved directly in the age variable ({@link StationaryAgeSolver}), which handles
 * heavy tails on a graded age grid, to a relative 1e-5 on the mean queue length by default.
 */
public final class HydrodynamicPde {

    /** Default age (= time) step. */
    public static final double DEFAULT_AGE_STEP = 0.05;
    /**
     * Default survival {@code Ḡ(A)} where the age grid of a transient ends: older jobs share the aged
     * cell, where they complete at the rate {@code 1/m(A)} (measured effect on the tail below 1e-9
     * for Pareto 1.5 and log-normal SCV 10 from equilibrium ages, t ≤ 20, against {@code Ḡ(A) = 1e-9}).
     */
    public static final double DEFAULT_AGE_TOLERANCE = 1e-6;
    /** Default mass {@code x_L} the level truncation may cut off. */
    public static final double DEFAULT_LEVEL_TOLERANCE = 1e-9;
    /** Upper bound on the levels. */
    public static final int MAX_LEVELS = 4096;
    /** Upper bound on the levels of an equilibrium (which costs one age sweep per level and iteration). */
    public static final int MAX_EQUILIBRIUM_LEVELS = 1 << 15;
    /**
     * Relative agreement of the extrapolated mean queue length at {@code L/2} and {@code L} levels
     * that ends an equilibrium whose tail decays like a power of the level.
     */
    public static final double DEFAULT_SUM_TOLERANCE = 1e-5;
    /** Upper bound on the age cells of one transient grid. */
    public static final int MAX_CELLS = 1_000_000;
    /** Upper bound on the (age cell, level) pairs of one transient grid (8 bytes each). */
    public static final long MAX_GRID_SIZE = 50_000_000L;

    private final int d;
    private final ArrivalRate lambda;
    private final ServiceDistribution service;
    private final double ageStep;
    private final boolean richardson;
    private final double ageTolerance;
    private final double levelTolerance;
    private final double sumTolerance;
    private final int levels;
    /** The percentiles the transient's sojourn-time laws must cover; null: no laws. */
    private final Percentiles sojourn;
    /** Target accuracy of the transient's tail vector; 0: the fixed age step. */
    private final double tolerance;

    private HydrodynamicPde(int d, ArrivalRate lambda, ServiceDistribution service, double ageStep, boolean richardson,
            double ageTolerance, double levelTolerance, double sumTolerance, int levels, Percentiles sojourn,
            double tolerance) {
        this.sojourn = sojourn;
        this.tolerance = tolerance;
        this.d = d;
        this.lambda = lambda;
        this.service = service;
        this.ageStep = ageStep;
        this.richardson = richardson;
        this.ageTolerance = ageTolerance;
        this.levelTolerance = levelTolerance;
        this.sumTolerance = sumTolerance;
        this.levels = levels;
    }

    /**
     * @param d servers sampled per arrival, {@code ≥ 1}
     * @param lambda arrival rate per server, {@code ≥ 0}
     * @param service service-time law
     */
    public static HydrodynamicPde of(int d, double lambda, ServiceDistribution service) {
        return of(d, ArrivalRate.constant(lambda), service);
    }

    /**
     * @param d servers sampled per arrival, {@code ≥ 1}
     * @param lambda arrival rate per server {@code λ(t)}
     * @param service service-time law
     */
    public static HydrodynamicPde of(int d, ArrivalRate lambda, ServiceDistribution service) {
        Require.atLeast("d", d, 1);
        if (lambda == null) {
            throw MflbException.invalid("lambda", null, "an arrival rate");
        }
        if (service == null) {
            throw MflbException.invalid("service", null, "a service distribution");
        }
        return new HydrodynamicPde(d, lambda, service, DEFAULT_AGE_STEP, false, DEFAULT_AGE_TOLERANCE,
                DEFAULT_LEVEL_TOLERANCE, DEFAULT_SUM_TOLERANCE, 0, null, 0.0);
    }

    /** @return a copy with age (= time) step {@code h} in (0, 1] */
    public HydrodynamicPde withAgeStep(double h) {
        Require.positive("da", h);
        if (h > 1) {
            throw MflbException.invalid("da", h, "in (0, 1] (the mean service time is 1)");
        }
        return new HydrodynamicPde(d, lambda, service, h, richardson, ageTolerance, levelTolerance,
                sumTolerance, levels, sojourn, tolerance);
    }

    /**
     * @param eps target accuracy of the transient's tail vector, in (0, 0.1); 0 for the fixed age step
     * @return a copy whose transients choose the age step from the scheme's second order: two probe
     *         grids ({@code h = 0.1, 0.05}) give the constant {@code C} of the error {@code C h²}
     *         (from their difference, {@code 3C h²/4}), and the step is {@code √(0.8 ε/C)} (aligned to
     *         divide the output spacing); the estimate {@code C h²} is reported
     *         ({@link PdeTransient#errorEstimate()}). The age step of {@link #withAgeStep} is then unused.
     */
    public HydrodynamicPde withTolerance(double eps) {
        if (eps != 0) {
            Require.open("tolerance", eps, 0, 0.1);
        }
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, levelTolerance,
                sumTolerance, levels, sojourn, eps);
    }

    /** @return a copy with or without Richardson extrapolation over {@code h} and {@code h/2} */
    public HydrodynamicPde withRichardson(boolean on) {
        return new HydrodynamicPde(d, lambda, service, ageStep, on, ageTolerance, levelTolerance, sumTolerance,
                levels, sojourn, tolerance);
    }

    /** @return a copy whose age grids end where {@code Ḡ} falls to {@code tol} in (0, 1) */
    public HydrodynamicPde withAgeTolerance(double tol) {
        Require.open("age-tolerance", tol, 0, 1);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, tol, levelTolerance, sumTolerance,
                levels, sojourn, tolerance);
    }

    /** @return a copy that chooses levels so the cut-off mass {@code x_L} stays below {@code tol} in (0, 1) */
    public HydrodynamicPde withLevelTolerance(double tol) {
        Require.open("level-tolerance", tol, 0, 1);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, tol, sumTolerance, 0,
                sojourn, tolerance);
    }

    /**
     * @return a copy whose equilibrium, when its levels decay like a power of {@code ℓ} (heavy-tailed
     *         service), stops once the extrapolated mean queue length and wait settle to a relative
     *         {@code tol} in (0, 1)
     */
    public HydrodynamicPde withSumTolerance(double tol) {
        Require.open("sum-tolerance", tol, 0, 1);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, levelTolerance, tol,
                levels, sojourn, tolerance);
    }

    /** @return a copy with a fixed number of levels {@code L} in [1, MAX_LEVELS] */
    public HydrodynamicPde withLevels(int l) {
        Require.between("levels", l, 1, MAX_LEVELS);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, levelTolerance,
                sumTolerance, l, sojourn, tolerance);
    }

    /**
     * @param percentiles the percentiles the laws must cover, or null for none
     * @return a copy whose transients also compute, at every output time, the waiting- and
     *         response-time laws of a job arriving then ({@link PdeTransient#sojournTimes(int)})
     */
    public HydrodynamicPde withSojournTimes(Percentiles percentiles) {
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, levelTolerance,
                sumTolerance, levels, percentiles, tolerance);
    }

    /** @return servers sampled per arrival */
    public int d() {
        return d;
    }

    /** @return the arrival rate */
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    /** @return the service law */
    public ServiceDistribution service() {
        return service;
    }

    /**
     * Solves the PDE from {@code initial} over {@code grid}.
     *
     * @param initial initial state
     * @param grid output times (the transient starts at {@code grid.start()})
     * @return the transient
     */
    public PdeTransient transientFrom(PdeInitialState initial, TimeGrid grid) {
        double span = grid.end() - grid.start();
        double cap = service.survivalQuantile(ageTolerance);
        boolean eqAges = initial.ages() == PdeInitialState.Ages.EQUILIBRIUM;
        double reach = Math.min(cap, span + (eqAges ? cap : 0.0));
        double[] init = initial.exactMasses();
        boolean automatic = levels == 0;
        int l = automatic ? Math.max(initial.occupiedLevels() + 4, 16) : levels;
        if (l < initial.occupiedLevels()) {
            throw MflbException.invalid("levels", l, ">= the levels occupied by the initial state ("
                    + initial.occupiedLevels() + ")");
        }
        double h = ageStep;
        double errorEstimate = Double.NaN;
        if (!(tolerance > 0)) {
            requireFeasibleWork(span, reach, l, h);
        } else {
            // two grids give the constant of the scheme's h² error; the step then meets the tolerance
            double h0 = TOLERANCE_PROBE_STEP;
            requireFeasibleProbes(span, reach, l, h0);
            Run coarse = run(h0, l, reach, init, eqAges, grid, automatic, false);
            Run fine = run(h0 / 2, coarse.levels, reach, init, eqAges, grid, automatic, false);
            double difference = maxDifference(coarse.tails, fine.tails);
            double constant = difference / (0.75 * h0 * h0);
            l = fine.levels;
            double fineError = difference / 3;
            if (fineError <= tolerance && sojourn == null && !richardson) {
                return fine.result(grid, h0 / 2, false, fineError);
            }
            h = constant > 0 ? Math.min(h0 / 2, TOLERANCE_SAFETY * Math.sqrt(tolerance / constant)) : h0 / 2;
            // an age step that divides the output spacing keeps the outputs on step ends
            h = alignedAgeStep(h, grid);
            requireFeasibleWork(span, reach, l, h);
            errorEstimate = constant * h * h;
        }
        Run coarse = run(h, l, reach, init, eqAges, grid, automatic, sojourn != null && !richardson);
        if (!richardson) {
            return coarse.result(grid, h, false, errorEstimate);
        }
        Run fine = run(h / 2, coarse.levels, reach, init, eqAges, grid, automatic, sojourn != null);
        // the scheme is second order: (4 fine − coarse)/3 removes the h² term
        double[][] tails = coarse.tails;
        double[] waits = coarse.waits;
        for (int k = 0; k < grid.size(); k++) {
            for (int i = 0; i < tails[k].length; i++) {
                tails[k][i] = (4 * fine.tails[k][i] - tails[k][i]) / 3;
            }
            waits[k] = (4 * fine.waits[k] - waits[k]) / 3;
        }
        return new PdeTransient(grid, tails, waits, h, true, Math.max(coarse.topLevel, fine.topLevel),
                Math.max(coarse.agedMass, fine.agedMass), fine.laws, errorEstimate);
    }

    /** First step of the two-grid error estimate of {@link #withTolerance}. */
    static final double TOLERANCE_PROBE_STEP = 0.1;
    /** The chosen step aims at this share of the tolerance (the h² law is asymptotic). */
    static final double TOLERANCE_SAFETY = Math.sqrt(0.8);

    /** The largest step {@code ≤ h} of the form {@code dt/n} when the outputs are evenly spaced by {@code dt}. */
    static double alignedAgeStep(double h, TimeGrid grid) {
        if (grid.size() < 2) {
            return h;
        }
        double dt = grid.time(1) - grid.time(0);
        for (int k = 2; k < grid.size(); k++) {
            if (Math.abs(grid.time(k) - grid.time(k - 1) - dt) > 1e-9 * dt) {
                return h;
            }
        }
        return dt / Math.ceil(dt / h - 1e-9);
    }

    private static double maxDifference(double[][] a, double[][] b) {
        double max = 0;
        for (int k = 0; k < a.length; k++) {
            int n = Math.min(a[k].length, b[k].length);
            for (int i = 0; i < n; i++) {
                max = Math.max(max, Math.abs(a[k][i] - b[k][i]));
            }
            for (int i = n; i < a[k].length; i++) {
                max = Math.max(max, Math.abs(a[k][i]));
            }
            for (int i = n; i < b[k].length; i++) {
                max = Math.max(max, Math.abs(b[k][i]));
            }
        }
        return max;
    }

    /** One run of the scheme at step {@code h}, with levels grown until {@code x_L} is below the tolerance. */
    private final class Run {
        private double[][] tails;
        private double[] waits;
        private PdeSojournTimes[] laws;
        private int levels;
        private double topLevel;
        private double agedMass;

        PdeTransient result(TimeGrid grid, double h, boolean extrapolated, double errorEstimate) {
            return new PdeTransient(grid, tails, waits, h, extrapolated, topLevel, agedMass, laws, errorEstimate);
        }
    }

    private Run run(double h, int startLevels, double reach, double[] init, boolean eqAges, TimeGrid grid,
            boolean automatic, boolean withLaws) {
        int l = startLevels;
        double target = sojourn != null ? tailTarget(sojourn) : 0.0;
        while (true) {
            AgeGridScheme scheme = scheme(h, l, reach, init, eqAges, grid.start());
            Run r = new Run();
            r.tails = new double[grid.size()][l + 1];
            r.waits = new double[grid.size()];
            r.laws = withLaws ? new PdeSojournTimes[grid.size()] : null;
            scheme.run(grid, r.tails, r.waits, r.laws, target);
            if (automatic && scheme.maxTopLevel() > levelTolerance) {
                if (l >= MAX_LEVELS) {
                    throw new MflbException(ErrorKind.TRUNCATION, "levels", "the transient needs more than "
                            + MAX_LEVELS + " levels to keep x_L below " + levelTolerance);
                }
                l = Math.min(MAX_LEVELS, 2 * l);
                continue;
            }
            r.levels = l;
            r.topLevel = scheme.maxTopLevel();
            r.agedMass = scheme.maxAgedMass();
            return r;
        }
    }

    /** Cell updates per second of the age-grid scheme on one core (measured: about 2.5e8). */
    private static final double CELL_UPDATES_PER_SECOND = 2e8;
    /** The longest transient started without being refused. */
    private static final double MAX_SECONDS = 600;

    /** @return the cell updates of one run of the scheme at step {@code h} over {@code span}, with L levels */
    private static double cellUpdates(double span, double reach, int l, double h) {
        double cells = Math.min(Math.ceil(reach / h), Math.min(MAX_CELLS, MAX_GRID_SIZE / (l + 1)));
        return span / h * Math.max(1, cells) * (l + 1);
    }

    /**
     * Refuses at once a horizon over which the two probe grids of {@link #withTolerance} (steps
     * {@code h0} and {@code h0/2}, each over the whole horizon) would already run for hours.
     */
    private static void requireFeasibleProbes(double span, double reach, int l, double h0) {
        double updates = cellUpdates(span, reach, l, h0) + cellUpdates(span, reach, l, h0 / 2);
        double seconds = updates / CELL_UPDATES_PER_SECOND;
        if (seconds > MAX_SECONDS) {
            throw MflbException.invalid("t-end", span, String.format(java.util.Locale.ROOT, "shorter: the two probe"
                    + " grids that choose the age step (da = %s and %s over the whole horizon) would take about %.2g"
                    + " cell updates (%.0f minutes at %.0e per second); at most %.0f minutes: reduce --t-end, or give"
                    + " --da", h0, h0 / 2, updates, seconds / 60, CELL_UPDATES_PER_SECOND, MAX_SECONDS / 60));
        }
    }

    /**
     * Refuses at once a transient that would run for hours: it takes {@code T/h} time steps, each
     * over {@code cells × (L + 1)} age cells and levels (Richardson: the half step too, four times
     * the work), with at least the first choice of {@code L} levels.
     */
    private void requireFeasibleWork(double span, double reach, int l, double ageStep) {
        double updates = cellUpdates(span, reach, l, ageStep) * (richardson ? 5 : 1);
        double seconds = updates / CELL_UPDATES_PER_SECOND;
        if (seconds > MAX_SECONDS && tolerance > 0) {
            throw MflbException.invalid("tolerance", tolerance, String.format(java.util.Locale.ROOT,
                    "larger for this horizon: meeting it needs the age step %.2g, and the transient would take about"
                            + " %.2g cell updates (%.0f minutes)", ageStep, updates, seconds / 60));
        }
        if (seconds > MAX_SECONDS) {
            throw MflbException.invalid("da", ageStep, String.format(java.util.Locale.ROOT,
                    "larger for this horizon: the transient would take about %.2g cell updates (%.0f minutes);"
                            + " the work grows like t-end/da^2, so da >= %.2g keeps it under %.0f minutes",
                    updates, seconds / 60, Math.sqrt(span * reach * (l + 1) * (richardson ? 5 : 1)
                            / (MAX_SECONDS * CELL_UPDATES_PER_SECOND)), MAX_SECONDS / 60));
        }
    }

    private AgeGridScheme scheme(double h, int l, double reach, double[] init, boolean eqAges, double t0) {
        long cells = Math.max(1L, (long) Math.ceil(reach / h));
        // ages beyond the grid are kept in the aged cell: cap the grid's memory, not the horizon
        cells = Math.min(cells, Math.min(MAX_CELLS, MAX_GRID_SIZE / (l + 1)));
        if (cells < Math.min(Math.ceil(reach / h), 16)) {
            throw new MflbException(ErrorKind.TRUNCATION, "levels", "the age grid with " + l
                    + " levels is too large; increase da or lower levels");
        }
        return new AgeGridScheme(d, lambda, service, h, l, (int) cells, init, eqAges, t0);
    }

    /**
     * The equilibrium (constant {@code λ} with {@code λ E[S] < 1}), solved directly along the age
     * axis. Convergence criterion: every level's age-integrated stationary equation holds to a
     * relative 1e-14 (the residual is reported), and levels are added until {@code x_L} falls below
     * 1e-12 or, when the levels decay like a power of {@code ℓ} (Pareto service), until the mean queue
     * length and mean wait extrapolated from {@code L/2} and {@code L} levels agree to the sum
     * tolerance (1e-5 relative by default; the extrapolated remainder is included in the means and
     * reported as the cut-off mass, with that agreement as its uncertainty).
     *
     * @return the equilibrium
     * @throws MflbException INVALID_PARAMETER for {@code λ E[S] ≥ 1}, a time-varying {@code λ}, or a
     *         law whose equilibrium mean queue length is infinite ({@code d = 1} with
     *         {@code E[S²] = ∞}; Pareto shape {@code ≤ 1 + 1/d}, where the levels decay like
     *         {@code ℓ^{−(β−1)/(1−(d−1)(β−1))}}); TRUNCATION when the levels do not settle within
     *         {@link #MAX_EQUILIBRIUM_LEVELS} or the age grid
     */
    public PdeEquilibrium equilibrium() {
        if (!lambda.isConstant()) {
            throw MflbException.invalid("lambda", "a time-varying profile", "a constant rate for an equilibrium");
        }
        double rate = lambda.at(0);
        double load = rate * service.mean();
        if (!(load < 1)) {
            throw MflbException.invalid("lambda", rate, "< 1/E[S] = " + 1 / service.mean()
                    + " for an equilibrium (the load must be below 1)");
        }
        return stationarySolver().solve();
    }

    /** The equilibrium's solver (λ checked by {@link #equilibrium()}). */
    StationaryAgeSolver stationarySolver() {
        double tol = Math.min(levelTolerance, 1e-12);
        return new StationaryAgeSolver(d, lambda.at(0), service, Math.min(ageTolerance, 1e-16), tol, sumTolerance,
                MAX_EQUILIBRIUM_LEVELS);
    }

    /**
     * The equilibrium's waiting- and response-time laws (docs/models.md §7), from its age profiles
     * by grid convolution ({@link PdeSojournTimes}).
     *
     * @param equilibrium this model's {@link #equilibrium()}
     * @param percentiles the percentiles the laws must cover: the grid reaches where {@code P(W > end)}
     *        is below a tenth of {@code 1 − p} for the largest
     * @return the laws
     */
    public PdeSojournTimes sojournTimes(PdeEquilibrium equilibrium, Percentiles percentiles) {
        return PdeSojournTimes.ofEquilibrium(this, equilibrium, PdeSojournTimes.DEFAULT_STEP,
                tailTarget(percentiles));
    }

    /** @return the laws covering the default percentiles 50, 90, 99, 99.9 */
    public PdeSojournTimes sojournTimes(PdeEquilibrium equilibrium) {
        return sojournTimes(equilibrium, Percentiles.DEFAULT);
    }

    static double tailTarget(Percentiles percentiles) {
        double max = 0;
        for (double p : percentiles.values()) {
            max = Math.max(max, p);
        }
        return 0.1 * (1 - max / 100);
    }
}
