package org.mflb.simulation.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.system.Policy;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.TestModels;
import org.mflb.simulation.state.LevelSets;

/**
 * The token dispatchers of [GABL] in debug runs of small systems: a test-driven event loop of
 * infinite-server pools (arrivals at rate nλ(t), each task leaves at rate 1) calls the dispatcher's
 * hooks in the engines' order (select, occupancy update, onArrival / onDeparture) and after every
 * event checks, against the true occupancy and the policy's definition written here independently:
 * the token invariant (green ⇔ fewer than ℓ tasks, yellow ⇔ fewer than h), the pool chosen, the
 * messages of that event, and for the self-learning policy the change of ℓ required by the α rule.
 */
class TokenDispatcherTest {

    /** 99.9% quantiles of chi-square with 4 and 5 degrees of freedom. */
    private static final double CHI2_4_999 = 18.467;
    private static final double CHI2_5_999 = 20.515;

    private static UniformRandomProvider rng(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 777});
    }

    private static DispatchContext context(Policy p, LevelSets occ, UniformRandomProvider rng) {
        return new DispatchContext(SimulationScenario.builder().model(TestModels.pools(p, 1)).servers(occ.servers())
                .tEnd(1).build(), occ, rng);
    }

    private static AdaptiveThresholdDispatcher adaptive(Policy.AdaptiveThreshold policy, LevelSets occ,
            UniformRandomProvider rng) {
        return new AdaptiveThresholdDispatcher(context(policy, occ, rng), policy);
    }

    private static ThresholdDispatcher threshold(int ell, LevelSets occ, UniformRandomProvider rng) {
        Policy.Threshold policy = new Policy.Threshold(ell);
        return new ThresholdDispatcher(context(policy, occ, rng), policy);
    }

    private static int countAtLeast(LevelSets occ, int l) {
        int c = 0;
        for (int s = 0; s < occ.servers(); s++) {
            c += occ.level(s) >= l ? 1 : 0;
        }
        return c;
    }

    private static int countExactly(LevelSets occ, int l) {
        return countAtLeast(occ, l) - countAtLeast(occ, l + 1);
    }

    /** Messages of the last event, read through the public statistics (one "task" per unit). */
    private static double[] drainMessages(Dispatcher d) {
        PolicyStatistics ps = new PolicyStatistics();
        d.endUnit(0, 1, ps);
        double total = ps.values().get("messagesPerTask");
        double adjust = ps.values().getOrDefault("adjustmentMessagesPerTask", 0.0);
        return new double[] {total - adjust, adjust};
    }

    /**
     * Debug run of {@code events} events.
     *
     * @param alpha NaN for the static threshold
     * @return {arrivals, regular messages, threshold changes}
     */
    private static long[] debugRun(int n, int[] init, int ell0, double alpha, long seed, int events) {
        SplittableRandom r = new SplittableRandom(seed);
        UniformRandomProvider rng = rng(seed);
        LevelSets occ = new LevelSets(init);
        boolean adaptive = !Double.isNaN(alpha);
        Dispatcher d = adaptive ? adaptive(new Policy.AdaptiveThreshold(alpha, ell0), occ, rng) : threshold(ell0, occ, rng);
        int ell = ell0;
        double t = 0;
        long arrivals = 0;
        long regular = 0;
        long changes = 0;
        check(d, occ);
        for (int e = 0; e < events; e++) {
            // a load that sweeps [0.3, 3.7] so that the adaptive threshold moves both ways
            double lambda = 2 + 1.7 * Math.sin(t / 4);
            int tasks = 0;
            for (int s = 0; s < n; s++) {
                tasks += occ.level(s);
            }
            double total = n * lambda + tasks;
            t += -Math.log(1 - r.nextDouble()) / total;
            if (r.nextDouble() * total < n * lambda) {
                arrivals++;
                int below = n - countAtLeast(occ, ell);
                int at = countExactly(occ, ell);
                int p = d.select(t);
                int k = occ.level(p);
                if (below > 0) {
                    assertTrue(k < ell, "a pool below the threshold was available, chosen level " + k);
                } else if (at > 0) {
                    assertEquals(ell, k, "a pool at the threshold was available");
                }
                occ.up(p);
                d.onArrival(p, k + 1, t);
                double[] msg = drainMessages(d);
                assertEquals(k + 1 < ell ? 1 : 0, msg[0], "arrival message (green iff still below ℓ)");
                regular += (long) msg[0];
                if (adaptive) {
                    int expected = ell;
                    int adjust = 0;
                    if (countAtLeast(occ, ell + 1) == n) {
                        expected = ell + 1;
                        adjust = countExactly(occ, expected);
                    } else if (ell >= 1 && countAtLeast(occ, ell) <= alpha * n + 1) {
                        expected = ell - 1;
                        adjust = countExactly(occ, expected) + countExactly(occ, expected + 1);
                    }
                    int now = ((AdaptiveThresholdDispatcher) d).threshold();
                    assertEquals(expected, now, "α rule after arrival " + arrivals);
                    assertEquals(adjust, msg[1], "one message per token gained or lost");
                    if (now != ell) {
                        changes++;
                        List<LevelJump> jumps = d.jumps();
                        LevelJump last = jumps.get(jumps.size() - 1);
                        assertEquals(new LevelJump(t, ell, now), last);
                    }
                    ell = now;
                }
            } else {
                int u = r.nextInt(tasks);
                int p = 0;
                while (u >= occ.level(p)) {
                    u -= occ.level(p);
                    p++;
                }
                int k = occ.level(p);
                occ.down(p);
                d.onDeparture(p, k - 1, t);
                double[] msg = drainMessages(d);
                boolean message = k - 1 == ell || k - 1 == ell - 1;
                assertEquals(message ? 1 : 0, msg[0], "departure message (yellow h→ℓ, green ℓ→ℓ−1)");
                regular += (long) msg[0];
            }
            check(d, occ);
        }
        assertEquals(changes, d.jumps().size());
        return new long[] {arrivals, regular, changes};
    }

    private static void check(Dispatcher d, LevelSets occ) {
        if (d instanceof ThresholdDispatcher td) {
            td.checkInvariants(occ);
        } else {
            ((AdaptiveThresholdDispatcher) d).checkInvariants(occ);
        }
    }

    @Test
    void staticThresholdKeepsItsTokensExactAfterEveryEvent() {
        int[] init = {0, 3, 1, 5, 2, 0, 4};
        for (int ell = 0; ell <= 4; ell++) {
            long[] c = debugRun(init.length, init, ell, Double.NaN, 10 + ell, 40_000);
            // at most one message on arrival and one on departure: the messages of the run are at
            // most 2 per arrival plus one for each task present at time 0
            assertTrue(c[1] <= 2 * c[0] + 15, "messages " + c[1] + " for " + c[0] + " arrivals");
        }
    }

    @Test
    void adaptiveThresholdFollowsTheAlphaRuleAfterEveryArrival() {
        long totalChanges = 0;
        double[] alphas = {0.2, 0.5, 0.8, 0.95};
        for (int i = 0; i < alphas.length; i++) {
            long[] c = debugRun(6, new int[] {0, 0, 2, 1, 0, 3}, 0, alphas[i], 20 + i, 40_000);
            totalChanges += c[2];
        }
        long[] fromHigh = debugRun(6, new int[6], 7, 0.5, 30, 20_000);
        // the rule has to be exercised both ways for the test to mean anything
        assertTrue(totalChanges > 100 && fromHigh[2] >= 7, "threshold changes: " + totalChanges);
    }

    @Test
    void tokensAreDrawnUniformly() {
        UniformRandomProvider rng = rng(3);
        // ℓ = 2: green tokens for pools 0, 2, 4, 5, 7 (fewer than 2 tasks)
        int[] greens = {1, 3, 0, 2, 1, 0, 3, 0, 2};
        chiSquare(greens, 2, new int[] {0, 2, 4, 5, 7}, CHI2_4_999, rng);
        // ℓ = 2, no pool below: yellow tokens of the pools with exactly 2 tasks
        int[] yellows = {2, 3, 2, 2, 4, 2, 3, 2};
        chiSquare(yellows, 2, new int[] {0, 2, 3, 5, 7}, CHI2_4_999, rng);
        // ℓ = 1, every pool above h = 2: no token, a uniformly random pool
        int[] none = {2, 3, 4, 2, 5, 3};
        chiSquare(none, 1, new int[] {0, 1, 2, 3, 4, 5}, CHI2_5_999, rng);
    }

    /** 10 000 draws per eligible pool, each from a fresh dispatcher (a draw discards the token). */
    private static void chiSquare(int[] levels, int ell, int[] eligible, double bound, UniformRandomProvider rng) {
        int[] counts = new int[levels.length];
        int draws = 10_000 * eligible.length;
        LevelSets occ = new LevelSets(levels);
        for (int i = 0; i < draws; i++) {
            counts[threshold(ell, occ, rng).select(0)]++;
        }
        double chi2 = 0;
        int inEligible = 0;
        for (int s : eligible) {
            chi2 += (counts[s] - 10_000.0) * (counts[s] - 10_000.0) / 10_000.0;
            inEligible += counts[s];
        }
        assertEquals(draws, inEligible, "a task went to a pool the policy excludes");
        assertTrue(chi2 < bound, "chi2 = " + chi2);
    }

    @Test
    void badParametersAreRejected() {
        // The initial threshold must be >= 0: the model's policy rejects it before any dispatcher exists.
        MflbException e = assertThrows(MflbException.class, () -> new Policy.AdaptiveThreshold(0.5, -2));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals("initial-threshold", e.parameter());
        assertTrue(e.getMessage().contains("threshold"), e.getMessage());
    }
}
