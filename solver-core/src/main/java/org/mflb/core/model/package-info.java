/**
 * The abstractions every solver works on and the inputs every layer shares. A {@link PopulationModel} is a
 * density-dependent population process in the sense of [Kurtz] (docs/models.md §0): a chain on
 * {@code (1/N)ℤ^K} whose transition {@link Transition ℓ} fires at rate {@code N·β_ℓ(x, t)}, with fluid
 * limit {@code dx/dt = f(x, t) = Σ_ℓ ℓ β_ℓ(x, t)}; a {@link DriftField} is the drift alone, all the
 * transient and fixed-point solvers need, and {@link FiniteDifferences} the numerical Jacobian that closed
 * forms are tested against. Every smooth fluid model of mflb, and every model file, is one of these, which
 * is what lets one refined-mean-field solver serve them all.
 *
 * <p>The shared inputs: the per-server arrival rate {@link ArrivalRate} {@code λ(t)} (the system receives
 * a Poisson stream of rate {@code N·λ(t)}), constant or the {@link PiecewiseLinearRate} read from a CSV
 * file by {@link ArrivalProfiles}; the starting state {@link InitialState} as a tail vector {@code x_i} =
 * fraction of servers with at least {@code i} jobs (docs/models.md §0), which the fluid models, the
 * simulator and the PDE each turn into what they integrate or simulate; and {@link MemoryState}, the
 * (queue, observation) state {@code y_{i,j}} of SQ(d) with memory (docs/models.md §1a, [AD]).
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core} and EJML only. This package must not depend on any other
 * package of solver-core (the solvers depend on it, not the reverse), and knows no dispatching policy,
 * server system or service law: a policy's drift is written in fluid-models, against these interfaces.
 */
package org.mflb.core.model;
