package org.mflb.core.fixedpoint;

import java.util.ArrayList;
import java.util.List;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/**
 * A population model restricted to the affine subspace {@code x = x₀ + P y} it moves on, {@code P}
 * ({@code K×r}, orthonormal columns) spanning its jump vectors: in the coordinates {@code y} the
 * drift is {@code Pᵀ f(x₀ + P y)}, the Jacobian {@code Pᵀ Df P} and the jumps {@code Pᵀ ℓ}. The
 * conservation laws {@code cᵀx = cᵀx₀} ({@code cᵀℓ = 0} for every jump) hold by construction, and
 * the Jacobian no longer has their zero eigenvalues.
 */
final class AffineRestriction implements PopulationModel {

    private final PopulationModel model;
    private final double[] origin;
    private final double[] basis;
    private final int n;
    private final int r;
    private final List<Transition> jumps;

    AffineRestriction(PopulationModel model, double[] origin, double[] basis, int rank) {
        this.model = model;
        this.origin = origin.clone();
        this.basis = basis;
        this.n = model.getDimension();
        this.r = rank;
        List<Transition> reduced = new ArrayList<>();
        for (Transition t : model.transitions()) {
            double[] y = new double[r];
            for (int k = 0; k < t.size(); k++) {
                for (int j = 0; j < r; j++) {
                    y[j] += basis[t.index(k) * r + j] * t.value(k);
                }
            }
            int[] idx = new int[r];
            for (int j = 0; j < r; j++) {
                idx[j] = j;
            }
            reduced.add(new Transition(idx, y));
        }
        this.jumps = reduced;
    }

    /** @return {@code x₀ + P y} */
    double[] lift(double[] y) {
        double[] x = origin.clone();
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < r; j++) {
                s += basis[i * r + j] * y[j];
            }
            x[i] += s;
        }
        return x;
    }

    @Override
    public int getDimension() {
        return r;
    }

    @Override
    public List<Transition> transitions() {
        return jumps;
    }

    @Override
    public void rates(double t, double[] y, double[] beta) {
        model.rates(t, lift(y), beta);
    }

    @Override
    public void drift(double t, double[] y, double[] g) {
        double[] f = new double[n];
        model.drift(t, lift(y), f);
        java.util.Arrays.fill(g, 0.0);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < r; j++) {
                g[j] += basis[i * r + j] * f[i];
            }
        }
    }

    @Override
    public void jacobian(double t, double[] y, DMatrixRMaj jacobian) {
        DMatrixRMaj full = new DMatrixRMaj(n, n);
        model.jacobian(t, lift(y), full);
        DMatrixRMaj p = DMatrixRMaj.wrap(n, r, basis);
        DMatrixRMaj fp = new DMatrixRMaj(n, r);
        org.ejml.dense.row.CommonOps_DDRM.mult(full, p, fp);
        jacobian.reshape(r, r);
        org.ejml.dense.row.CommonOps_DDRM.multTransA(p, fp, jacobian);
    }

    @Override
    public ArrivalRate arrivalRate() {
        return model.arrivalRate();
    }
}
