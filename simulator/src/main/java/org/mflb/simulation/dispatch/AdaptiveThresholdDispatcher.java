package org.mflb.simulation.dispatch;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.system.Policy;
import org.mflb.simulation.state.Occupancy;

/**
 * The self-learning threshold policy of [GABL] (Section 4; rule as in the authors' code,
 * docs/models.md §3): the token dispatcher of {@link ThresholdDispatcher} whose threshold ℓ is tuned
 * online from the tokens alone, with one parameter {@code α ∈ (0, 1)}. After each arrival has been
 * dispatched (and the pool's message, if any, received):
 * <pre>
 *   no token left (every pool has ≥ h tasks)          ⇒  ℓ ← ℓ + 1, pools with exactly ℓ tasks gain a yellow token;
 *   otherwise, ℓ ≥ 1 and n − #green ≤ α n + 1          ⇒  ℓ ← ℓ − 1, pools with exactly h tasks lose their yellow
 *   (pools with ≥ ℓ tasks, i.e. without green token)       token and pools with exactly ℓ tasks their green one
 * </pre>
 * (ℓ and h = ℓ + 1 on the right are the new values). The pools whose tokens change message the
 * dispatcher, one message per token gained or lost. The initial threshold is the policy's
 * {@code initialThreshold}. Regular events cost O(1); a change of ℓ costs
 * O(number of pools whose tokens change).
 *
 * <p>Statistics per unit of observation: {@code messagesPerTask} (all pool-to-dispatcher messages
 * per arrival), {@code adjustmentMessagesPerTask} (the part caused by changes of ℓ),
 * {@code meanThreshold} (time average of ℓ) and {@code thresholdChangesPerUnitTime}; the trace of
 * ℓ(t) is {@link #jumps()} (the first {@link #MAX_RECORDED_JUMPS} changes of the replication).
 */
public final class AdaptiveThresholdDispatcher extends Dispatcher {

    /** Changes of ℓ recorded in the trace; later ones are still applied and counted. */
    public static final int MAX_RECORDED_JUMPS = 100_000;

    private final UniformRandomProvider rng;
    private final Occupancy occ;
    private final ThresholdTokens tokens;
    /** {@code α n + 1}: ℓ decreases when at most this many pools have ≥ ℓ tasks. */
    private final double lowerBelow;
    private final int n;
    private final List<LevelJump> trace = new ArrayList<>();

    // time integral of ℓ over the current unit of observation
    private double unitStart;
    private double lastChange;
    private double area;
    private long changes;

    /**
     * @param ctx the replication's context
     * @param policy the policy: α and the initial threshold
     */
    public AdaptiveThresholdDispatcher(DispatchContext ctx, Policy.AdaptiveThreshold policy) {
        this.rng = ctx.rng();
        this.occ = ctx.occupancy();
        this.n = occ.servers();
        this.tokens = new ThresholdTokens(occ, policy.initialThreshold());
        this.lowerBelow = policy.alpha() * n + 1;
    }

    @Override
    public int select(double t) {
        return tokens.take(rng);
    }

    @Override
    public void onArrival(int s, int newLevel, double t) {
        tokens.afterArrival(s, newLevel);
        int ell = tokens.threshold();
        if (tokens.empty()) {
            tokens.raise(occ);
            record(t, ell, ell + 1);
        } else if (ell >= 1 && n - tokens.greenTokens() <= lowerBelow) {
            tokens.lower(occ);
            record(t, ell, ell - 1);
        }
    }

    @Override
    public void onDeparture(int s, int newLevel, double t) {
        tokens.afterDeparture(s, newLevel);
    }

    private void record(double t, int from, int to) {
        area += from * (t - lastChange);
        lastChange = t;
        changes++;
        if (trace.size() < MAX_RECORDED_JUMPS) {
            trace.add(new LevelJump(t, from, to));
        }
    }

    @Override
    public void startMeasurement(double t) {
        tokens.resetCounters();
        unitStart = t;
        lastChange = t;
        area = 0;
        changes = 0;
    }

    @Override
    public void endUnit(double t, long arrivals, PolicyStatistics out) {
        long total = tokens.messages() + tokens.adjustmentMessages();
        out.put("messagesPerTask", arrivals > 0 ? (double) total / arrivals : Double.NaN);
        out.put("adjustmentMessagesPerTask", arrivals > 0 ? (double) tokens.adjustmentMessages() / arrivals
                : Double.NaN);
        double span = t - unitStart;
        area += tokens.threshold() * (t - lastChange);
        out.put("meanThreshold", span > 0 ? area / span : tokens.threshold());
        out.put("thresholdChangesPerUnitTime", span > 0 ? changes / span : Double.NaN);
        startMeasurement(t);
    }

    @Override
    public List<LevelJump> jumps() {
        return List.copyOf(trace);
    }

    /** @return the current threshold ℓ */
    public int threshold() {
        return tokens.threshold();
    }

    /**
     * Checks that the tokens match the true occupancy (a test aid, O(n)).
     *
     * @throws IllegalStateException when they do not
     */
    public void checkInvariants(Occupancy occupancy) {
        tokens.checkInvariants(occupancy);
    }
}
