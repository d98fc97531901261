package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.simulation.state.LevelSets;
import org.mflb.simulation.state.Occupancy;

/**
 * SQ(d) with memory (Anselmi and Dufour, "Power-of-d-choices with memory: fluid limit and
 * optimality"; docs/models.md §1a). The dispatcher keeps an observation {@code m_k} of every server's
 * queue length. At an arrival it samples d servers and refreshes their observations to the true
 * lengths, sends the job to a server with the smallest observation (over all N, ties uniformly at
 * random), and adds one to that observation.
 *
 * <p>Between samples a server's queue only shrinks unseen (every arrival it receives passes through
 * the dispatcher and is counted), so {@code m_k ≥} true length always and a refresh only lowers
 * {@code m_k}; each departure is discovered at most once, so the refreshes cost O(1) amortised. The
 * observations live in their own {@link LevelSets}, where the smallest ones form the first block.
 * They start at the true lengths, or at the run's {@link
 * org.mflb.simulation.RunControl#initialObservations() initial observations} (stale memory).
 */
public final class MemoryDispatcher extends Dispatcher {

    private final UniformRandomProvider rng;
    private final Occupancy occ;
    private final int n;
    private final ServerSample sample;
    private final LevelSets memory;
    private int min;
    /** Arrivals of the current unit sent to a server believed idle (smallest observation 0). */
    private long believedIdle;

    /**
     * @param ctx the replication's context (with the initial observations of its run control)
     * @param policy the policy: d and the sampling
     */
    public MemoryDispatcher(DispatchContext ctx, Policy.Memory policy) {
        this.rng = ctx.rng();
        this.occ = ctx.occupancy();
        this.n = occ.servers();
        this.sample = new ServerSample(rng, n, policy.d(), policy.sampling() == Sampling.DISTINCT);
        int[] initial = ctx.scenario().run().initialObservations();
        if (initial == null) {
            initial = new int[n];
            for (int s = 0; s < n; s++) {
                initial[s] = occ.level(s);
            }
        }
        this.memory = new LevelSets(initial);
    }

    @Override
    public int select(double t) {
        int[] s = sample.draw();
        for (int i = 0; i < s.length; i++) {
            memory.lowerTo(s[i], occ.level(s[i]));
        }
        int m = JsqDispatcher.minimumLevel(memory, n, min);
        min = m;
        if (m == 0) {
            believedIdle++;
        }
        int ties = n - memory.countAtLeast(m + 1);
        int chosen = memory.serverAt(ties == 1 ? 0 : rng.nextInt(ties));
        memory.up(chosen);
        return chosen;
    }

    @Override
    public void startMeasurement(double t) {
        believedIdle = 0;
    }

    /** Reports {@code believedIdleShare}: the share of the unit's arrivals sent to a server believed idle. */
    @Override
    public void endUnit(double t, long arrivals, PolicyStatistics out) {
        out.put("believedIdleShare", arrivals > 0 ? (double) believedIdle / arrivals : Double.NaN);
        believedIdle = 0;
    }

    /** @return the dispatcher's current observation of server {@code s} (for tests) */
    int observation(int s) {
        return memory.level(s);
    }
}
