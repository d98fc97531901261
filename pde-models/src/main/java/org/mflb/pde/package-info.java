/**
 * The hydrodynamic (mean-field) limit of SQ(d) in single-server queues with a general service law
 * (docs/models.md §5; [AR]), in its age form: {@code μ_ℓ(t, a)}, the density in the age {@code a} of the
 * job in service among the servers with at least {@code ℓ} jobs, solves
 * <pre>
 *   ∂_t μ_ℓ + ∂_a μ_ℓ = −η(a) μ_ℓ + 1{ℓ≥2} λ r_{ℓ−1} ν_{ℓ−1}(t, a)/(x_{ℓ−1} − x_ℓ),
 *   μ_ℓ(t, 0) = ∫ η(a) μ_{ℓ+1}(t, a) da + 1{ℓ=1} λ r_0,      r_k = x_k^d − x_{k+1}^d,
 * </pre>
 * with {@code η} the hazard of the service law (docs/models.md §6); {@code d = 1} is random routing
 * (independent M/G/1 queues). {@link HydrodynamicPde} is the entry point: transients from a
 * {@link PdeInitialState} (a tail vector plus the ages of the jobs in service) by the second-order Strang
 * splitting of {@code AgeGridScheme} on an age grid with {@code Δt = Δa}, mass-conserving and positive,
 * with an error estimate ({@link PdeTransient}); the equilibrium solved directly along the age axis on a
 * graded grid ({@code StationaryAgeSolver}, {@link PdeEquilibrium}), with heavy tails summed by
 * {@code SeriesRemainder}. {@link PdeSojournTimes} gives the waiting- and response-time laws
 * (docs/models.md §7) from the age profiles by FFT convolution on a grid ({@code SojournGrid},
 * {@link GridLaw}).
 *
 * <p><b>Dependencies:</b> solver-core (the service laws' survival, hazard and mean residual life, initial
 * states, time grids, sojourn laws) and Hipparchus's FFT only. This package must not depend on the fluid
 * models (fluid-models is a test-scope dependency only: with exponential service the PDE must reduce to
 * the ODE of docs/models.md §1, an independent check), nor on the simulator, the validation catalogue or
 * the command line.
 */
package org.mflb.pde;
