package org.mflb.fluid.loss;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The asymptotic variance of time averages of a stationary Ornstein–Uhlenbeck process
 * {@code dZ = A Z dt + Q^{1/2} dB} with stationary covariance {@code W}: its autocovariance is
 * {@code e^{A t} W} ({@code t ≥ 0}), so
 * <pre>
 *   lim T·Var((1/T) ∫_0^T Z dt) = ∫_{−∞}^{∞} Cov(Z_t, Z_0) dt = (−A)⁻¹ W + W (−A)⁻ᵀ,
 * </pre>
 * observed through a linear map {@code L} ({@code docs/models.md §8}).
 */
final class TimeAverages {

    private TimeAverages() {
    }

    /**
     * @param a a Hurwitz matrix {@code A} (not modified)
     * @param w the stationary covariance (not modified)
     * @param l the observation map (rows: observed coordinates; not modified)
     * @return {@code diag L [(−A)⁻¹ W + W (−A)⁻ᵀ] Lᵀ}
     */
    static double[] asymptoticVariance(DMatrixRMaj a, DMatrixRMaj w, DMatrixRMaj l) {
        int n = a.numRows;
        DMatrixRMaj minusA = a.copy();
        CommonOps_DDRM.scale(-1, minusA);
        DMatrixRMaj m = new DMatrixRMaj(n, n);
        if (!CommonOps_DDRM.solve(minusA, w, m)) {
            throw new MflbException(ErrorKind.UNSTABLE, "lambda", "the drift's Jacobian is singular at the fixed point");
        }
        double[] tau = new double[l.numRows];
        DMatrixRMaj lm = new DMatrixRMaj(l.numRows, n);
        CommonOps_DDRM.mult(l, m, lm);
        for (int i = 0; i < l.numRows; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += lm.get(i, j) * l.get(i, j);
            }
            tau[i] = 2 * s; // L M Lᵀ + (L M Lᵀ)ᵀ on the diagonal
        }
        return tau;
    }
}
