package org.mflb.core.refined;

import org.hipparchus.exception.MathRuntimeException;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.hipparchus.ode.sampling.ODEStateInterpolator;
import org.hipparchus.ode.sampling.ODEStepHandler;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.linalg.RealSchurForm;
import org.mflb.core.linalg.SylvesterSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;

/**
 * Refined mean field (Gast &amp; Van Houdt, "A refined mean field approximation", 2017) and its
 * second-order extension (Gast, Bortolussi &amp; Tribastone, "Size expansions of mean field
 * approximation: transient and steady-state analysis", 2019, Thm 2), for any
 * {@link PopulationModel} with smooth rates; docs/models.md §4.
 *
 * <p><b>Steady state</b> ({@link #steadyState}), at a fixed point {@code π} with {@code F = Df(π)}:
 * <pre>
 *   F W + W Fᵀ + Q = 0                       (Lyapunov: N·Cov → W)
 *   F V + ½ F'':W = 0                        (1/N term)
 *   (F⊕F⊕F) C + S3 = 0,  F B + B Fᵀ + S2 = 0,  F A + S1 = 0     (1/N² terms, order 2)
 * </pre>
 * with the sources of {@link MomentEquations}. All of them are solved with one real Schur form of
 * {@code F} (Bartels–Stewart, {@link SylvesterSolver}): {@code O(K³)} for order 1, {@code O(K⁴)}
 * for order 2. When the jumps conserve linear quantities the equations are solved on the subspace
 * spanned by the jumps ({@link JumpSubspace}); a reduced Jacobian that is still singular or not
 * Hurwitz is reported as {@link ErrorKind#UNSTABLE}.
 *
 * <p><b>Transient</b> ({@link #transientRegime}): the same equations with time derivatives on the
 * left, integrated together with {@code ẋ = f(x, t)} by Hipparchus's Dormand–Prince 8(5,3) from
 * {@code V = W = A = B = C = 0}.
 *
 * <p>Derivatives come from {@link RateDerivatives#of}: closed forms if the model provides them,
 * exact automatic differentiation for a {@link SmoothPopulationModel}, finite differences
 * otherwise (order 1 only). Rates that depend on {@code N} ({@link SizeDependentPopulationModel},
 * or {@link RateDerivatives#hasSizeCorrections()}) are expanded about {@code N = ∞}: the fixed
 * point and trajectory are those of the limit, and the rates' 1/N, 1/N² corrections enter the
 * terms. Instances are immutable.
 */
public final class RefinedMeanField {

    /** Highest supported expansion order. */
    public static final int MAX_ORDER = 2;

    /**
     * A fixed point must satisfy {@code |f(π)|_∞ ≤ FIXED_POINT_TOLERANCE × max_i Σ_ℓ |ℓ_i| β_ℓ(π)}.
     * An error of δ in {@code π} moves {@code π + V/N} by δ; 1e-8 relative flux keeps that far
     * below the 1/N² term for every N of interest.
     */
    public static final double FIXED_POINT_TOLERANCE = 1e-8;

    /**
     * Largest dimension for the 1/N² terms (unless the rates are affine, when they vanish): the
     * third-moment tensor takes {@code 8K³} bytes (27 MB at K = 150) and its solve {@code O(K⁴)}.
     */
    public static final int MAX_SECOND_ORDER_DIMENSION = 150;

    /** Default absolute tolerance of the transient integration. */
    public static final double DEFAULT_ABSOLUTE_TOLERANCE = 1e-10;

    /** Default relative tolerance of the transient integration. */
    public static final double DEFAULT_RELATIVE_TOLERANCE = 1e-10;

    private final int order;
    private final double absoluteTolerance;
    private final double relativeTolerance;

    /**
     * @param order 1 (the 1/N refined mean field and the covariance) or 2 (adds the 1/N² terms)
     * @throws MflbException if {@code order} is not 1 or 2
     */
    public RefinedMeanField(int order) {
        this(Require.between("order", order, 1, MAX_ORDER), DEFAULT_ABSOLUTE_TOLERANCE, DEFAULT_RELATIVE_TOLERANCE);
    }

    private RefinedMeanField(int order, double absoluteTolerance, double relativeTolerance) {
        this.order = order;
        this.absoluteTolerance = absoluteTolerance;
        this.relativeTolerance = relativeTolerance;
    }

    /**
     * @param absolute absolute tolerance of the transient integration, {@code > 0}
     * @param relative relative tolerance, {@code > 0}
     * @return a solver with these tolerances (this instance is not changed)
     */
    public RefinedMeanField withTolerances(double absolute, double relative) {
        return new RefinedMeanField(order, Require.positive("absoluteTolerance", absolute),
                Require.positive("relativeTolerance", relative));
    }

    /** @return the expansion order */
    public int order() {
        return order;
    }

    /**
     * Steady-state expansion with the best available derivatives ({@link RateDerivatives#of}).
     *
     * @param model the model; its arrival rate must be constant
     * @param fixedPoint a stable fixed point {@code π} of the drift (not modified)
     * @return the expansion
     * @throws MflbException if {@code π} is not a fixed point, is unstable or not isolated
     */
    public SteadyStateExpansion steadyState(PopulationModel model, double[] fixedPoint) {
        return steadyState(model, derivativesFor(model), fixedPoint);
    }

    /**
     * Steady-state expansion with the given derivative source.
     *
     * @param model the model; its arrival rate must be constant
     * @param derivatives derivatives of the model's rates
     * @param fixedPoint a stable fixed point {@code π} (not modified)
     * @return the expansion
     */
    public SteadyStateExpansion steadyState(PopulationModel model, RateDerivatives derivatives, double[] fixedPoint) {
        ArrivalRate arrivals = model.arrivalRate();
        if (arrivals != null && !arrivals.isConstant()) {
            throw MflbException.invalid("arrivalRate", "time-varying", "constant for a steady state");
        }
        int n = model.getDimension();
        double[] pi = checkedState("fixedPoint", fixedPoint, n);
        MomentEquations eq = new MomentEquations(model, derivatives, order);
        double t = 0.0;
        eq.evaluate(t, pi);

        double[] f = new double[n];
        eq.drift(f);
        double residual = 0;
        for (double fi : f) {
            residual = Math.max(residual, Math.abs(fi));
        }
        double allowed = FIXED_POINT_TOLERANCE * Math.max(eq.fluxScale(), Double.MIN_NORMAL);
        if (!(residual <= allowed)) {
            throw MflbException.invalid("fixedPoint", String.format("a point with |f|_inf = %.3g", residual),
                    String.format("a fixed point of the drift (|f|_inf <= %.3g)", allowed));
        }

        JumpSubspace subspace = JumpSubspace.of(eq);
        double[] jac = new double[n * n];
        eq.jacobian(jac);
        RealSchurForm schur = RealSchurForm.of(subspace.reduce(jac));
        double abscissa = schur.spectralAbscissa();
        checkStable(schur, abscissa, subspace);
        RealSchurForm[] two = {schur, schur};

        double[] q = new double[n * n];
        eq.noise(q);
        double[] w = subspace.lift(SylvesterSolver.solveKroneckerSum(two, negate(subspace.project(q, 2))), 2);
        symmetrize(w, n);
        double[] sv = new double[n];
        eq.firstOrderSource(w, sv);
        double[] v = subspace.lift(schur.solve(negate(subspace.project(sv, 1))), 1);
        if (order == 1) {
            return new SteadyStateExpansion(1, pi, v, w, null, null, null, subspace.rank, abscissa);
        }

        java.util.function.Supplier<double[]> thirdMoment = () -> {
            double[] s3 = new double[n * n * n];
            eq.thirdMomentSource(w, v, s3);
            return subspace.lift(SylvesterSolver.solveKroneckerSum(new RealSchurForm[] {schur, schur, schur},
                    negate(subspace.project(s3, 3))), 3);
        };
        if (eq.isAffine() && !eq.isSizeDependent()) {
            // Affine rates: F'' = F''' = F'''' = Q'' = 0 and V = 0, so the sources of B and A vanish
            // whatever C is: B = A = 0 exactly. C (O(K⁴)) is computed only if asked for.
            return new SteadyStateExpansion(2, pi, v, w, new double[n], new double[n * n], thirdMoment,
                    subspace.rank, abscissa);
        }
        requireSecondOrderSize(subspace.rank);
        double[] c = thirdMoment.get();
        double[] s2 = new double[n * n];
        eq.secondMomentSource(w, v, c, s2);
        double[] b = subspace.lift(SylvesterSolver.solveKroneckerSum(two, negate(subspace.project(s2, 2))), 2);
        symmetrize(b, n);
        double[] s1 = new double[n];
        eq.secondOrderMeanSource(w, v, b, c, s1);
        double[] a = subspace.lift(schur.solve(negate(subspace.project(s1, 1))), 1);
        return new SteadyStateExpansion(2, pi, v, w, a, b, () -> c, subspace.rank, abscissa);
    }

    /**
     * Transient expansion from a deterministic initial state at time {@code t0}, with the best
     * available derivatives ({@link RateDerivatives#of}).
     *
     * @param model the model
     * @param initialState {@code x(t0)} (not modified)
     * @param t0 initial time
     * @param times output times, non-decreasing, {@code ≥ t0}
     * @return the expansion at the output times
     */
    public TransientExpansion transientRegime(PopulationModel model, double[] initialState, double t0, double[] times) {
        return transientRegime(model, derivativesFor(model), initialState, t0, times);
    }

    /**
     * Transient expansion with the given derivative source.
     *
     * @param model the model
     * @param derivatives derivatives of the model's rates
     * @param initialState {@code x(t0)} (not modified)
     * @param t0 initial time
     * @param times output times, non-decreasing, {@code ≥ t0}
     * @return the expansion at the output times
     */
    public TransientExpansion transientRegime(PopulationModel model, RateDerivatives derivatives, double[] initialState,
                                              double t0, double[] times) {
        int n = model.getDimension();
        double[] x0 = checkedState("initialState", initialState, n);
        Require.finite("t0", t0);
        if (times.length == 0) {
            throw MflbException.invalid("times", "[]", "at least one output time");
        }
        for (int k = 0; k < times.length; k++) {
            Require.finite("times[" + k + "]", times[k]);
            if (times[k] < (k == 0 ? t0 : times[k - 1])) {
                throw MflbException.invalid("times[" + k + "]", times[k], "non-decreasing and >= t0 = " + t0);
            }
        }
        if (order >= 2) {
            requireSecondOrderSize(n);
        }
        MomentEquations eq = new MomentEquations(model, derivatives, order);
        ExpansionOde ode = new ExpansionOde(eq, order);
        double[] y0 = new double[ode.getDimension()];
        System.arraycopy(x0, 0, y0, 0, n);

        int nt = times.length;
        double[][] xs = new double[nt][];
        double[][] vs = new double[nt][];
        double[][] ws = new double[nt][];
        double[][] as = order >= 2 ? new double[nt][] : null;
        double[][] bs = order >= 2 ? new double[nt][] : null;
        int[] next = {0};
        java.util.function.BiConsumer<Integer, double[]> store = (k, y) -> {
            xs[k] = java.util.Arrays.copyOfRange(y, 0, n);
            vs[k] = java.util.Arrays.copyOfRange(y, ode.offV, ode.offV + n);
            ws[k] = java.util.Arrays.copyOfRange(y, ode.offW, ode.offW + n * n);
            symmetrize(ws[k], n);
            if (order >= 2) {
                as[k] = java.util.Arrays.copyOfRange(y, ode.offA, ode.offA + n);
                bs[k] = java.util.Arrays.copyOfRange(y, ode.offB, ode.offB + n * n);
                symmetrize(bs[k], n);
            }
        };
        while (next[0] < nt && times[next[0]] == t0) {
            store.accept(next[0]++, y0);
        }
        double horizon = times[nt - 1];
        if (next[0] < nt) {
            DormandPrince853Integrator integrator = new DormandPrince853Integrator(
                    0.0, horizon - t0, absoluteTolerance, relativeTolerance);
            integrator.addStepHandler(new ODEStepHandler() {
                @Override
                public void handleStep(ODEStateInterpolator interpolator) {
                    double end = interpolator.getCurrentState().getTime();
                    while (next[0] < nt && times[next[0]] <= end) {
                        double tk = times[next[0]];
                        ODEStateAndDerivative s = tk == end ? interpolator.getCurrentState()
                                : interpolator.getInterpolatedState(tk);
                        store.accept(next[0]++, s.getPrimaryState());
                    }
                }
            });
            try {
                integrator.integrate(ode, new ODEState(t0, y0), horizon);
            } catch (MathRuntimeException e) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "transient refined mean field integration failed: " + e.getMessage());
            }
            // Rounding in the last step may leave the final time unserved.
            if (next[0] < nt) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "transient refined mean field integration stopped before t = " + times[next[0]]);
            }
        }
        return new TransientExpansion(order, times.clone(), xs, vs, ws, as, bs);
    }

    private RateDerivatives derivativesFor(PopulationModel model) {
        return RateDerivatives.of(model, order == 1 ? 2 : 4);
    }

    private static void requireSecondOrderSize(int dimension) {
        if (dimension > MAX_SECOND_ORDER_DIMENSION) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "order",
                    "order = 2 needs O(K^3) memory and O(K^4) time: dimension K = " + dimension + " exceeds "
                            + MAX_SECOND_ORDER_DIMENSION + "; use order 1 or fewer levels");
        }
    }

    private static double[] checkedState(String name, double[] x, int n) {
        if (x == null || x.length != n) {
            throw MflbException.invalid(name + ".length", x == null ? "null" : x.length, "the model dimension " + n);
        }
        for (int i = 0; i < n; i++) {
            Require.finite(name + "[" + i + "]", x[i]);
        }
        return x.clone();
    }

    private static void checkStable(RealSchurForm schur, double abscissa, JumpSubspace subspace) {
        double[] re = schur.getEigenvaluesReal();
        double[] im = schur.getEigenvaluesImaginary();
        double smallest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < re.length; i++) {
            smallest = Math.min(smallest, Math.hypot(re[i], im[i]));
        }
        String where = subspace.isFull() ? "Jacobian" : "Jacobian reduced to the " + subspace.rank
                + "-dimensional span of the jumps";
        if (smallest <= SylvesterSolver.SINGULARITY_TOLERANCE * schur.norm()) {
            throw new MflbException(ErrorKind.UNSTABLE, "fixedPoint",
                    "the " + where + " is singular at the fixed point (eigenvalue " + String.format("%.3g", smallest)
                            + "): the fixed point is not isolated, so the refined mean field is undefined");
        }
        if (!(abscissa < 0)) {
            throw new MflbException(ErrorKind.UNSTABLE, "fixedPoint",
                    "the fixed point is not exponentially stable: the " + where + " has an eigenvalue with real part "
                            + String.format("%.3g", abscissa) + " >= 0, so the refined mean field is undefined");
        }
    }

    private static double[] negate(double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = -x[i];
        }
        return y;
    }

    private static void symmetrize(double[] m, int n) {
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double s = 0.5 * (m[i * n + j] + m[j * n + i]);
                m[i * n + j] = s;
                m[j * n + i] = s;
            }
        }
    }

    /** The mean-field ODE and the moment equations, as one Hipparchus system. */
    private static final class ExpansionOde implements OrdinaryDifferentialEquation {
        private final MomentEquations eq;
        private final int order;
        private final int n;
        final int offV;
        final int offW;
        final int offA;
        final int offB;
        final int offC;
        private final int dimension;
        private final double[] x;
        private final double[] v;
        private final double[] w;
        private final double[] a;
        private final double[] b;
        private final double[] c;
        private final double[] tmp;
        private final double[] p3;

        ExpansionOde(MomentEquations eq, int order) {
            this.eq = eq;
            this.order = order;
            this.n = eq.n;
            offV = n;
            offW = 2 * n;
            offA = offW + n * n;
            offB = offA + n;
            offC = offB + n * n;
            dimension = order == 1 ? offA : offC + n * n * n;
            x = new double[n];
            v = new double[n];
            w = new double[n * n];
            a = order >= 2 ? new double[n] : null;
            b = order >= 2 ? new double[n * n] : null;
            c = order >= 2 ? new double[n * n * n] : null;
            tmp = new double[order >= 2 ? n * n * n : n * n];
            p3 = order >= 2 ? new double[n * n * n] : null;
        }

        @Override
        public int getDimension() {
            return dimension;
        }

        @Override
        public double[] computeDerivatives(double t, double[] y) {
            double[] dy = new double[dimension];
            System.arraycopy(y, 0, x, 0, n);
            System.arraycopy(y, offV, v, 0, n);
            System.arraycopy(y, offW, w, 0, n * n);
            eq.evaluate(t, x);
            eq.drift(tmp);
            System.arraycopy(tmp, 0, dy, 0, n);
            // V' = F V + ½ F'':W
            eq.firstOrderSource(w, tmp);
            eq.addJacobianProduct(v, 1, 0, tmp);
            System.arraycopy(tmp, 0, dy, offV, n);
            // W' = F W + W Fᵀ + Q
            eq.noise(tmp);
            eq.addJacobianProduct(w, 2, 0, tmp);
            eq.addJacobianProduct(w, 2, 1, tmp);
            System.arraycopy(tmp, 0, dy, offW, n * n);
            if (order >= 2) {
                System.arraycopy(y, offA, a, 0, n);
                System.arraycopy(y, offB, b, 0, n * n);
                System.arraycopy(y, offC, c, 0, n * n * n);
                // C' = (F⊕F⊕F) C + S3. C is symmetric, so F ×_2 C and F ×_3 C are index
                // permutations of P = F ×_1 C: one sparse product instead of three.
                eq.thirdMomentSource(w, v, tmp);
                java.util.Arrays.fill(p3, 0.0);
                eq.addJacobianProduct(c, 3, 0, p3);
                int n2 = n * n;
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        int ij = i * n2 + j * n;
                        int ji = j * n2 + i * n;
                        for (int k = 0; k < n; k++) {
                            dy[offC + ij + k] = tmp[ij + k] + p3[ij + k] + p3[ji + k] + p3[k * n2 + i * n + j];
                        }
                    }
                }
                // B' = F B + B Fᵀ + S2
                eq.secondMomentSource(w, v, c, tmp);
                eq.addJacobianProduct(b, 2, 0, tmp);
                eq.addJacobianProduct(b, 2, 1, tmp);
                System.arraycopy(tmp, 0, dy, offB, n * n);
                // A' = F A + S1
                eq.secondOrderMeanSource(w, v, b, c, tmp);
                eq.addJacobianProduct(a, 1, 0, tmp);
                System.arraycopy(tmp, 0, dy, offA, n);
            }
            return dy;
        }
    }
}
