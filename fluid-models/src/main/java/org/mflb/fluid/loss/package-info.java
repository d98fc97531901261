/**
 * Loss pools of capacity {@code C} under JSQ(d) (random routing is {@code d = 1}): fluctuations around the
 * fluid limit, the blocking probability for finite {@code N}, and its sensitivity to the service law
 * (docs/models.md §8, derived; [VM]). {@link LossPoolLimit} gives the fixed point {@code x*} of
 * {@code F_i = λ(h(x_{i−1}) − h(x_i)) − i(x_i − x_{i+1})} and the Ornstein–Uhlenbeck limit of
 * {@code √N(x^N − x*)} under the load {@code λ_N = σ − β/√N}: {@code A W + W Aᵀ + Q = 0} and the mean
 * {@code m = −β (x*)′} ({@code ′ = d/dλ}, from the implicit-function theorem), the refined term {@code V}
 * of {@link org.mflb.core.refined.RefinedMeanField} and the blocking correction {@code R_B};
 * {@link BlockingApproximations} the five approximations of {@code P_B^N} (mean field, OU mean, mean field
 * at {@code λ_N}, refined, two-term) with their error orders; {@link LossPoolTransient} the OU mean and
 * covariance along a transient. {@link ExactLossChain} is the exact stationary law of the {@code N}-pool
 * chain on occupancy counts, written from the counts (it shares nothing with the fluid rate functions) and
 * solved by {@link org.mflb.core.markov.StationaryDistribution}: the small-{@code N} truth the
 * approximations are measured against. {@link PhaseTypeLossModel} is the population model on the jobs per
 * phase per pool for phase-type service, and {@link ServiceSensitivity} its insensitive fixed point, its
 * sensitive covariance {@code W} and the asymptotic variance of time averages ({@code TimeAverages}),
 * which sets the run length a simulation needs.
 *
 * <p><b>Dependencies:</b> solver-core ({@code org.mflb.core.markov} for the exact chain) and
 * {@code org.mflb.fluid} (the SQ(d) selection function and the tail-vector model) only. This package must
 * not depend on the simulator, the PDE, the validation catalogue or the command line.
 */
package org.mflb.fluid.loss;
