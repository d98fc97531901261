package org.mflb.simulation.dispatch;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.simulation.state.Occupancy;

/**
 * The token implementation of the threshold policy (Goldsztajn, Borst, van Leeuwaarden, Mukherjee,
 * Whiting, "Self-learning threshold-based load balancing", [GABL], Section 2; docs/models.md §3):
 * the dispatcher's picture of the pools, kept up to date only by the messages the pools send.
 * With threshold {@code ℓ ≥ 0} and {@code h = ℓ + 1}, the dispatcher holds
 * <pre>
 *   a green token  for pool p  ⇔  p has fewer than ℓ tasks,
 *   a yellow token for pool p  ⇔  p has fewer than h tasks.
 * </pre>
 * An arrival takes a uniformly random green token if there is one, else a uniformly random yellow
 * token, and the token is discarded; without tokens the task goes to a uniformly random pool.
 * The pools restore the invariant with one-message updates:
 * <ul>
 * <li>a pool still below ℓ after an arrival sends a green message (replacing the used token);</li>
 * <li>a pool going from h to ℓ tasks (a departure) sends a yellow message;</li>
 * <li>a pool going from ℓ to ℓ − 1 tasks sends a green message (its yellow token is still there).</li>
 * </ul>
 * Each task thus causes at most one message on arrival and one on departure: at most two per task.
 *
 * <p>The self-learning policy moves ℓ by one ({@link #raise}, {@link #lower}); the pools whose
 * tokens change then message the dispatcher, one message per token gained or lost, counted
 * apart ({@link #adjustmentMessages()}).
 *
 * <p>Mutable; one instance belongs to one replication.
 */
final class ThresholdTokens {

    private final int n;
    private final TokenSet green;
    private final TokenSet yellow;
    private int ell;
    /** Messages of the regular protocol (arrivals and departures) since the last {@link #resetCounters}. */
    private long messages;
    /** Messages caused by threshold changes since the last {@link #resetCounters}. */
    private long adjustmentMessages;

    /**
     * Builds the tokens of the current occupancy, as if every pool had reported its state.
     *
     * @param occ the pools (not modified)
     * @param ell initial threshold ℓ ≥ 0
     */
    ThresholdTokens(Occupancy occ, int ell) {
        this.n = occ.servers();
        this.green = new TokenSet(n);
        this.yellow = new TokenSet(n);
        this.ell = ell;
        for (int p = 0; p < n; p++) {
            int k = occ.level(p);
            if (k < ell) {
                green.add(p);
            }
            if (k <= ell) {
                yellow.add(p);
            }
        }
    }

    /** @return the threshold ℓ */
    int threshold() {
        return ell;
    }

    /** @return the number of green tokens (pools with fewer than ℓ tasks) */
    int greenTokens() {
        return green.size();
    }

    /** @return whether the dispatcher holds no token at all (every pool has at least h tasks) */
    boolean empty() {
        // a green token always comes with a yellow one
        return yellow.size() == 0;
    }

    /**
     * Dispatches one task: a random green token, else a random yellow one, else a random pool.
     *
     * @return the pool the task is sent to
     */
    int take(UniformRandomProvider rng) {
        int g = green.size();
        if (g > 0) {
            return green.removeAt(g == 1 ? 0 : rng.nextInt(g));
        }
        int y = yellow.size();
        if (y > 0) {
            return yellow.removeAt(y == 1 ? 0 : rng.nextInt(y));
        }
        return rng.nextInt(n);
    }

    /** Pool {@code p} received a task and now holds {@code k} tasks: a green message if {@code k < ℓ}. */
    void afterArrival(int p, int k) {
        if (k < ell) {
            green.add(p);
            messages++;
        }
    }

    /**
     * Pool {@code p} finished a task and now holds {@code k} tasks: a yellow message when it went from
     * h to ℓ, a green one when it went from ℓ to ℓ − 1.
     */
    void afterDeparture(int p, int k) {
        if (k == ell) {
            yellow.add(p);
            messages++;
        } else if (k == ell - 1) {
            green.add(p);
            messages++;
        }
    }

    /**
     * ℓ ← ℓ + 1, called when the dispatcher holds no token (every pool has at least h tasks, so no
     * pool is below the new ℓ): every pool with exactly the new ℓ tasks gains a yellow token.
     * O(number of such pools).
     */
    void raise(Occupancy occ) {
        ell++;
        // the pools with exactly ℓ tasks occupy positions [n − c_ℓ, n − c_{ℓ+1}) of the sorted order
        int from = n - occ.countAtLeast(ell);
        int to = n - occ.countAtLeast(ell + 1);
        for (int pos = from; pos < to; pos++) {
            yellow.add(occ.serverAt(pos));
        }
        adjustmentMessages += to - from;
    }

    /**
     * ℓ ← ℓ − 1 (ℓ ≥ 1): pools with exactly the new h = old ℓ tasks lose their yellow token, pools
     * with exactly the new ℓ tasks lose their green token. O(number of such pools).
     */
    void lower(Occupancy occ) {
        ell--;
        int h = ell + 1;
        int from = n - occ.countAtLeast(h);
        int to = n - occ.countAtLeast(h + 1);
        for (int pos = from; pos < to; pos++) {
            yellow.remove(occ.serverAt(pos));
        }
        adjustmentMessages += to - from;
        from = n - occ.countAtLeast(ell);
        to = n - occ.countAtLeast(ell + 1);
        for (int pos = from; pos < to; pos++) {
            green.remove(occ.serverAt(pos));
        }
        adjustmentMessages += to - from;
    }

    /** @return messages of the regular protocol since the last reset */
    long messages() {
        return messages;
    }

    /** @return messages caused by threshold changes since the last reset */
    long adjustmentMessages() {
        return adjustmentMessages;
    }

    /** Restarts the message counters. */
    void resetCounters() {
        messages = 0;
        adjustmentMessages = 0;
    }

    /**
     * Checks the token invariant against the true occupancy (for tests: O(n)).
     *
     * @throws IllegalStateException naming the first pool whose tokens are wrong
     */
    void checkInvariants(Occupancy occ) {
        for (int p = 0; p < n; p++) {
            int k = occ.level(p);
            if (green.contains(p) != (k < ell) || yellow.contains(p) != (k <= ell)) {
                throw new IllegalStateException("pool " + p + " holds " + k + " tasks with threshold " + ell
                        + " but green = " + green.contains(p) + ", yellow = " + yellow.contains(p));
            }
        }
    }
}
