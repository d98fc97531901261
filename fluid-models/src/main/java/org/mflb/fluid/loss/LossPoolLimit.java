package org.mflb.fluid.loss;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.SmoothRouting;
import org.mflb.fluid.TailModel;

/**
 * Loss pools of capacity {@code C} under JSQ(d) (random routing is {@code d = 1}) at a constant
 * per-pool load {@code λ}: the fixed point and the Ornstein–Uhlenbeck limit of the fluctuations
 * around it (Vasantam and Mazumdar, "Sensitivity of mean-field fluctuations in Erlang loss models
 * with randomized routing"; derivation in {@code docs/models.md §8}). With {@code h} the selection
 * function of the policy ({@code h(y) = y^d} with replacement) the drift on the tail
 * {@code x_1..x_C} ({@code x_0 = 1}, {@code x_{C+1} = 0}) is
 * <pre>
 *   F_i(x, λ) = λ (h(x_{i−1}) − h(x_i)) − i (x_i − x_{i+1}),
 * </pre>
 * and at the fixed point {@code x*}, {@code Z^N = √N (x^N − x*)} under the load
 * {@code λ_N = λ − β/√N} tends to the OU process {@code dZ = (A Z − β b) dt + Q^{1/2} dB} with
 * <pre>
 *   A = D_x F(x*) (tridiagonal),   b = ∂F/∂λ = (h(x*_{i−1}) − h(x*_i))_i,
 *   Q = diag(λ (h(x*_{i−1}) − h(x*_i)) + i (x*_i − x*_{i+1})),
 *   stationary law N(m, W):   A W + W Aᵀ + Q = 0,   m = β A⁻¹ b = −β d(x*)/dλ.
 * </pre>
 * {@code d(x*)/dλ = −A⁻¹ b} and {@code d²(x*)/dλ² = −A⁻¹ (D²F[x′, x′] + 2 D_x b · x′)} come from
 * differentiating {@code F(x*(λ), λ) = 0} (the implicit-function theorem; {@code F} is linear in
 * {@code λ}), not from differencing fixed points.
 *
 * <p>The refined mean field {@code E[x^N] = x* + V/N + O(N⁻²)} is that of the project's solver
 * ({@link RefinedMeanField}); with {@code d} distinct pools sampled ({@link PowerOfD#distinct}) it
 * includes the 1/N term {@code g = h¹} of the selection probability
 * {@code h_N = h + g/N + O(N⁻²)}. The blocking probability {@code P_B^N = E[h_N(x^N_C)]} (PASTA)
 * then expands as {@code h(x*_C) + R_B/N + O(N⁻²)} with
 * <pre>
 *   R_B = h′(x*_C) V_C + ½ h″(x*_C) W_CC + g(x*_C)  =  −Σ_i V_i / λ,
 * </pre>
 * the second form by Little's law ({@code P_B = 1 − E[Σ x_i]/λ} exactly). Immutable.
 */
public final class LossPoolLimit {

    private final int capacity;
    private final SmoothRouting policy;
    private final SmoothRouting limit;
    /** Dense {@code C×C} matrices the limit holds at once (A, Q, W and the Lyapunov solver's). */
    private static final int DENSE_MATRICES = 8;

    private final double lambda;
    private final double[] x;
    private final DMatrixRMaj a;
    private final double[] b;
    private final DMatrixRMaj q;
    private final DMatrixRMaj w;
    private final double[] v;
    private final double[] dx;
    private final double[] d2x;
    private final double spectralGap;

    private LossPoolLimit(int capacity, SmoothRouting policy, double lambda) {
        this.capacity = capacity;
        this.policy = policy;
        this.limit = policy.limit();
        this.lambda = lambda;
        ServerSystem system = ServerSystem.lossPools(capacity);
        FluidFixedPoint fp = FluidModel.of(system, limit, lambda).fixedPoint();
        this.x = fp.levels();
        TailModel model = new TailModel(system, limit, ArrivalRate.constant(lambda), capacity);
        this.a = new DMatrixRMaj(capacity, capacity);
        model.jacobian(0, x, a);
        this.b = new double[capacity];
        double[] noise = new double[capacity];
        for (int i = 0; i < capacity; i++) {
            double hPrevious = i == 0 ? 1.0 : limit.selection(x[i - 1]);
            double next = i + 1 < capacity ? x[i + 1] : 0.0;
            b[i] = hPrevious - limit.selection(x[i]);
            noise[i] = lambda * b[i] + (i + 1) * (x[i] - next);
        }
        this.q = CommonOps_DDRM.diag(noise);
        // The size corrections of distinct sampling enter V through the policy's own jets.
        SteadyStateExpansion expansion = new RefinedMeanField(1).steadyState(
                new TailModel(system, policy, ArrivalRate.constant(lambda), capacity), x);
        this.w = expansion.covarianceTerm();
        this.v = expansion.firstOrderTerm();
        this.spectralGap = -expansion.spectralAbscissa();
        this.dx = solve(a, negate(b));
        // D²F[u, u]_i = λ(h″(x_{i−1}) u_{i−1}² − h″(x_i) u_i²);  (D_x b · u)_i = h′(x_{i−1}) u_{i−1} − h′(x_i) u_i.
        double[] rhs = new double[capacity];
        for (int i = 0; i < capacity; i++) {
            double second = -limit.selectionDerivative(2, x[i]) * dx[i] * dx[i];
            double first = -limit.selectionDerivative(1, x[i]) * dx[i];
            if (i > 0) {
                second += limit.selectionDerivative(2, x[i - 1]) * dx[i - 1] * dx[i - 1];
                first += limit.selectionDerivative(1, x[i - 1]) * dx[i - 1];
            }
            rhs[i] = -(lambda * second + 2 * first);
        }
        this.d2x = solve(a, rhs);
    }

    /**
     * @param capacity pool capacity {@code C ≥ 1}
     * @param policy {@link RandomRouting} or {@link PowerOfD} (with replacement, or distinct pools:
     *        then only its sampling scheme matters, the expansion is about {@code N = ∞})
     * @param lambda per-pool arrival rate {@code λ > 0}
     * @return the fixed point and its OU limit
     */
    public static LossPoolLimit of(int capacity, SmoothRouting policy, double lambda) {
        Require.atLeast("capacity", capacity, 1);
        Require.positive("lambda", lambda);
        // A, Q, W and the Lyapunov solver's Schur factors and workspace: about eight C x C matrices
        FixedPointSolver.requireDenseFits("capacity", "Ornstein-Uhlenbeck limit", capacity, DENSE_MATRICES,
                "use a smaller capacity C, or --system pools when blocking is negligible");
        return new LossPoolLimit(capacity, policy, lambda);
    }

    /** @return a copy of the model at another load {@code λ} */
    public LossPoolLimit atLoad(double otherLambda) {
        return of(capacity, policy, otherLambda);
    }

    /** @return the capacity {@code C} */
    public int capacity() {
        return capacity;
    }

    /** @return the policy (its sampling scheme decides the 1/N term {@code g}) */
    public SmoothRouting policy() {
        return policy;
    }

    /** @return the load {@code λ} */
    public double lambda() {
        return lambda;
    }

    /** @return the fixed point {@code x*_1..x*_C} */
    public double[] fixedPoint() {
        return x.clone();
    }

    /** @return the mean-field blocking probability {@code h(x*_C)} */
    public double blocking() {
        return limit.selection(x[capacity - 1]);
    }

    /** @return the drift's Jacobian {@code A = D_x F(x*)} */
    public DMatrixRMaj driftJacobian() {
        return a.copy();
    }

    /** @return {@code b = ∂F/∂λ} at {@code x*} */
    public double[] loadSensitivity() {
        return b.clone();
    }

    /** @return the diffusion matrix {@code Q} at {@code x*} (diagonal) */
    public DMatrixRMaj noise() {
        return q.copy();
    }

    /** @return {@code W}, the stationary covariance of the OU limit ({@code N·Cov(x^N) → W}) */
    public DMatrixRMaj covariance() {
        return w.copy();
    }

    /** @return {@code V}, the 1/N term of {@code E[x^N]} */
    public double[] refinedTerm() {
        return v.clone();
    }

    /** @return {@code d(x*)/dλ = −A⁻¹ b} */
    public double[] fixedPointDerivative() {
        return dx.clone();
    }

    /** @return {@code d²(x*)/dλ²} */
    public double[] fixedPointSecondDerivative() {
        return d2x.clone();
    }

    /**
     * @param beta the {@code β} of {@code λ_N = λ − β/√N}
     * @return {@code m = β A⁻¹ b = −β d(x*)/dλ}, the stationary mean of the OU limit
     */
    public double[] ouMean(double beta) {
        Require.finite("beta", beta);
        double[] m = new double[capacity];
        for (int i = 0; i < capacity; i++) {
            m[i] = 0.0 - beta * dx[i]; // never −0.0
        }
        return m;
    }

    /** @return the spectral gap of {@code A}: minus its largest real eigenvalue (the slowest relaxation rate) */
    public double spectralGap() {
        return spectralGap;
    }

    /**
     * @return {@code τ_i = [(−A)⁻¹ W + W (−A)⁻ᵀ]_ii}, the asymptotic variance of time averages of
     *         {@code x_i}: {@code Var((1/T) ∫_0^T x^N_i dt) ≈ τ_i/(N T)} for long windows
     */
    public double[] timeAverageVariance() {
        return TimeAverages.asymptoticVariance(a, w, CommonOps_DDRM.identity(capacity));
    }

    /** @return {@code R_B = h′(x*_C) V_C + ½ h″(x*_C) W_CC + g(x*_C)}, the 1/N term of the blocking probability */
    public double blockingCorrection() {
        int c = capacity - 1;
        return limit.selectionDerivative(1, x[c]) * v[c] + 0.5 * limit.selectionDerivative(2, x[c]) * w.get(c, c)
                + policy.sizeCorrectionDerivative(1, 0, x[c]);
    }

    /** @return {@code R_B} by Little's law, {@code −Σ V_i / λ} (equal to {@link #blockingCorrection()}) */
    public double blockingCorrectionByLittle() {
        double sum = 0;
        for (double vi : v) {
            sum += vi;
        }
        return -sum / lambda;
    }

    /** @return {@code h′(x*_C)} of the limit policy */
    double selectionSlope() {
        return limit.selectionDerivative(1, x[capacity - 1]);
    }

    /** @return {@code h″(x*_C)} of the limit policy */
    double selectionCurvature() {
        return limit.selectionDerivative(2, x[capacity - 1]);
    }

    /** @return {@code h(y)} of the limit policy */
    double selection(double y) {
        return limit.selection(y);
    }

    private static double[] solve(DMatrixRMaj matrix, double[] rhs) {
        DMatrixRMaj solution = new DMatrixRMaj(rhs.length, 1);
        if (!CommonOps_DDRM.solve(matrix.copy(), new DMatrixRMaj(rhs.length, 1, true, rhs), solution)) {
            throw new MflbException(ErrorKind.UNSTABLE, "lambda", "the drift's Jacobian is singular at the fixed point");
        }
        return solution.getData().clone();
    }

    private static double[] negate(double[] y) {
        double[] z = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            z[i] = -y[i];
        }
        return z;
    }

    @Override
    public String toString() {
        return policy.limit().name() + (policy.dependsOnSize() ? " (distinct pools)" : "") + " on loss pools (C = "
                + capacity + "), lambda = " + lambda;
    }
}
