package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.state.Occupancy;

/**
 * Join the shortest queue: the job goes to a server with the fewest jobs, uniformly among them
 * (docs/models.md §1, §3; for pools Mukherjee et al.). O(1) amortised: the servers with exactly the
 * minimum level {@code m} are the first {@code N − c_{m+1}} of the occupancy's sorted order, and
 * {@code m} moves by one level at a time.
 */
public final class JsqDispatcher extends Dispatcher {

    private final UniformRandomProvider rng;
    private final Occupancy occ;
    private final int n;
    private int min;

    /** @param ctx the replication's context */
    public JsqDispatcher(DispatchContext ctx) {
        this.rng = ctx.rng();
        this.occ = ctx.occupancy();
        this.n = occ.servers();
        if (!occ.sortedByLevel()) {
            throw new IllegalStateException("JSQ needs an occupancy sorted by level (Dispatchers.needsLevelOrder)");
        }
    }

    @Override
    public int select(double t) {
        int m = minimumLevel(occ, n, min);
        min = m;
        int ties = n - occ.countAtLeast(m + 1);
        return occ.serverAt(ties == 1 ? 0 : rng.nextInt(ties));
    }

    /**
     * @param guess a recent value of the minimum level
     * @return the minimum level {@code m}: {@code c_m = N} and {@code c_{m+1} < N}
     */
    static int minimumLevel(Occupancy occ, int n, int guess) {
        int m = guess;
        while (m > 0 && occ.countAtLeast(m) < n) {
            m--;
        }
        while (occ.countAtLeast(m + 1) == n) {
            m++;
        }
        return m;
    }
}
