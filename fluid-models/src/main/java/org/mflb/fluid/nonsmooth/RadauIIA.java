package org.mflb.fluid.nonsmooth;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The three-stage Radau IIA collocation method (order 5, L-stable, stiffly accurate; Hairer and
 * Wanner, <i>Solving ODEs II</i>, §IV.5) for small stiff systems {@code y' = f(t, y)}, with a
 * simplified Newton iteration on the stage increments {@code Z_i = Y_i − y_0}
 * <pre>
 *   Z_i = h Σ_k a_ik f(t_0 + c_i h, y_0 + Z_k),   y_1 = y_0 + Z_3,
 *   c = ((4 − √6)/10, (4 + √6)/10, 1),
 * </pre>
 * and step-size control by step doubling (one step of {@code h} against two of {@code h/2}; the
 * two-half-step result is kept). Used for the lower gaps of the threshold policy's regime (a),
 * whose relaxation rate {@code λ/(1 − q_ℓ)} is unbounded as {@code q_ℓ → 1} (see {@link LowerGaps}).
 * Dense linear algebra on the {@code 3n × 3n} Newton matrix: meant for {@code n} up to a few tens.
 * Not thread-safe (work arrays are reused; nothing is allocated per step).
 */
final class RadauIIA {

    /** A stiff system with its Jacobian. */
    interface StiffSystem {
        /** @return the dimension {@code n} */
        int dimension();

        /** @param f the derivative {@code f(t, y)}; modified */
        void derivatives(double t, double[] y, double[] f);

        /** @param jacobian {@code ∂f_i/∂y_j}; modified */
        void jacobian(double t, double[] y, double[][] jacobian);
    }

    /** Receives the state after every accepted step. */
    interface StepListener {
        /** @param y the state (not to be kept: copy it) */
        void accepted(double t, double[] y);
    }

    private static final double S6 = Math.sqrt(6.0);
    static final double[] C = {(4 - S6) / 10, (4 + S6) / 10, 1.0};
    static final double[][] A = {
        {(88 - 7 * S6) / 360, (296 - 169 * S6) / 1800, (-2 + 3 * S6) / 225},
        {(296 + 169 * S6) / 1800, (88 + 7 * S6) / 360, (-2 - 3 * S6) / 225},
        {(16 - S6) / 36, (16 + S6) / 36, 1.0 / 9}};

    /** Newton iterations before a step is declared failed (and retried with {@code h/2}). */
    private static final int MAX_NEWTON = 12;

    private final StiffSystem system;
    private final int n;
    private final double absoluteTolerance;
    private final double relativeTolerance;
    private final double[][] jacobian;
    private final double[][] matrix;
    private final int[] pivot;
    private final double[] z;
    private final double[] dz;
    private final double[] stage;
    private final double[] derivative;
    private final double[] f;
    private final double[] full;
    private final double[] half;

    /**
     * @param system the system
     * @param absoluteTolerance local error allowed per component, absolute part
     * @param relativeTolerance local error allowed per component, relative part
     */
    RadauIIA(StiffSystem system, double absoluteTolerance, double relativeTolerance) {
        this.system = system;
        this.n = system.dimension();
        this.absoluteTolerance = absoluteTolerance;
        this.relativeTolerance = relativeTolerance;
        this.jacobian = new double[n][n];
        this.matrix = new double[3 * n][3 * n];
        this.pivot = new int[3 * n];
        this.z = new double[3 * n];
        this.dz = new double[3 * n];
        this.stage = new double[n];
        this.derivative = new double[n];
        this.f = new double[3 * n];
        this.full = new double[n];
        this.half = new double[n];
    }

    /**
     * Advances {@code y} from {@code t0} to exactly {@code t1 > t0}.
     *
     * @param t0 start
     * @param y state at {@code t0}; modified: the state at {@code t1}
     * @param t1 end
     * @param h first step to try ({@code > 0}); larger than {@code t1 − t0} is fine
     * @param listener told of every accepted step, or {@code null}
     * @return a step size to try next
     */
    double advance(double t0, double[] y, double t1, double h, StepListener listener) {
        double t = t0;
        double step = Math.min(h, t1 - t0);
        double minStep = 1e-15 * Math.max(1.0, Math.abs(t1));
        while (t < t1) {
            boolean last = t + step >= t1 || t1 - (t + step) < minStep;
            double hTry = last ? t1 - t : step;
            double error = doubledStep(t, y, hTry);
            if (error <= 1.0) {
                t = last ? t1 : t + hTry;
                System.arraycopy(half, 0, y, 0, n);
                if (listener != null) {
                    listener.accepted(t, y);
                }
            }
            // h^6 local error: the usual safety factor 0.9 and growth limits
            double factor = Double.isFinite(error) ? 0.9 * Math.pow(Math.max(error, 1e-12), -1.0 / 6) : 0.25;
            step = hTry * Math.min(4.0, Math.max(0.2, factor));
            if (t < t1 && step < minStep) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, null,
                        "the lower gaps of regime (a) need a step below " + minStep + " at t = " + t);
            }
        }
        return step;
    }

    /** One step of {@code h} and two of {@code h/2} from {@code (t, y)}; {@code half} ← the latter; returns the scaled difference. */
    private double doubledStep(double t, double[] y, double h) {
        if (!step(t, y, h, full)) {
            return Double.POSITIVE_INFINITY;
        }
        if (!step(t, y, h / 2, half) || !step(t + h / 2, half, h / 2, half)) {
            return Double.POSITIVE_INFINITY;
        }
        double error = 0;
        for (int i = 0; i < n; i++) {
            double scale = absoluteTolerance + relativeTolerance * Math.max(Math.abs(y[i]), Math.abs(half[i]));
            error = Math.max(error, Math.abs(half[i] - full[i]) / scale);
        }
        return error;
    }

    /**
     * One Radau IIA step.
     *
     * @param y0 state at {@code t}; not modified (may be the same array as {@code out})
     * @param out the state at {@code t + h}; modified
     * @return whether the Newton iteration converged
     */
    boolean step(double t, double[] y0, double h, double[] out) {
        // ∂/∂Z_k of Z_i − h Σ a_ik f(t + c_k h, y0 + Z_k) is δ_ik − h a_ik J_k: the Jacobian of
        // each stage at that stage's time (at y0). The lower gaps' stiffness λ/(1 − x_ℓ) varies by
        // orders of magnitude within a step near x_ℓ = 1, and their drift is singular at the very
        // start of regime (a), a time no stage of Radau IIA touches.
        for (int k = 0; k < 3; k++) {
            system.jacobian(t + C[k] * h, y0, jacobian);
            for (int i = 0; i < 3; i++) {
                double hak = h * A[i][k];
                for (int a = 0; a < n; a++) {
                    double[] row = matrix[i * n + a];
                    for (int b = 0; b < n; b++) {
                        row[k * n + b] = (i == k && a == b ? 1.0 : 0.0) - hak * jacobian[a][b];
                    }
                }
            }
        }
        if (!factor(matrix, pivot)) {
            return false;
        }
        java.util.Arrays.fill(z, 0.0);
        double previous = Double.POSITIVE_INFINITY;
        for (int iteration = 0; iteration < MAX_NEWTON; iteration++) {
            for (int k = 0; k < 3; k++) {
                for (int a = 0; a < n; a++) {
                    stage[a] = y0[a] + z[k * n + a];
                }
                system.derivatives(t + C[k] * h, stage, derivative);
                System.arraycopy(derivative, 0, f, k * n, n);
            }
            for (int i = 0; i < 3; i++) {
                for (int a = 0; a < n; a++) {
                    double sum = 0;
                    for (int k = 0; k < 3; k++) {
                        sum += A[i][k] * f[k * n + a];
                    }
                    dz[i * n + a] = h * sum - z[i * n + a];
                }
            }
            solve(matrix, pivot, dz);
            double norm = 0;
            for (int i = 0; i < 3 * n; i++) {
                z[i] += dz[i];
                double scale = absoluteTolerance + relativeTolerance * Math.abs(y0[i % n]);
                norm = Math.max(norm, Math.abs(dz[i]) / scale);
            }
            if (!Double.isFinite(norm) || (iteration >= 2 && norm > 0.9 * previous)) {
                return false;
            }
            previous = norm;
            // Newton error well below the local error tolerance
            if (norm <= 1e-2) {
                for (int a = 0; a < n; a++) {
                    out[a] = y0[a] + z[2 * n + a];
                }
                return true;
            }
        }
        return false;
    }

    /** LU factorisation with partial pivoting, in place; false if singular. */
    static boolean factor(double[][] m, int[] pivot) {
        int size = pivot.length;
        for (int col = 0; col < size; col++) {
            int best = col;
            for (int r = col + 1; r < size; r++) {
                if (Math.abs(m[r][col]) > Math.abs(m[best][col])) {
                    best = r;
                }
            }
            pivot[col] = best;
            if (m[best][col] == 0.0 || !Double.isFinite(m[best][col])) {
                return false;
            }
            if (best != col) {
                double[] tmp = m[best];
                m[best] = m[col];
                m[col] = tmp;
            }
            double inv = 1.0 / m[col][col];
            for (int r = col + 1; r < size; r++) {
                double factor = m[r][col] * inv;
                m[r][col] = factor;
                if (factor != 0.0) {
                    double[] row = m[r];
                    double[] pivotRow = m[col];
                    for (int c = col + 1; c < size; c++) {
                        row[c] -= factor * pivotRow[c];
                    }
                }
            }
        }
        return true;
    }

    /** Solves with the factors of {@link #factor}; {@code b} is overwritten by the solution. */
    static void solve(double[][] lu, int[] pivot, double[] b) {
        int size = pivot.length;
        for (int i = 0; i < size; i++) {
            int p = pivot[i];
            if (p != i) {
                double tmp = b[p];
                b[p] = b[i];
                b[i] = tmp;
            }
        }
        for (int i = 1; i < size; i++) {
            double sum = b[i];
            double[] row = lu[i];
            for (int j = 0; j < i; j++) {
                sum -= row[j] * b[j];
            }
            b[i] = sum;
        }
        for (int i = size - 1; i >= 0; i--) {
            double sum = b[i];
            double[] row = lu[i];
            for (int j = i + 1; j < size; j++) {
                sum -= row[j] * b[j];
            }
            b[i] = sum / row[i];
        }
    }
}
