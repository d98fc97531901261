/**
 * The fluid (mean-field) limits of the dispatching policies, the entry point of the Java API.
 * {@link FluidModel#of} takes a server system, a {@link FluidPolicy} and a load {@code λ} or {@code λ(t)},
 * and gives a {@link FluidFixedPoint} (tail vector, residual, truncation and the mass it cuts off,
 * stability, blocking of loss pools) and {@link FluidTransient}s from any initial state, with the same
 * accessors for every policy. A {@link SmoothRouting} policy, {@link RandomRouting} or {@link PowerOfD}
 * (SQ(d) [Mit, VDK]; in pools [MBLW]), joins a server with at least {@code k} jobs with probability
 * {@code h(x_k)}, which gives the smooth drift of {@link TailModel} (docs/models.md §1–2),
 * <pre>
 *   dx_i/dt = λ(t)·(h(x_{i−1}) − h(x_i)) − μ_i·(x_i − x_{i+1}),   x_0 = 1,
 * </pre>
 * with {@code h(y) = y}, {@code y^d} with replacement, or the exact hypergeometric law of {@code d}
 * distinct servers out of {@code N}; its fixed point is found by the solver of solver-core
 * (pseudo-transient continuation ending in Newton's method; for random routing a closed form, polished),
 * its transient integrated as one ODE, and the drift is a {@link org.mflb.core.model.PopulationModel} for
 * the refined mean field. The non-smooth policies (JSQ, JIQ, threshold, self-learning threshold;
 * docs/models.md §3) are solved by {@code org.mflb.fluid.nonsmooth}, SQ(d) with memory (§1a) by
 * {@code org.mflb.fluid.memory}, behind the same entry point; servers of different speeds (random, SQ(d)
 * and SED(d), docs/models.md §10) have their own models in {@code org.mflb.fluid.heterogeneous}.
 * {@link Truncation} and {@link TailVectors} keep the cut-off mass below a tolerance and report it
 * (docs/models.md §0); {@link FluidResponseTime} gives the response-time law from each policy's
 * {@link ArrivalShares} {@code s_j} (docs/models.md §7).
 *
 * <p><b>Dependencies:</b> solver-core and the subpackages of this module only. The fluid models must not
 * depend on the simulator, the PDE, the validation catalogue or the command line: they are what those
 * check or present. Conversely the simulator never uses the rates written here.
 */
package org.mflb.fluid;
