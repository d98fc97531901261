/**
 * SQ(d) with memory [AD] in single-server queues (docs/models.md §1a, derived): the dispatcher remembers
 * the last queue length it observed at each server, samples {@code d} servers per arrival, refreshes their
 * observations and sends the job to a server with the smallest observation. The fluid lives on the (queue,
 * observation) state {@code y_{i,j}}, {@code 0 ≤ i ≤ j} ({@code MemoryLattice}), and its drift
 * ({@code MemoryDrift}) depends on the active level {@code ℓ}, the lowest observation carrying mass;
 * {@code MemorySolver} integrates it piece by piece and locates both switches exactly (the active level
 * emptied, {@code M_ℓ = 0}; the pool share {@code F_ℓ} reaching 0), recorded as {@link MemorySwitch}es.
 * {@link MemoryFixedPoint} solves the tagged-server chain on the observation levels {@code L} and
 * {@code L + 1}, {@code L = ⌈r⌉ − 1}, {@code r = −ln(1−λ)/ln(1+λd)}. The policy is {@link MemoryPolicy}, a
 * {@code FluidPolicy}, so {@code FluidModel.of(system, policy, λ)} solves it with {@link MemoryModel}; the
 * results ({@link MemoryTransient}, the fixed point) add the level {@code L}, the shares of jobs sent to
 * idle and to believed-idle servers and the shares {@code s_j} of the response-time law (docs/models.md
 * §7).
 *
 * <p><b>Dependencies:</b> solver-core and {@code org.mflb.fluid} (the policy interface, truncation and
 * tail vectors) only. This package must not depend on the simulator, whose memory dispatcher runs the
 * algorithm itself, nor on the PDE, the validation catalogue or the command line.
 */
package org.mflb.fluid.memory;
