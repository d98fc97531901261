/**
 * Dense linear algebra for the size expansions of docs/models.md §4 [GVH, GBT]. {@link RealSchurForm}
 * computes {@code A = U T Uᵀ} once (Hipparchus's Hessenberg reduction and shifted QR) and
 * {@link SylvesterSolver} reuses it in the Bartels–Stewart method, generalised to Kronecker-sum equations
 * {@code Σ_k M_k ×_k X = C} in {@code p} axes: the linear system ({@code p = 1}), the Sylvester and
 * Lyapunov equations {@code A W + W Aᵀ + Q = 0} ({@code p = 2}) and the third-moment equation of the 1/N²
 * expansion ({@code p = 3}), by back substitution over the 1×1 and 2×2 diagonal blocks. {@link Tensors}
 * holds the flat row-major tensors and their mode products.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, EJML and Hipparchus's linear algebra only. This package
 * is pure linear algebra: it must not depend on any model, solver or other package of mflb.
 */
package org.mflb.core.linalg;
