/**
 * The refined mean field and the size expansions of a population process (docs/models.md §4; [GVH] for the
 * 1/N term, [GBT] Theorem 2 for the 1/N² terms), for any {@link org.mflb.core.model.PopulationModel}, the
 * built-in policies and model files alike. With {@code F = Df(π)}, {@code Q = Σ_ℓ ℓℓᵀ β_ℓ(π)} and the
 * sources of {@link MomentEquations}, {@link RefinedMeanField} solves in steady state the Lyapunov
 * equation {@code F W + W Fᵀ + Q = 0} ({@code N·Cov(X^N) → W}, the linear-noise approximation),
 * {@code F V + ½ F'':W = 0} (so {@code E[X^N] = π + V/N + O(1/N²)}) and, at order 2, the equations for
 * {@code A}, {@code B} and {@code C}, all with one real Schur form of {@code F}; along a transient it
 * integrates the same equations with {@code V(0) = W(0) = 0} together with the fluid path. The results are
 * a {@link SteadyStateExpansion} and a {@link TransientExpansion}. Conservation laws are handled on the
 * subspace spanned by the jumps ({@link JumpSubspace}); rates that depend on {@code N}
 * ({@link SizeDependentPopulationModel}, e.g. SQ(d) with {@code d} distinct servers, docs/models.md §1)
 * contribute their own 1/N term.
 *
 * <p>Derivatives of the rates ({@link RateDerivatives}: per-transition jets on each rate's support,
 * {@link RateJets}) come from the model's closed forms, from exact forward-mode automatic differentiation
 * of a {@link SmoothPopulationModel}'s field-typed rates ({@link AutomaticRateDerivatives}, Hipparchus
 * {@code DerivativeStructure}, with supports grouped by {@code SupportColouring}), or from finite
 * differences ({@link FiniteDifferenceRateDerivatives}, order 1 only).
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.core.model},
 * {@code org.mflb.core.linalg}, Hipparchus and EJML. The expansions see a model only through its
 * transitions, rates and derivatives: this package knows no policy's drift and must not depend on
 * fluid-models, the PDE or the simulator, nor on the fixed-point solver (the caller supplies {@code π}).
 */
package org.mflb.core.refined;
