/**
 * JSQ in the Halfin–Whitt regime (docs/models.md §9; [EG], [Bra]): {@code N} exp(1) servers, arrivals at
 * rate {@code Nλ_N} with {@code λ_N = 1 − β/√N}, and the scaled occupancies {@code X₁ = (Q₁ − N)/√N ≤ 0},
 * {@code X₂ = Q₂/√N}, whose limit is the reflected Ornstein–Uhlenbeck process
 * {@code dX₁ = √2 dW − (β + X₁ − X₂) dt − dU}, {@code dX₂ = dU − X₂ dt} ({@link HalfinWhittJsq}). No
 * closed form of its stationary law is known, so {@link HalfinWhittLimit} computes it with an error
 * estimate by two independent routes: Kushner's Markov-chain approximation [KD] on lattices of step
 * {@code h} ({@link HalfinWhittLattice}: Scharfetter–Gummel rates in {@code x₁}, upwind in {@code x₂}, the
 * reflection as a push), and the exact capacity-2 {@code N}-server chain ({@link JsqPrelimit}, with
 * {@code h = N^{−1/2}}), each a quasi-birth–death {@link LevelChain} with a rank-one up-matrix solved
 * exactly in {@code O(states)} by {@link LevelReduction} and extrapolated to {@code h = 0}
 * ({@code Extrapolation}, Richardson–Neville). The results are {@link HalfinWhittStatistics} (moments,
 * local-time rate {@code E[dU/dt]}, marginal tails), the transient means of {@link HalfinWhittTransient}
 * (by uniformisation, {@link LevelChainTransient}), and {@link RateFit}, the measured rate {@code 1/√N} of
 * [Bra].
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core} and Hipparchus only. This package solves chains it writes
 * from the definition of JSQ; it must not depend on the tail-vector fluid models of
 * {@code org.mflb.fluid}, on the simulator (which gives the third, simulated route), the validation
 * catalogue or the command line.
 */
package org.mflb.fluid.diffusion;
