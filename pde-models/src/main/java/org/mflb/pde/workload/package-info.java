/**
 * Workload-based dispatching: LL(d), the least loaded of {@code d} servers sampled with replacement,
 * in the mean-field limit with general job sizes (docs/models.md §11, [HVH]). A server's state is its
 * workload {@code V}; its ccdf {@code F̄(t, w) = P(V(t) > w)} solves the transport equation
 * <pre>
 *   ∂F̄/∂t = ∂F̄/∂w + λ(t) [P(U + X > w) − P(U > w)],   P(U > u) = F̄(t, u)^d,
 * </pre>
 * and in equilibrium the Volterra equation {@code F̄(w) = λ[Ḡe(w) + ∫_0^w F̄(u)^d Ḡ(w − u) du]}
 * (E2). A job waits {@code W = U} and responds in {@code R = U + X} (FCFS).
 * <ul>
 * <li>{@link org.mflb.pde.workload.LeastLoaded}: the validated parameters ({@code d}, {@code λ},
 * a job-size law of mean 1), the finiteness of the mean wait, the heavy-traffic rate, and
 * {@link org.mflb.pde.workload.LeastLoaded#equilibrium(double, org.mflb.core.sojourn.Percentiles)}:
 * the march of (E2) by the product trapezoidal rule with Richardson extrapolation, a tail term and
 * error control to a requested relative accuracy of {@code E[R]} and the quantiles.</li>
 * <li>{@link org.mflb.pde.workload.WorkloadEquilibrium}: {@code F̄}, {@code E[W]}, {@code E[R]}, the
 * laws of {@code W} and {@code R} as {@link org.mflb.core.sojourn.SojournLaw}s, the error
 * estimates; an infinite mean (Pareto sizes with {@code d(α − 1) ≤ 1}) reported as such.</li>
 * <li>{@link org.mflb.pde.workload.WorkloadTransport} and
 * {@link org.mflb.pde.workload.WorkloadTransient}: the transport equation from a
 * {@link org.mflb.pde.workload.WorkloadInitialState} under a constant or time-varying
 * {@code λ(t)}, by a second-order upwind scheme along the characteristics.</li>
 * <li>{@link org.mflb.pde.workload.WorkloadBenchmark}: the speed figure of the equilibrium.</li>
 * </ul>
 * Depends on solver-core only (job-size laws, arrival rates, time grids, sojourn laws).
 */
package org.mflb.pde.workload;
