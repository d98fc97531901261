package org.mflb.core.model;

import java.util.List;

import org.ejml.data.DMatrixRMaj;

/**
 * A density-dependent population process in the sense of Kurtz: a Markov chain on
 * {@code (1/N)ℤ^K} whose transition {@code ℓ} fires at rate {@code N·β_ℓ(x, t)}. Its fluid
 * (mean-field) limit is the ODE {@code dx/dt = f(x, t)} with drift
 * <pre>
 *   f(x, t) = Σ_ℓ ℓ β_ℓ(x, t).
 * </pre>
 * Implementations override {@link #drift} and {@link #jacobian} with closed forms where they have
 * them; the defaults sum over transitions and difference the drift numerically.
 */
public interface PopulationModel extends DriftField {

    /** @return the transition classes (jump vectors), in the order used by {@link #rates} */
    List<Transition> transitions();

    /**
     * Evaluates the transition rates.
     *
     * @param t time
     * @param x state (not modified)
     * @param beta {@code β_ℓ(x, t)} for every transition, in the order of {@link #transitions()} (modified)
     */
    void rates(double t, double[] x, double[] beta);

    /** The drift {@code Σ ℓ β_ℓ(x, t)}, summed over the transitions. */
    @Override
    default void drift(double t, double[] x, double[] f) {
        List<Transition> jumps = transitions();
        double[] beta = new double[jumps.size()];
        rates(t, x, beta);
        java.util.Arrays.fill(f, 0.0);
        for (int l = 0; l < beta.length; l++) {
            Transition jump = jumps.get(l);
            for (int k = 0; k < jump.size(); k++) {
                f[jump.index(k)] += jump.value(k) * beta[l];
            }
        }
    }

    /**
     * The Jacobian {@code ∂f_i/∂x_j} at {@code (x, t)}. The default is a central finite difference
     * ({@link FiniteDifferences#jacobian}).
     *
     * @param jacobian {@code K×K} output (modified)
     */
    default void jacobian(double t, double[] x, DMatrixRMaj jacobian) {
        FiniteDifferences.jacobian(this, t, x, jacobian);
    }

    /**
     * Lower and upper bandwidth of the Jacobian: {@code ∂f_i/∂x_j = 0} whenever
     * {@code j < i − lower} or {@code j > i + upper}. Solvers use banded factorizations when both are
     * small compared with the dimension. The default claims a full matrix.
     *
     * @return {@code {lower, upper}}
     */
    default int[] jacobianBandwidth() {
        return new int[] {getDimension() - 1, getDimension() - 1};
    }

    /**
     * The band of the Jacobian, {@code band[i][j − i + lower] = ∂f_i/∂x_j} for
     * {@code i − lower ≤ j ≤ i + upper} with {@code {lower, upper} = }{@link #jacobianBandwidth()}:
     * what banded solvers read, in {@code O(K·(lower + upper))} memory instead of {@code K²}. The
     * default copies the band out of {@link #jacobian}; models with thousands of levels override it.
     *
     * @param band {@code K} rows of {@code lower + upper + 1} entries (overwritten)
     */
    default void bandedJacobian(double t, double[] x, double[][] band) {
        int n = getDimension();
        int[] width = jacobianBandwidth();
        DMatrixRMaj dense = new DMatrixRMaj(n, n);
        jacobian(t, x, dense);
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(band[i], 0.0);
            for (int j = Math.max(0, i - width[0]); j <= Math.min(n - 1, i + width[1]); j++) {
                band[i][j - i + width[0]] = dense.unsafe_get(i, j);
            }
        }
    }

    /** @return the arrival rate that drives the model */
    ArrivalRate arrivalRate();
}
