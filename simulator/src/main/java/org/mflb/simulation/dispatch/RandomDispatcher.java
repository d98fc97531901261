package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Random routing: each job goes to a uniformly random server, so each server is an independent
 * M/G/1 queue (M/G/∞ or Erlang-B pool) with arrival rate λ (docs/models.md §1–2).
 */
public final class RandomDispatcher extends Dispatcher {

    private final UniformRandomProvider rng;
    private final int n;

    /** @param ctx the replication's context */
    public RandomDispatcher(DispatchContext ctx) {
        this.rng = ctx.rng();
        this.n = ctx.occupancy().servers();
    }

    @Override
    public int select(double t) {
        return rng.nextInt(n);
    }
}
