package org.mflb.simulation;

import org.mflb.core.MflbException;

/**
 * Which simulation engine runs a scenario. Both simulate the same Markov process exactly; they differ
 * in what they keep and therefore in what they can simulate and how fast.
 * <ul>
 * <li>{@link #AGENT}: every server (pool), its FIFO queue of jobs and the dispatcher's real data
 *     structures (tokens, memory); any service law and policy, per-job response times. Memory O(N).</li>
 * <li>{@link #OCCUPANCY}: for exponential service only the counts {@code c_i} of servers with at
 *     least {@code i} jobs (plus the threshold ℓ) form a Markov chain — servers are exchangeable and
 *     these policies look only at queue lengths — so the engine keeps the counts alone: an arrival
 *     samples the levels of its servers from the counts, a departure picks a level with probability
 *     proportional to the busy servers (tasks) there. Cost per event O(log K), memory O(K), with K the
 *     highest level; response times by the conditional (Erlang) estimator. Exact for random, SQ(d),
 *     JSQ, JIQ, threshold and adaptive threshold in queues, pools and loss pools.</li>
 * <li>{@link #WORKLOAD}: the engine of LL(d), the least loaded of d servers (single-server FCFS queues,
 *     any service law, docs/models.md §11): under FCFS a server's whole state is the epoch
 *     {@code E_i} at which it empties, so an arrival at {@code t} reads {@code max(0, E_i − t)} at
 *     its d sampled servers, joins the least and sets {@code E_i ← max(E_i, t) + X}; its waiting and
 *     response times are known at once. No departure events: O(d) per job, memory one double per
 *     server. Queue lengths are not its state: the tail vector holds {@code x_0} and the busy
 *     fraction {@code x_1} only (time averages exact), the mean number of jobs is the exact time
 *     average of the jobs present (their sojourn intervals). The only engine of LL(d), and LL(d) is
 *     the only policy it runs.</li>
 * <li>{@link #AUTO}: the workload engine for LL(d); otherwise the occupancy engine where it is exact,
 *     else the agent engine.</li>
 * </ul>
 */
public enum Engine {
    /** The occupancy engine where it is exact, else the agent engine. */
    AUTO("auto"),
    /** Per-server state and the dispatcher's own algorithm. */
    AGENT("agent"),
    /** Occupancy counts only (exponential service). */
    OCCUPANCY("occupancy"),
    /** Per-server epochs at which the servers empty (LL(d), the least-loaded policy). */
    WORKLOAD("workload");

    private final String cliName;

    Engine(String cliName) {
        this.cliName = cliName;
    }

    /** @return the command-line name */
    public String cliName() {
        return cliName;
    }

    /** @return the engine named {@code name} on the command line */
    public static Engine parse(String name) {
        for (Engine e : values()) {
            if (e.cliName.equals(name)) {
                return e;
            }
        }
        throw MflbException.invalid("engine", name, "one of auto|agent|occupancy|workload");
    }
}
