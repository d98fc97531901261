package org.mflb.core.fixedpoint;

import org.ejml.data.Complex_F64;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.hipparchus.complex.Complex;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TransientSolver;

/**
 * Finds a stable fixed point {@code f(π) = 0} of a time-homogeneous drift.
 * <p>
 * The iteration is pseudo-transient continuation (Kelley and Keyes, SIAM J. Numer. Anal. 35, 1998):
 * implicit Euler steps of growing length {@code h},
 * <pre>
 *   (I/h − Df(x_k)) s_k = f(x_k),   x_{k+1} = x_k + s_k,   h_{k+1} = h_k max(2, ‖f(x_{k−1})‖ / ‖f(x_k)‖),
 * </pre>
 * which follows the flow while far from equilibrium (so it is drawn to attracting fixed points
 * only) and becomes Newton's method ({@code h → ∞}) near one, converging quadratically to machine
 * precision. A short integration of the ODE first moves an arbitrary starting point into the
 * basin. Linear systems are solved by LU (EJML), or by banded elimination when the Jacobian is
 * banded and large. The stability of the result is reported through the spectrum of
 * {@code Df(π)} (EJML eigen-decomposition).
 */
public final class FixedPointSolver {

    /**
     * Settings of the fixed-point iteration.
     *
     * @param residualTolerance stop once {@code ‖f(x)‖∞} is below this (then Newton steps polish to
     *        machine precision), or once Newton steps fall to the rounding level of {@code x}, {@code > 0}
     * @param maxIterations budget of implicit steps, {@code >= 1}
     * @param relaxationTime length of the initial ODE integration, {@code >= 0}
     * @param spectrumLimit largest dimension for which the full spectrum is computed
     */
    public record Settings(double residualTolerance, int maxIterations, double relaxationTime, int spectrumLimit) {

        /** Residual 1e-14, 500 steps, relaxation over 5 time units, spectrum up to dimension 800. */
        public static final Settings DEFAULT = new Settings(1e-14, 500, 5.0, 800);

        /** Validates. */
        public Settings {
            Require.positive("residualTolerance", residualTolerance);
            Require.atLeast("maxIterations", maxIterations, 1);
            Require.nonNegative("relaxationTime", relaxationTime);
            Require.atLeast("spectrumLimit", spectrumLimit, 0);
        }
    }

    private static final int BANDED_THRESHOLD = 200;

    /** Newton iterations without halving the best residual, at rounding-level steps, that mean the rounding floor. */
    private static final int STALL = 20;

    /** Budget of drift evaluations of the relaxation (about 2500 steps): beyond, the drift is stiff. */
    public static final int RELAXATION_EVALUATIONS = 30_000;

    private final Settings settings;

    /** @param settings iteration settings */
    public FixedPointSolver(Settings settings) {
        this.settings = settings;
    }

    /** @return the iteration settings */
    public Settings settings() {
        return settings;
    }

    /** A solver with {@link Settings#DEFAULT}. */
    public FixedPointSolver() {
        this(Settings.DEFAULT);
    }

    /**
     * @param model a model with a constant arrival rate
     * @param guess starting point (not modified)
     * @return the fixed point reached from {@code guess}
     * @throws MflbException {@link ErrorKind#NO_CONVERGENCE} if the iteration does not converge
     *         (typically: no stable fixed point exists)
     */
    public FixedPoint solve(PopulationModel model, double[] guess) {
        if (!model.arrivalRate().isConstant()) {
            throw MflbException.invalid("lambda", "time-varying", "constant for a fixed point");
        }
        int n = model.getDimension();
        int[] band = model.jacobianBandwidth();
        boolean banded = n > BANDED_THRESHOLD && band[0] + band[1] + 1 < n / 4;
        if (!banded) {
            requireDenseFits("fixed point", n, 3);
        }
        double[] x = relax(model, guess);
        BandedLinearSolver bandedSolver = banded ? new BandedLinearSolver(n, band[0], band[1]) : null;
        LinearSolverDense<DMatrixRMaj> lu = banded ? null : LinearSolverFactory_DDRM.lu(n);

        DMatrixRMaj jacobian = banded ? null : new DMatrixRMaj(n, n);
        double[][] bandOfJacobian = banded ? new double[n][band[0] + band[1] + 1] : null;
        DMatrixRMaj system = banded ? null : new DMatrixRMaj(n, n);
        double[] f = new double[n];
        double[] fTrial = new double[n];
        model.drift(0.0, x, f);
        double residual = normInf(f);
        double h = 1.0;
        int iterations = 0;
        int polish = 0;
        // The rounding floor of the drift (e.g. a sum of thousands of terms) may lie above the
        // tolerance: Newton steps then stop improving. Keep the best point, and stop once STALL
        // iterations in the Newton regime have not halved its residual while the steps are at the
        // rounding level of x (the caller can verify the residual it gets).
        double[] best = x;
        double bestResidual = residual;
        int stalled = 0;
        while (true) {
            if (residual <= settings.residualTolerance()) {
                // One or two Newton steps past the tolerance reach the rounding floor.
                if (polish++ >= 2) {
                    break;
                }
                h = Double.POSITIVE_INFINITY;
            }
            if (iterations >= settings.maxIterations()) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "no stable fixed point found: residual " + residual + " after " + iterations
                                + " iterations (the load may be too high for this system)");
            }
            iterations++;
            if (banded) {
                model.bandedJacobian(0.0, x, bandOfJacobian);
            } else {
                model.jacobian(0.0, x, jacobian);
            }
            double shift = Double.isInfinite(h) ? 0.0 : 1.0 / h;
            double[] step = banded ? bandedSolver.solveShifted(bandOfJacobian, shift, f)
                    : solveDense(lu, jacobian, system, shift, f);
            if (step == null) {
                if (Double.isInfinite(h)) {
                    break; // singular at the solution: keep the polished point
                }
                h /= 8;
                continue;
            }
            double[] trial = new double[n];
            for (int i = 0; i < n; i++) {
                trial[i] = x[i] + step[i];
            }
            model.drift(0.0, trial, fTrial);
            double trialResidual = normInf(fTrial);
            if (!Double.isFinite(trialResidual) || (polish == 0 && trialResidual > 4 * residual + 1e-300)) {
                h /= 8;
                if (h < 1e-12) {
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                            "no stable fixed point found: the iteration stalled at residual " + residual);
                }
                continue;
            }
            if (Double.isFinite(trialResidual) && trialResidual < 0.5 * bestResidual) {
                best = trial;
                bestResidual = trialResidual;
                stalled = 0;
            } else if (h >= 1e8 && normInf(step) <= 1e-9 * Math.max(1.0, normInf(x)) && ++stalled >= STALL) {
                if (trialResidual < bestResidual) {
                    best = trial;
                    bestResidual = trialResidual;
                }
                x = best;
                residual = bestResidual;
                break;
            }
            if (polish > 0 && trialResidual >= residual) {
                break; // rounding floor reached
            }
            x = trial;
            double[] swap = f;
            f = fTrial;
            fTrial = swap;
            if (polish == 0) {
                // Switched evolution relaxation, but at least doubling: slow modes (rate ~1e-5 near
                // critical load) would otherwise keep h small for thousands of steps.
                h = trialResidual > 0 ? Math.min(h * Math.max(2.0, residual / trialResidual), 1e300)
                        : Double.POSITIVE_INFINITY;
            }
            residual = trialResidual;
            if (polish == 0 && h > 1e10 && normInf(step) <= 1e-15 * Math.max(1.0, normInf(x))) {
                polish = 2; // Newton steps at the rounding level: converged, whatever the residual's scale
            }
        }
        return withSpectrum(model, new FixedPoint(x, residual, iterations, null));
    }

    /**
     * The short integration that moves the guess into the basin. A stiff drift stops the explicit
     * integrator early: the iteration then starts where it got to, since its implicit steps are
     * made for stiffness. A blow-up is an error: no fixed point is reached from the guess.
     */
    private double[] relax(PopulationModel model, double[] guess) {
        if (settings.relaxationTime() == 0) {
            return guess.clone();
        }
        try {
            return new TransientSolver(IntegratorSettings.DEFAULT.withTolerance(1e-9))
                    .propagate(model, 0.0, guess, settings.relaxationTime(), RELAXATION_EVALUATIONS);
        } catch (TransientSolver.Stiff e) {
            double[] reached = e.state();
            model.project(reached);
            return reached;
        }
    }

    /**
     * The fixed point reached from {@code start} when the jumps conserve linear quantities
     * ({@code cᵀℓ = 0} for every jump {@code ℓ}, e.g. a total mass): the drift then has a manifold of
     * fixed points, one on each affine subspace {@code start + span{ℓ}}, and the one sought is the
     * one on {@code start}'s. The iteration runs in orthonormal coordinates of that subspace
     * ({@link org.mflb.core.refined.JumpSubspace}), so the conservation laws hold to rounding and
     * the spectrum (and {@link FixedPoint#isStable()}) is that of the Jacobian restricted to the
     * subspace: the zero eigenvalues of the conservation laws are left out. Without conservation
     * laws this is {@link #solve}.
     *
     * @param model a model with a constant arrival rate
     * @param start the state whose conserved quantities the fixed point keeps (not modified)
     * @return the fixed point on {@code start + span{ℓ}}
     */
    public FixedPoint solveConserving(PopulationModel model, double[] start) {
        int n = model.getDimension();
        org.mflb.core.refined.JumpSubspace subspace = org.mflb.core.refined.JumpSubspace.of(model.transitions(), n);
        if (subspace.rank() == n) {
            return solve(model, start);
        }
        AffineRestriction restricted = new AffineRestriction(model, start, subspace.basis(), subspace.rank());
        FixedPoint reduced = new FixedPointSolver(new Settings(settings.residualTolerance(), settings.maxIterations(),
                settings.relaxationTime(), 0)).solve(restricted, new double[subspace.rank()]); // spectrum: after polish
        double[] x = restricted.lift(reduced.state());
        // Polish around the point found: x = start + P y loses the digits of coordinates far smaller
        // than start's (a fraction 1e-12 next to 1); Newton steps on x + P δ keep them.
        AffineRestriction around = new AffineRestriction(model, x, subspace.basis(), subspace.rank());
        FixedPoint polished = new FixedPointSolver(new Settings(settings.residualTolerance(), settings.maxIterations(),
                0.0, settings.spectrumLimit())).solve(around, new double[subspace.rank()]);
        x = around.lift(polished.state());
        reduced = new FixedPoint(reduced.state(), reduced.residual(), reduced.iterations() + polished.iterations(),
                polished.spectrum().orElse(null));
        double[] f = new double[n];
        model.drift(0.0, x, f);
        return new FixedPoint(x, normInf(f), reduced.iterations(), reduced.spectrum().orElse(null));
    }

    /**
     * Adds the spectrum of {@code Df(π)} to a fixed point, when its dimension is at most
     * {@link Settings#spectrumLimit()} (a dense eigen-decomposition costs {@code O(K³)}).
     *
     * @param model the model whose fixed point it is
     * @param fixedPoint a fixed point without spectrum
     * @return the same fixed point with its spectrum, or unchanged above the limit
     */
    public FixedPoint withSpectrum(PopulationModel model, FixedPoint fixedPoint) {
        int n = model.getDimension();
        if (n > settings.spectrumLimit()) {
            return fixedPoint;
        }
        DMatrixRMaj jacobian = new DMatrixRMaj(n, n);
        double[] x = fixedPoint.state();
        model.jacobian(0.0, x, jacobian);
        return new FixedPoint(x, fixedPoint.residual(), fixedPoint.iterations(), eigenvalues(jacobian));
    }

    /**
     * Refuses, before any work, a dense computation whose {@code matrices} {@code n×n} arrays of
     * doubles cannot fit in the heap (or exceed Java's array size), with the memory it would need.
     *
     * @param what the computation, for the message
     * @param n the dimension
     * @param matrices how many {@code n×n} matrices it holds at once
     * @throws MflbException {@link ErrorKind#INVALID_PARAMETER} on "truncation" when it cannot fit
     */
    public static void requireDenseFits(String what, int n, int matrices) {
        requireDenseFits("truncation", what, n, matrices, "use fewer levels (the model has no banded Jacobian)");
    }

    /**
     * {@link #requireDenseFits(String, String, int, int)} for a dimension set by another parameter.
     *
     * @param parameter the parameter that sets {@code n}, named in the message
     * @param what the computation, for the message
     * @param n the dimension
     * @param matrices how many {@code n×n} matrices it holds at once
     * @param remedy what to do instead, for the message
     * @throws MflbException {@link ErrorKind#INVALID_PARAMETER} on {@code parameter} when it cannot fit
     */
    public static void requireDenseFits(String parameter, String what, int n, int matrices, String remedy) {
        double bytes = 8.0 * n * (double) n * matrices;
        Runtime runtime = Runtime.getRuntime();
        double available = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
        if ((long) n * n > Integer.MAX_VALUE - 8 || bytes > 0.8 * available) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, parameter, String.format(java.util.Locale.ROOT,
                    "the %s of this model needs dense %d x %d matrices (%.3g GB), more than the %.3g GB of memory"
                            + " available: %s, or raise the heap (-Xmx)",
                    what, n, n, bytes / 1e9, available / 1e9, remedy));
        }
    }

    private static double[] solveDense(LinearSolverDense<DMatrixRMaj> lu, DMatrixRMaj jacobian, DMatrixRMaj system,
            double shift, double[] rhs) {
        int n = rhs.length;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                system.unsafe_set(i, j, (i == j ? shift : 0.0) - jacobian.unsafe_get(i, j));
            }
        }
        if (!lu.setA(system)) {
            return null;
        }
        DMatrixRMaj b = DMatrixRMaj.wrap(n, 1, rhs.clone());
        DMatrixRMaj s = new DMatrixRMaj(n, 1);
        lu.solve(b, s);
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(s.data[i])) {
                return null;
            }
        }
        return s.data;
    }

    /** @return the eigenvalues of {@code matrix} (EJML's dense eigen-decomposition) */
    public static Complex[] eigenvalues(DMatrixRMaj matrix) {
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(matrix.numRows, false);
        if (!eig.decompose(matrix.copy())) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "eigen-decomposition of the Jacobian failed");
        }
        Complex[] values = new Complex[matrix.numRows];
        for (int i = 0; i < values.length; i++) {
            Complex_F64 c = eig.getEigenvalue(i);
            values[i] = new Complex(c.real, c.imaginary);
        }
        return values;
    }

    private static double normInf(double[] v) {
        double max = 0;
        for (double x : v) {
            if (!Double.isFinite(x)) {
                return Double.NaN;
            }
            max = Math.max(max, Math.abs(x));
        }
        return max;
    }
}
