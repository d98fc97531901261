package org.mflb.core.linalg;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * Test oracle: solves {@code Σ_k M_k ×_k X = C} by forming the Kronecker sum
 * {@code Σ_k I ⊗ … ⊗ M_k ⊗ … ⊗ I} explicitly ({@code (Π n_k)²} entries) and factorising it with
 * EJML's partial-pivoting LU. {@code O((Π n_k)³)}: only for small problems, and independent of the
 * Schur machinery it checks.
 */
final class KroneckerOracle {

    private KroneckerOracle() {
    }

    static double[] solve(DMatrixRMaj[] m, double[] c) {
        int p = m.length;
        int[] dims = new int[p];
        int size = 1;
        for (int k = 0; k < p; k++) {
            dims[k] = m[k].numRows;
            size *= dims[k];
        }
        DMatrixRMaj op = new DMatrixRMaj(size, size);
        for (int k = 0; k < p; k++) {
            int before = 1;
            for (int j = 0; j < k; j++) {
                before *= dims[j];
            }
            int after = size / (before * dims[k]);
            DMatrixRMaj term = CommonOps_DDRM.kron(
                    CommonOps_DDRM.kron(CommonOps_DDRM.identity(before), m[k], null),
                    CommonOps_DDRM.identity(after), null);
            CommonOps_DDRM.addEquals(op, term);
        }
        LinearSolverDense<DMatrixRMaj> lu = LinearSolverFactory_DDRM.lu(size);
        if (!lu.setA(op)) {
            throw new IllegalStateException("oracle: singular operator");
        }
        DMatrixRMaj x = new DMatrixRMaj(size, 1);
        lu.solve(DMatrixRMaj.wrap(size, 1, c.clone()), x);
        return x.data;
    }
}
