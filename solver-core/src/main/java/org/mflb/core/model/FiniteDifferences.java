package org.mflb.core.model;

import org.ejml.data.DMatrixRMaj;

/**
 * Numerical derivatives of a drift field: the fallback for models without closed-form
 * derivatives, and the reference the analytic Jacobians are tested against.
 */
public final class FiniteDifferences {

    private FiniteDifferences() {
    }

    /**
     * Central-difference Jacobian {@code (f(x + h e_j) − f(x − h e_j)) / 2h}, with
     * {@code h = ε^{1/3}·max(1, |x_j|)} which balances truncation {@code O(h²)} against rounding
     * {@code O(ε/h)}: about 1e-10 absolute accuracy for drifts of order one.
     *
     * @param field the drift
     * @param t time
     * @param x point (not modified)
     * @param jacobian {@code K×K} output (modified, reshaped if needed)
     */
    public static void jacobian(DriftField field, double t, double[] x, DMatrixRMaj jacobian) {
        int n = field.getDimension();
        jacobian.reshape(n, n);
        double[] xp = x.clone();
        double[] fPlus = new double[n];
        double[] fMinus = new double[n];
        double cubeRootEps = Math.cbrt(Math.ulp(1.0));
        for (int j = 0; j < n; j++) {
            double h = cubeRootEps * Math.max(1.0, Math.abs(x[j]));
            xp[j] = x[j] + h;
            field.drift(t, xp, fPlus);
            xp[j] = x[j] - h;
            field.drift(t, xp, fMinus);
            xp[j] = x[j];
            for (int i = 0; i < n; i++) {
                jacobian.unsafe_set(i, j, (fPlus[i] - fMinus[i]) / (2 * h));
            }
        }
    }
}
