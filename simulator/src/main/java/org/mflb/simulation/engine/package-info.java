/**
 * The event loops that simulate one replication of the {@code N}-server system exactly. A
 * {@link Replication} owns the clock's checkpoints (grid times, end of the warm-up, ends of the units of
 * observation and of the thinning windows) and the arrivals, a Poisson process of rate {@code N·λ(t)}
 * simulated by thinning (Lewis and Shedler) when {@code λ} varies; observation draws no randomness, so a
 * longer run extends a shorter one event for event (common random numbers). The agent engine
 * ({@code AgentReplication}) keeps every server's level, each job and the dispatcher's own data
 * structures, with exponential fast paths ({@code QueueExponential}, {@code PoolExponential}) and
 * event-calendar loops for general service ({@code QueueCalendar}, {@code PoolCalendar}); the occupancy
 * engine ({@code OccupancyReplication}) simulates, for exponential service and policies that look only at
 * queue lengths, the Markov chain of the counts {@code c_i} of servers with at least {@code i} jobs alone
 * (docs/models.md §0–3), in {@code O(log K)} per event, written from the policies' definitions
 * independently of the dispatchers; the workload engine ({@code WorkloadReplication}) runs LL(d), the
 * least loaded of d servers with any job-size law, on the epochs at which the servers empty, with no
 * departure events (docs/models.md §11.7). {@code TailIntegrals} integrates the counts and their products exactly
 * over each unit ({@link UnitResult}, {@link ReplicationResult}), and {@link ReplicationStreams} derives
 * the xoroshiro128++ stream of replication {@code r} (and of sweep point {@code p}) from the seed alone.
 * Response-time laws come per job or from the conditional Erlang-mixture estimator (docs/models.md §7).
 *
 * <p>Servers of different speeds (docs/models.md §10): both agent queue engines run them (per-class busy
 * blocks in the level sets, service rates {@code μ s_k}, service times divided by {@code s_k}), the
 * occupancy engine through {@code OccupancyClassReplication} (counts per class); {@code TailIntegrals}
 * keeps its integrals per class, whence each class's mean queue length, and {@code ClassStatistics}
 * counts each class's arrivals and draws which class completes a job.
 *
 * <p><b>Dependencies:</b> solver-core, the other simulator packages, Commons RNG and HdrHistogram. Like
 * every simulator package, this one must never depend on the fluid or PDE models: it simulates the
 * process, never a drift.
 */
package org.mflb.simulation.engine;
