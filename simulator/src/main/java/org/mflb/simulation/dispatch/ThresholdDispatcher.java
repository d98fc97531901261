package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.system.Policy;
import org.mflb.simulation.state.Occupancy;

/**
 * The threshold policy with a static threshold ℓ in infinite-server pools, implemented with green
 * and yellow tokens and the pools' messages exactly as in [GABL], Section 2 (docs/models.md §3; see
 * {@link ThresholdTokens}): a task goes to a uniformly random pool with fewer than ℓ tasks if there
 * is one, else to a uniformly random pool with exactly ℓ tasks if there is one, else to a uniformly
 * random pool. The dispatcher never reads the occupancy: it sees only its tokens. O(1) per event.
 *
 * <p>Statistics per unit of observation: {@code messagesPerTask}, the pool-to-dispatcher messages
 * divided by the unit's arrivals (at most 2 in the long run, [GABL]), and {@code meanThreshold}
 * (ℓ itself, for a uniform report with the self-learning policy).
 */
public final class ThresholdDispatcher extends Dispatcher {

    private final UniformRandomProvider rng;
    private final ThresholdTokens tokens;

    /**
     * @param ctx the replication's context
     * @param policy the policy: its threshold ℓ
     */
    public ThresholdDispatcher(DispatchContext ctx, Policy.Threshold policy) {
        this.rng = ctx.rng();
        this.tokens = new ThresholdTokens(ctx.occupancy(), policy.threshold());
    }

    @Override
    public int select(double t) {
        return tokens.take(rng);
    }

    @Override
    public void onArrival(int s, int newLevel, double t) {
        tokens.afterArrival(s, newLevel);
    }

    @Override
    public void onDeparture(int s, int newLevel, double t) {
        tokens.afterDeparture(s, newLevel);
    }

    @Override
    public void startMeasurement(double t) {
        tokens.resetCounters();
    }

    @Override
    public void endUnit(double t, long arrivals, PolicyStatistics out) {
        out.put("messagesPerTask", arrivals > 0 ? (double) tokens.messages() / arrivals : Double.NaN);
        // reported for both threshold policies (issue 3's JSON contract); constant here
        out.put("meanThreshold", tokens.threshold());
        tokens.resetCounters();
    }

    /**
     * Checks that the tokens match the true occupancy (a test aid, O(n)).
     *
     * @throws IllegalStateException when they do not
     */
    public void checkInvariants(Occupancy occ) {
        tokens.checkInvariants(occ);
    }
}
