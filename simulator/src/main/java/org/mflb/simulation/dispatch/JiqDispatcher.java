package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.state.Occupancy;

/**
 * Join the idle queue: the job goes to a uniformly random idle server (pool with no task) if there
 * is one, else to a uniformly random server (docs/models.md §1, §3). The idle servers are the first
 * {@code N − c_1} of the occupancy's sorted order.
 */
public final class JiqDispatcher extends Dispatcher {

    private final UniformRandomProvider rng;
    private final Occupancy occ;
    private final int n;

    /** @param ctx the replication's context */
    public JiqDispatcher(DispatchContext ctx) {
        this.rng = ctx.rng();
        this.occ = ctx.occupancy();
        this.n = occ.servers();
    }

    @Override
    public int select(double t) {
        int idle = n - occ.countAtLeast(1);
        if (idle > 0) {
            return occ.serverAt(idle == 1 ? 0 : rng.nextInt(idle));
        }
        return rng.nextInt(n);
    }
}
