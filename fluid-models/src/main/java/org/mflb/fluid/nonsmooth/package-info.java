/**
 * Dispatching policies whose fluid limit has a discontinuous, piecewise-smooth drift, integrated exactly
 * (docs/models.md §3; [GABL] eq. (2)): the threshold policy {@link ThresholdPolicy} with its regimes (a)
 * {@code x_ℓ < 1}, (b) sliding on {@code x_ℓ = 1} and (c) sliding on {@code x_h = 1} ({@code h = ℓ + 1};
 * JIQ is threshold 0), {@link JoinShortestQueue} (regime (b) at the moving minimum level), and the
 * self-learning threshold {@link AdaptiveThreshold}, whose {@code ℓ(t)} jumps up when {@code x_{ℓ+1}}
 * reaches 1 and down when {@code x_ℓ} falls to {@code α}. A {@link NonSmoothPolicy} says which smooth
 * piece ({@link Regime}) is in force at a state, which {@link Regime.Surface surfaces} end it and which
 * piece follows; {@link PiecewiseSmoothSolver} integrates piece by piece with Dormand–Prince and event
 * location on every switching surface, integrates sliding pieces on their surface with the pinned levels
 * held at exactly 1, takes regime (a) through its deficit {@code G = Σ_{i≤ℓ} (1 − x_i)} with the stiff
 * split below the threshold by the L-stable {@code RadauIIA}, and never smooths a switch.
 * {@link ThresholdEquilibria} gives the closed-form equilibria (the balanced state {@code q*}, the
 * Erlang-B-like law for {@code ℓ > ⌊λ⌋}, the unbounded support for {@code h < λ}; docs/models.md §2–3),
 * reported as a {@link SwitchedEquilibrium}; a transient's pieces, switches and threshold jumps are its
 * {@link RegimeHistory}.
 *
 * <p><b>Dependencies:</b> solver-core ({@code org.mflb.core.model}, {@code org.mflb.core.ode}) and
 * {@code org.mflb.fluid} for the {@code FluidPolicy} interface only. This package must not depend on the
 * simulator, whose token dispatchers implement the same policies from their definition, nor on the PDE,
 * the validation catalogue or the command line.
 */
package org.mflb.fluid.nonsmooth;
