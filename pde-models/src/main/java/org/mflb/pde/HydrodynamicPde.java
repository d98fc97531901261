package org.mflb.pde;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;

/**
 * The hydrodynamic (mean-field) limit of SQ(d) with general service times (MODELS.md §5, paper 002),
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
 * Transients use the first-order upwind scheme along characteristics ({@code Δt = Δa}) of
 * {@link AgeGridScheme}, by default Richardson-extrapolated over {@code h = 0.02} and {@code h/2}
 * (second order; about 1e-4 on the tail for SQ(2), λ = 0.9). The equilibrium is solved directly in
 * the age variable ({@link StationaryAgeSolver}), which handles heavy tails on a graded age grid.
 */
public final class HydrodynamicPde {

    /** Default age (= time) step. */
    public static final double DEFAULT_AGE_STEP = 0.02;
    /** Default survival mass beyond the age grid of a transient. */
    public static final double DEFAULT_AGE_TOLERANCE = 1e-9;
    /** Default mass {@code x_L} the level truncation may cut off. */
    public static final double DEFAULT_LEVEL_TOLERANCE = 1e-9;
    /** Upper bound on the levels. */
    public static final int MAX_LEVELS = 4096;
    /** Upper bound on the age cells of one transient grid. */
    public static final int MAX_CELLS = 1_000_000;

    private final int d;
    private final ArrivalRate lambda;
    private final ServiceDistribution service;
    private final double ageStep;
    private final boolean richardson;
    private final double ageTolerance;
    private final double levelTolerance;
    private final int levels;

    private HydrodynamicPde(int d, ArrivalRate lambda, ServiceDistribution service, double ageStep, boolean richardson,
            double ageTolerance, double levelTolerance, int levels) {
        this.d = d;
        this.lambda = lambda;
        this.service = service;
        this.ageStep = ageStep;
        this.richardson = richardson;
        this.ageTolerance = ageTolerance;
        this.levelTolerance = levelTolerance;
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
        return new HydrodynamicPde(d, lambda, service, DEFAULT_AGE_STEP, true, DEFAULT_AGE_TOLERANCE,
                DEFAULT_LEVEL_TOLERANCE, 0);
    }

    /** @return a copy with age (= time) step {@code h} in (0, 1] */
    public HydrodynamicPde withAgeStep(double h) {
        Require.positive("da", h);
        if (h > 1) {
            throw MflbException.invalid("da", h, "in (0, 1] (the mean service time is 1)");
        }
        return new HydrodynamicPde(d, lambda, service, h, richardson, ageTolerance, levelTolerance, levels);
    }

    /** @return a copy with or without Richardson extrapolation over {@code h} and {@code h/2} */
    public HydrodynamicPde withRichardson(boolean on) {
        return new HydrodynamicPde(d, lambda, service, ageStep, on, ageTolerance, levelTolerance, levels);
    }

    /** @return a copy whose age grids end where {@code Ḡ} falls to {@code tol} in (0, 1) */
    public HydrodynamicPde withAgeTolerance(double tol) {
        Require.open("age-tolerance", tol, 0, 1);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, tol, levelTolerance, levels);
    }

    /** @return a copy that chooses levels so the cut-off mass {@code x_L} stays below {@code tol} in (0, 1) */
    public HydrodynamicPde withLevelTolerance(double tol) {
        Require.open("level-tolerance", tol, 0, 1);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, tol, 0);
    }

    /** @return a copy with a fixed number of levels {@code L} in [1, MAX_LEVELS] */
    public HydrodynamicPde withLevels(int l) {
        Require.between("levels", l, 1, MAX_LEVELS);
        return new HydrodynamicPde(d, lambda, service, ageStep, richardson, ageTolerance, levelTolerance, l);
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
        while (true) {
            double h = ageStep;
            AgeGridScheme coarse = scheme(h, l, reach, init, eqAges, grid.start());
            double[][] tails = new double[grid.size()][l + 1];
            double[] waits = new double[grid.size()];
            coarse.run(grid, tails, waits);
            if (automatic && coarse.maxTopLevel() > levelTolerance) {
                if (l >= MAX_LEVELS) {
                    throw new MflbException(ErrorKind.TRUNCATION, "levels", "the transient needs more than "
                            + MAX_LEVELS + " levels to keep x_L below " + levelTolerance);
                }
                l = Math.min(MAX_LEVELS, 2 * l);
                continue;
            }
            if (!richardson) {
                return new PdeTransient(grid, tails, waits, h, false, coarse.maxTopLevel(), coarse.maxAgedMass());
            }
            AgeGridScheme fine = scheme(h / 2, l, reach, init, eqAges, grid.start());
            double[][] fineTails = new double[grid.size()][l + 1];
            double[] fineWaits = new double[grid.size()];
            fine.run(grid, fineTails, fineWaits);
            for (int k = 0; k < grid.size(); k++) {
                for (int i = 0; i <= l; i++) {
                    tails[k][i] = 2 * fineTails[k][i] - tails[k][i];
                }
                waits[k] = 2 * fineWaits[k] - waits[k];
            }
            return new PdeTransient(grid, tails, waits, h, true, Math.max(coarse.maxTopLevel(), fine.maxTopLevel()),
                    Math.max(coarse.maxAgedMass(), fine.maxAgedMass()));
        }
    }

    private AgeGridScheme scheme(double h, int l, double reach, double[] init, boolean eqAges, double t0) {
        long cells = (long) Math.ceil(reach / h) + 2;
        if (cells > MAX_CELLS) {
            cells = MAX_CELLS;
        }
        if (cells * (long) l > 400_000_000L) {
            throw new MflbException(ErrorKind.TRUNCATION, "da",
                    "the age grid (" + cells + " cells x " + l + " levels) is too large; increase --da or shorten --t-end");
        }
        return new AgeGridScheme(d, lambda, service, h, l, (int) cells, init, eqAges, t0);
    }

    /**
     * The equilibrium (constant {@code λ} with {@code λ E[S] < 1}), solved directly along the age
     * axis; its convergence criterion is that every level's age-integrated stationary equation holds
     * to a relative 1e-14 (the residual is reported), and levels are added until {@code x_L} falls
     * below the level tolerance.
     *
     * @return the equilibrium
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
        double tol = Math.min(levelTolerance, 1e-12);
        return new StationaryAgeSolver(d, rate, service, Math.min(ageTolerance, 1e-12), tol, MAX_LEVELS).solve();
    }
}
