/**
 * Stationary laws of finite continuous-time Markov chains: the exact small-{@code N} truths that
 * asymptotic approximations are measured against (the exact loss-pool chain of docs/models.md §8).
 * {@link TransitionRates} stores the off-diagonal rates {@code q(i, j)} by target state (compressed rows
 * of {@code Qᵀ}), and {@link StationaryDistribution} solves the global balance equations {@code π Q = 0},
 * {@code Σ π_j = 1}, by Gauss–Seidel sweeps, stopping on the relative residual
 * {@code max_j |(πQ)_j| / max_j π_j q_j} rather than on the size of a step; reaching the sweep limit is an
 * error, never a result.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core} only. A chain here is given by its rates, written by the
 * caller from the model's definition; this package must not depend on any other package of mflb, and in
 * particular on no drift or fluid model, so that an exact chain built on it stays independent of the
 * approximations it checks.
 */
package org.mflb.core.markov;
