/**
 * Fluid limits of single-server FIFO queues whose servers come in classes of speeds (docs/models.md
 * §10): class {@code k} is the fraction {@code a_k} of the servers and serves at speed {@code s_k}.
 * {@link org.mflb.fluid.heterogeneous.HeterogeneousModel} is the density-dependent population
 * process on {@code y_{k,i}} (fraction of all servers of class {@code k} with at least {@code i} jobs)
 * under random routing, speed-blind SQ(d) and SED(d), with uniform or speed-weighted sampling:
 * {@code dy_{k,i}/dt = λ r_{k,i−1}(y) − s_k (y_{k,i} − y_{k,i+1})}, with arrival shares {@code r} that are
 * polynomials in {@code y} (exact at every N for sampling with replacement, so the refined expansions
 * apply). {@link org.mflb.fluid.heterogeneous.ClassStability} gives the stability boundary
 * {@code λ* = min_m C_m/A_m^d} and the growth beyond it, {@link org.mflb.fluid.heterogeneous.HeterogeneousFluid}
 * the fixed point with per-class tails, transients and the refined terms.
 *
 * <p>Depends on solver-core only (the model vocabulary {@code org.mflb.core.system.ServerClasses}, the
 * fixed-point, transient and refined solvers); the simulator must never depend on it.
 */
package org.mflb.fluid.heterogeneous;
