/**
 * The Monte Carlo simulator of the real {@code N}-server system: individual servers or pools, the
 * dispatcher's actual algorithm, FIFO bookkeeping per job, Poisson arrivals of rate {@code N·λ(t)}
 * (thinning for a time-varying rate) and any service law of solver-core. It is the independent truth the
 * fluid, refined, diffusion and PDE results are checked against, and it reports the same tail vector,
 * index by index (docs/models.md §0). {@link Simulator#run} runs a {@link SimulationScenario}: the model
 * ({@code org.mflb.core.system.LoadBalancingModel}: system, policy, {@code λ(t)}, service law), the
 * {@link RunControl} (N, horizon, warm-up, replications, seed, threads, {@link Engine}, initial state) and
 * the {@link Observation} (time grid, percentiles, covariance levels, batches), and returns a {@link SimulationResult}: every
 * estimate with its 95% confidence interval ({@link Estimate}, {@link VectorEstimate},
 * {@link MatrixEstimate} for {@code N·Cov}, {@link QuantileEstimate}), Student t over replications or over
 * batch means, and the {@link IntervalDiagnostics} that say when those intervals cannot be trusted
 * (infinite service variance, a violated exact law {@code λE[S]}, batches too short). Servers of different
 * speeds (the model's server classes, docs/models.md §10) are simulated on both engines, with the
 * per-class estimates in {@link ClassEstimate} ({@link SimulationResult#classes()}). Replication
 * {@code r} draws from a stream derived from {@code (seed, r)} only, so the numbers do not depend on the
 * number of threads. The engines are in {@code .engine}, the dispatchers in {@code .dispatch}, their data
 * structures in {@code .state}, the interval estimators in {@code .stat}, and the simulation of model
 * files' {@code N}-object chains in {@code .population}.
 *
 * <p><b>Dependencies:</b> solver-core only (the model vocabulary, initial states, arrival rates and
 * service laws), Commons RNG and HdrHistogram. {@code org.mflb.simulation} and its subpackages must never
 * depend on the fluid or PDE models, which they validate: the simulator shares no rate function, drift or
 * solver with them, only parameters cross over. The simulator module's {@code bannedDependencies} rule
 * fails the build if it ever gains the fluid, PDE, validation or command-line module outside test scope.
 */
package org.mflb.simulation;
