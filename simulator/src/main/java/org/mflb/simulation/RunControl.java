package org.mflb.simulation;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;

/**
 * How a simulation is run, whatever the model and whatever is observed: the size {@code N} of the
 * system, its state at time 0, the horizon, the warm-up, the independent replications and their
 * random streams, the worker threads and the engine. Immutable and validated at construction; an
 * invalid part raises an {@link MflbException} naming the parameter ({@code n}, {@code t-end},
 * {@code warmup}, {@code init}, {@code replications}, {@code threads}) and its valid range. What
 * depends on the model as well (a state within the capacity of loss pools, a memory state for SQ(d)
 * with memory only) is checked by the {@link SimulationScenario}.
 *
 * @param servers the number {@code N} of servers (pools), in {@code [1, MAX_SERVERS]}
 * @param tEnd the horizon {@code T > 0}
 * @param warmup the time discarded before the time averages start, in {@code [0, T)}; {@code NaN} for
 *        the default, which depends on the observation ({@code T/10} for a steady-state run, 0 with a
 *        time grid) and which the scenario resolves
 * @param replications the number {@code R ≥ 1} of independent replications
 * @param seed the seed every replication's stream is derived from ({@code (seed, r)} for replication r)
 * @param threads the worker threads, {@code ≥ 1} (the numbers do not depend on them)
 * @param engine the engine asked for ({@code null}: {@link Engine#AUTO})
 * @param eventCalendar whether to force the general-service event calendar even for exponential
 *        service (a cross-check of the exponential fast paths)
 * @param initialState the state at time 0, rounded to whole jobs per server ({@link #initialLevels()});
 *        never the fixed point, which only a model can resolve ({@code null}: empty). With an
 *        {@code initialMemory}, the tail of its queue lengths.
 * @param initialMemory the (queue, observation) state SQ(d) with memory starts from, e.g. stale memory
 *        {@code memory:0/3=1}; {@code null} for none (the dispatcher starts knowing every queue)
 */
public record RunControl(int servers, double tEnd, double warmup, int replications, long seed, int threads,
        Engine engine, boolean eventCalendar, InitialState initialState, MemoryState initialMemory) {

    /** Largest number of servers accepted (arrays of this size must fit in memory). */
    public static final int MAX_SERVERS = 100_000_000;

    /** Validates every part and fills in the defaults of {@code engine} and {@code initialState}. */
    public RunControl {
        if (servers < 1 || servers > MAX_SERVERS) {
            throw MflbException.invalid("n", servers, "an integer in [1, " + MAX_SERVERS + "]");
        }
        Require.positive("t-end", tEnd);
        if (!Double.isNaN(warmup) && !(warmup >= 0 && warmup < tEnd)) {
            throw MflbException.invalid("warmup", warmup, "in [0, t-end = " + tEnd + ")");
        }
        if (initialMemory != null) {
            initialState = InitialServers.queueTail(initialMemory);
        } else if (initialState == null) {
            initialState = InitialState.empty();
        }
        if (initialState.kind() == InitialState.Kind.FIXED_POINT) {
            throw MflbException.invalid(InitialState.PARAMETER, initialState,
                    "one of empty, tail:1,x1,x2,... or all:K (the simulator has no model to take a fixed point of)");
        }
        Require.atLeast("replications", replications, 1);
        Require.atLeast("threads", threads, 1);
        if (engine == null) {
            engine = Engine.AUTO;
        }
    }

    /** @return this run control with another warm-up ({@code NaN}: the default) */
    public RunControl withWarmup(double time) {
        return new RunControl(servers, tEnd, time, replications, seed, threads, engine, eventCalendar, initialState,
                initialMemory);
    }

    /**
     * The number of jobs of each server at time 0: the integer state nearest to the tail vector
     * {@code x} of {@link #initialState()}, {@code c_i = ⌊N·x_i + 1/2⌋} servers holding at least
     * {@code i} jobs (servers {@code 0..c_i−1}), so that each coordinate of the simulated tail is within
     * {@code 1/(2N)} of {@code x_i}; with an initial memory state, its queue lengths (see
     * {@link #initialObservations()}). Jobs present at time 0 start their service afresh (age 0, a full
     * service requirement), and their arrival times are unknown, so the per-job estimators (response
     * and waiting time) leave them out.
     *
     * @return a new array of length {@link #servers()}
     */
    public int[] initialLevels() {
        return initialMemory != null ? InitialServers.fromMemory(initialMemory, servers, true)
                : InitialServers.levels(initialState, servers);
    }

    /**
     * The dispatcher's observation of each server at time 0 (SQ(d) with memory): for an
     * {@link #initialMemory()} state, servers are given (queue, observation) pairs in the proportions
     * {@code y_{i,j}} rounded to whole servers by largest remainders (the counts sum to {@code N};
     * each within 1 of {@code N·y_{i,j}}), in the same server order as {@link #initialLevels()};
     * otherwise {@code null} (the dispatcher starts knowing every queue).
     *
     * @return a new array of length {@link #servers()}, or {@code null}
     */
    public int[] initialObservations() {
        return initialMemory == null ? null : InitialServers.fromMemory(initialMemory, servers, false);
    }

    /**
     * The initial counts {@code c_i}, {@code i = 0..H}: the servers with at least {@code i} jobs in
     * {@link #initialLevels()}, computed without the per-server array.
     *
     * @return a new array, {@code c_0 = N}
     */
    public int[] initialCounts() {
        return InitialServers.counts(initialState, servers);
    }

    /** @return the mean number of jobs per server at time 0, {@code Σ_{i ≥ 1} x_i} */
    double initialJobsPerServer() {
        double jobs = 0;
        for (double x : initialState.levels(initialState.occupiedLevels())) {
            jobs += x;
        }
        return jobs;
    }
}
