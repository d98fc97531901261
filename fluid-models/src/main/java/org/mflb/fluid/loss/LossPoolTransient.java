package org.mflb.fluid.loss;

import org.ejml.data.DMatrixRMaj;
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
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.SmoothRouting;
import org.mflb.fluid.TailModel;

/**
 * The Ornstein–Uhlenbeck limit of loss pools under JSQ(d) along a transient
 * ({@code docs/models.md §8}): from a deterministic initial state {@code x(0)} at the load
 * {@code λ_N = σ − β/√N}, {@code √N (x^N(t) − x(t)) → Z(t)}, Gaussian with mean {@code μ(t)} and
 * covariance {@code Σ(t)},
 * <pre>
 *   dx/dt = F(x, σ),   dμ/dt = A(t) μ − β b(t),   dΣ/dt = A(t) Σ + Σ A(t)ᵀ + Q(t),   μ(0) = 0, Σ(0) = 0,
 * </pre>
 * with {@code A(t) = D_x F(x(t))}, {@code b(t) = ∂F/∂λ} and {@code Q(t)} the diagonal diffusion
 * matrix along {@code x(t)} (see {@link LossPoolLimit}). Integrated together by Hipparchus's
 * Dormand–Prince 8(5,3) with tolerances 1e-10. As {@code t → ∞}, {@code μ → m} and
 * {@code Σ → W} of the fixed point; {@code μ(t) = −β ∂x(t)/∂σ}. Immutable.
 */
public final class LossPoolTransient {

    private static final double TOLERANCE = 1e-10;

    private final int capacity;
    private final SmoothRouting limit;
    private final double[] times;
    private final double[][] x;
    private final double[][] mu;
    private final double[][] sigma;

    private LossPoolTransient(int capacity, SmoothRouting limit, double[] times, double[][] x, double[][] mu,
            double[][] sigma) {
        this.capacity = capacity;
        this.limit = limit;
        this.times = times;
        this.x = x;
        this.mu = mu;
        this.sigma = sigma;
    }

    /**
     * @param capacity pool capacity {@code C ≥ 1}
     * @param policy random routing or SQ(d) (its {@code N → ∞} limit drives the fluid)
     * @param sigma the load {@code σ > 0}
     * @param beta the {@code β} of {@code λ_N = σ − β/√N}
     * @param initial initial state, with at most {@code C} jobs per pool (not the fixed point)
     * @param grid output times, from 0
     * @return the fluid, OU mean and OU covariance at the grid times
     */
    public static LossPoolTransient of(int capacity, SmoothRouting policy, double sigma, double beta,
            InitialState initial, TimeGrid grid) {
        Require.atLeast("capacity", capacity, 1);
        Require.positive("lambda", sigma);
        Require.finite("beta", beta);
        if (initial.kind() == InitialState.Kind.FIXED_POINT) {
            throw MflbException.invalid("init", initial, "an explicit state (at the fixed point use LossPoolLimit)");
        }
        if (initial.occupiedLevels() > capacity) {
            throw MflbException.invalid("init", initial, "a state with at most capacity C = " + capacity + " jobs per pool");
        }
        SmoothRouting limit = policy.limit();
        TailModel model = new TailModel(ServerSystem.lossPools(capacity), limit, ArrivalRate.constant(sigma), capacity);
        double[] out = grid.toArray();
        int c = capacity;
        int dimension = 2 * c + c * c;
        OrdinaryDifferentialEquation ode = new OrdinaryDifferentialEquation() {
            private final DMatrixRMaj a = new DMatrixRMaj(c, c);
            private final double[] state = new double[c];
            private final double[] f = new double[c];

            @Override
            public int getDimension() {
                return dimension;
            }

            @Override
            public double[] computeDerivatives(double t, double[] y) {
                double[] dy = new double[dimension];
                System.arraycopy(y, 0, state, 0, c);
                model.drift(t, state, f);
                System.arraycopy(f, 0, dy, 0, c);
                model.jacobian(t, state, a);
                for (int i = 0; i < c; i++) {
                    double hPrevious = i == 0 ? 1.0 : limit.selection(state[i - 1]);
                    double b = hPrevious - limit.selection(state[i]);
                    double next = i + 1 < c ? state[i + 1] : 0.0;
                    double dMu = -beta * b;
                    for (int k = Math.max(0, i - 1); k <= Math.min(c - 1, i + 1); k++) {
                        dMu += a.get(i, k) * y[c + k];
                    }
                    dy[c + i] = dMu;
                    for (int j = 0; j < c; j++) {
                        // (AΣ + ΣAᵀ)_ij with tridiagonal A
                        double s = 0;
                        for (int k = Math.max(0, i - 1); k <= Math.min(c - 1, i + 1); k++) {
                            s += a.get(i, k) * y[2 * c + k * c + j];
                        }
                        for (int k = Math.max(0, j - 1); k <= Math.min(c - 1, j + 1); k++) {
                            s += y[2 * c + i * c + k] * a.get(j, k);
                        }
                        if (i == j) {
                            s += sigma * b + (i + 1) * (state[i] - next);
                        }
                        dy[2 * c + i * c + j] = s;
                    }
                }
                return dy;
            }
        };
        double[] y0 = new double[dimension];
        System.arraycopy(initial.levels(c), 0, y0, 0, c);
        int nt = out.length;
        double[][] xs = new double[nt][];
        double[][] mus = new double[nt][];
        double[][] sigmas = new double[nt][];
        int[] next = {0};
        java.util.function.Consumer<double[]> store = y -> {
            int k = next[0]++;
            xs[k] = java.util.Arrays.copyOfRange(y, 0, c);
            mus[k] = java.util.Arrays.copyOfRange(y, c, 2 * c);
            sigmas[k] = java.util.Arrays.copyOfRange(y, 2 * c, dimension);
        };
        while (next[0] < nt && out[next[0]] <= 0) {
            store.accept(y0);
        }
        if (next[0] < nt) {
            DormandPrince853Integrator integrator = new DormandPrince853Integrator(0.0, out[nt - 1], TOLERANCE, TOLERANCE);
            integrator.addStepHandler(new ODEStepHandler() {
                @Override
                public void handleStep(ODEStateInterpolator interpolator) {
                    double end = interpolator.getCurrentState().getTime();
                    while (next[0] < nt && out[next[0]] <= end) {
                        double tk = out[next[0]];
                        ODEStateAndDerivative s = tk == end ? interpolator.getCurrentState()
                                : interpolator.getInterpolatedState(tk);
                        store.accept(s.getPrimaryState());
                    }
                }
            });
            try {
                integrator.integrate(ode, new ODEState(0.0, y0), out[nt - 1]);
            } catch (MathRuntimeException e) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "OU transient integration failed: " + e.getMessage());
            }
            if (next[0] < nt) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "OU transient integration stopped before t = " + out[next[0]]);
            }
        }
        return new LossPoolTransient(capacity, limit, out, xs, mus, sigmas);
    }

    /** @return the output times */
    public double[] times() {
        return times.clone();
    }

    /** @return the fluid tail {@code x_1..x_C} at output time {@code k} */
    public double[] tail(int k) {
        return x[k].clone();
    }

    /** @return the OU mean {@code μ(t_k)} */
    public double[] ouMean(int k) {
        return mu[k].clone();
    }

    /** @return the OU covariance {@code Σ(t_k)} ({@code N·Cov(x^N(t_k)) → Σ(t_k)}) */
    public DMatrixRMaj covariance(int k) {
        DMatrixRMaj s = new DMatrixRMaj(capacity, capacity, true, sigma[k]);
        // symmetric up to integration error
        for (int i = 0; i < capacity; i++) {
            for (int j = i + 1; j < capacity; j++) {
                double v = 0.5 * (s.get(i, j) + s.get(j, i));
                s.set(i, j, v);
                s.set(j, i, v);
            }
        }
        return s;
    }

    /** @return {@code E[x^N(t_k)] ≈ x(t_k) + μ(t_k)/√N} */
    public double[] mean(int k, int n) {
        Require.atLeast("N", n, 1);
        double[] m = x[k].clone();
        for (int i = 0; i < capacity; i++) {
            m[i] += mu[k][i] / Math.sqrt(n);
        }
        return m;
    }

    /** @return the blocking probability of the fluid at {@code t_k}, {@code h(x_C(t_k))} */
    public double blocking(int k) {
        return limit.selection(x[k][capacity - 1]);
    }

    /** @return {@code h(x_C) + h′(x_C) μ_C/√N} at {@code t_k}: the blocking with the OU mean */
    public double ouMeanBlocking(int k, int n) {
        Require.atLeast("N", n, 1);
        double xc = x[k][capacity - 1];
        return limit.selection(xc) + limit.selectionDerivative(1, xc) * mu[k][capacity - 1] / Math.sqrt(n);
    }
}
