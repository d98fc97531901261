package org.mflb.core.refined;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.SingularOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.linalg.Tensors;

/**
 * The linear subspace {@code S = span{ℓ}} spanned by the jumps, on which the process moves:
 * {@code X^N(t) − X^N(0) ∈ S}. When the jumps conserve a linear quantity ({@code cᵀℓ = 0} for all
 * {@code ℓ}, e.g. the total mass of an occupancy vector) then {@code cᵀf ≡ 0}, {@code cᵀDf = 0} and
 * the Jacobian is singular; every moment of {@code Y = X^N − x} lives in {@code S⊗…⊗S} and the
 * equations are solved in coordinates of an orthonormal basis {@code P} ({@code K×r}) of {@code S}:
 * operator {@code PᵀFP}, sources projected with {@code Pᵀ} on every axis, solutions lifted with
 * {@code P}. The basis is the right singular vectors of the jump matrix with singular values above
 * {@value #RANK_TOLERANCE} times the largest. The fixed point of a model with conservation laws is
 * sought on the affine subspace {@code x(0) + S} ({@link #of(java.util.List, int)}, {@link #basis()}).
 */
public final class JumpSubspace {

    /** Relative singular-value threshold for the rank of the jump matrix (jumps are O(1) vectors). */
    static final double RANK_TOLERANCE = 1e-10;

    final int n;
    final int rank;
    /** {@code P}, {@code n×r} row-major; null when {@code r = n} (no reduction). */
    private final double[] basis;

    private JumpSubspace(int n, int rank, double[] basis) {
        this.n = n;
        this.rank = rank;
        this.basis = basis;
    }

    static JumpSubspace of(MomentEquations eq) {
        return of(eq.n, eq.count, eq.jumpIndex, eq.jumpValue);
    }

    /**
     * @param jumps the transitions' jump vectors
     * @param n dimension of the state
     * @return the subspace they span
     */
    public static JumpSubspace of(java.util.List<org.mflb.core.model.Transition> jumps, int n) {
        int[][] index = new int[jumps.size()][];
        double[][] value = new double[jumps.size()][];
        for (int l = 0; l < index.length; l++) {
            org.mflb.core.model.Transition t = jumps.get(l);
            index[l] = new int[t.size()];
            value[l] = new double[t.size()];
            for (int k = 0; k < t.size(); k++) {
                index[l][k] = t.index(k);
                value[l][k] = t.value(k);
            }
        }
        return of(n, index.length, index, value);
    }

    private static JumpSubspace of(int n, int jumpCount, int[][] jumpIndex, double[][] jumpValue) {
        // Fast path: a single-coordinate jump for every coordinate spans everything (SQ(d) tails).
        boolean[] unit = new boolean[n];
        int covered = 0;
        for (int l = 0; l < jumpCount; l++) {
            if (jumpIndex[l].length == 1 && jumpValue[l][0] != 0.0 && !unit[jumpIndex[l][0]]) {
                unit[jumpIndex[l][0]] = true;
                covered++;
            }
        }
        if (covered == n) {
            return new JumpSubspace(n, n, null);
        }
        DMatrixRMaj jumps = new DMatrixRMaj(Math.max(jumpCount, 1), n);
        for (int l = 0; l < jumpCount; l++) {
            for (int k = 0; k < jumpIndex[l].length; k++) {
                jumps.add(l, jumpIndex[l][k], jumpValue[l][k]);
            }
        }
        SingularValueDecomposition_F64<DMatrixRMaj> svd =
                DecompositionFactory_DDRM.svd(jumps.numRows, n, false, true, false);
        if (!svd.decompose(jumps)) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "SVD of the jump matrix did not converge");
        }
        DMatrixRMaj v = svd.getV(null, false);
        double[] sigma = svd.getSingularValues();
        int count = Math.min(sigma.length, n);
        // Order singular values (and V's columns) decreasingly.
        DMatrixRMaj wDiag = new DMatrixRMaj(count, count);
        for (int i = 0; i < count; i++) {
            wDiag.set(i, i, sigma[i]);
        }
        DMatrixRMaj vCols = new DMatrixRMaj(v.numRows, count);
        CommonOps_DDRM.extract(v, 0, v.numRows, 0, count, vCols, 0, 0);
        SingularOps_DDRM.descendingOrder(null, false, wDiag, vCols, false);
        double largest = count == 0 ? 0 : wDiag.get(0, 0);
        int rank = 0;
        while (rank < count && wDiag.get(rank, rank) > RANK_TOLERANCE * largest) {
            rank++;
        }
        if (rank == 0) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "model", "model has no non-zero jump: nothing fluctuates");
        }
        if (rank == n) {
            return new JumpSubspace(n, n, null);
        }
        double[] p = new double[n * rank];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < rank; j++) {
                p[i * rank + j] = vCols.get(i, j);
            }
        }
        return new JumpSubspace(n, rank, p);
    }

    boolean isFull() {
        return basis == null;
    }

    /** @return the dimension {@code r} of the subspace (the state's dimension less the conservation laws) */
    public int rank() {
        return rank;
    }

    /** @return an orthonormal basis {@code P} of the subspace, {@code n×r} row-major (the identity when {@code r = n}) */
    public double[] basis() {
        if (basis != null) {
            return basis.clone();
        }
        double[] identity = new double[n * n];
        for (int i = 0; i < n; i++) {
            identity[i * n + i] = 1.0;
        }
        return identity;
    }

    /** @return {@code X ×_k Pᵀ} on each of the {@code p} axes ({@code n^p → r^p}); the input itself when full */
    double[] project(double[] tensor, int p) {
        return basis == null ? tensor : Tensors.multilinear(tensor, p, basis, n, rank, true);
    }

    /** @return {@code X ×_k P} on each of the {@code p} axes ({@code r^p → n^p}); the input itself when full */
    double[] lift(double[] tensor, int p) {
        return basis == null ? tensor : Tensors.multilinear(tensor, p, basis, n, rank, false);
    }

    /** @return the reduced operator {@code PᵀFP} ({@code r×r}) of an {@code n×n} row-major {@code F} */
    DMatrixRMaj reduce(double[] f) {
        if (basis == null) {
            return new DMatrixRMaj(n, n, true, f);
        }
        // Pᵀ F P = project on both axes of the matrix viewed as a 2-tensor.
        return new DMatrixRMaj(rank, rank, true, Tensors.multilinear(f, 2, basis, n, rank, true));
    }
}
