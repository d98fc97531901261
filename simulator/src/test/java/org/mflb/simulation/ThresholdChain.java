package org.mflb.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.mflb.core.markov.StationaryDistribution;
import org.mflb.core.markov.TransitionRates;

/**
 * The exact stationary law of a few infinite-server pools under the threshold policy or the
 * self-learning threshold ([GABL]; docs/models.md §3), written from the policies' definitions and not
 * from the token code: an independent truth for the token dispatchers at finite n.
 *
 * <p>State: the sorted numbers of tasks of the n pools (the policy is symmetric), each capped at
 * {@code cap} (an arrival above the cap is dropped: a truncation of negligible mass), and the
 * threshold ℓ. With {@code m_l} pools holding exactly l tasks and {@code b} pools holding fewer
 * than ℓ, an arrival (rate nλ) joins a pool with l tasks with probability
 * <pre>
 *   m_l / b   for l &lt; ℓ            if b &gt; 0,
 *   1         for l = ℓ              if b = 0 and m_ℓ &gt; 0,
 *   m_l / n                          otherwise;
 * </pre>
 * each task leaves at rate 1. Self-learning: after the arrival, ℓ ← ℓ + 1 if every pool now holds
 * at least ℓ + 1 tasks, else ℓ ← ℓ − 1 if ℓ ≥ 1 and at most αn + 1 pools hold at least ℓ tasks.
 *
 * <p>Besides the tail vector and E[ℓ], the chain gives the stationary message rate per arrival:
 * one message per arrival that leaves its pool below ℓ, per departure to ℓ or ℓ − 1, and per pool
 * whose token changes with ℓ (pools with exactly the new ℓ on a raise; with exactly the new ℓ or
 * h on a decrease). The balance equations are solved by Gauss–Seidel iteration from the states
 * reachable from the empty system.
 */
final class ThresholdChain {

    final double[] tail;
    final double meanThreshold;
    final double messagesPerTask;

    /**
     * @param alpha α of the self-learning rule, NaN for a static threshold
     * @param ell0 the static threshold, or the initial one (the chain forgets it)
     */
    ThresholdChain(int n, double lambda, int cap, int ell0, double alpha) {
        boolean adaptive = !Double.isNaN(alpha);
        Map<String, Integer> index = new HashMap<>();
        List<int[]> states = new ArrayList<>(); // levels..., ℓ
        List<double[]> edges = new ArrayList<>(); // from, to, rate, messages
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        int[] start = new int[n + 1];
        start[n] = ell0;
        add(start, index, states, queue);
        while (!queue.isEmpty()) {
            int k = queue.poll();
            int[] s = states.get(k);
            int ell = s[n];
            int below = 0;
            for (int j = 0; j < n; j++) {
                below += s[j] < ell ? 1 : 0;
            }
            int atEll = count(s, n, ell);
            for (int l = 0; l <= cap; l++) {
                int m = count(s, n, l);
                if (m == 0) {
                    continue;
                }
                double p = below > 0 ? (l < ell ? (double) m / below : 0)
                        : atEll > 0 ? (l == ell ? 1 : 0) : (double) m / n;
                if (p > 0 && l < cap) {
                    int[] t = move(s, n, l, +1);
                    double msg = l + 1 < ell ? 1 : 0;
                    if (adaptive) {
                        if (atLeast(t, n, ell + 1) == n) {
                            t[n] = ell + 1;
                            msg += count(t, n, ell + 1);
                        } else if (ell >= 1 && atLeast(t, n, ell) <= alpha * n + 1) {
                            t[n] = ell - 1;
                            msg += count(t, n, ell - 1) + count(t, n, ell);
                        }
                    }
                    edges.add(new double[] {k, add(t, index, states, queue), n * lambda * p, msg});
                }
                if (l >= 1) {
                    int[] t = move(s, n, l, -1);
                    double msg = l - 1 == ell || l - 1 == ell - 1 ? 1 : 0;
                    edges.add(new double[] {k, add(t, index, states, queue), m * l, msg});
                }
            }
        }
        int size = states.size();
        TransitionRates.Builder chain = TransitionRates.builder(size);
        for (double[] e : edges) {
            chain.rate((int) e[0], (int) e[1], e[2]);
        }
        double[] pi = StationaryDistribution.solve(chain.build(), 1e-13, 200_000).probabilities();
        tail = new double[cap + 1];
        double ellMean = 0;
        for (int k = 0; k < size; k++) {
            int[] s = states.get(k);
            for (int i = 0; i <= cap; i++) {
                tail[i] += pi[k] * atLeast(s, n, i) / n;
            }
            ellMean += pi[k] * s[n];
        }
        double messageRate = 0;
        for (double[] e : edges) {
            messageRate += pi[(int) e[0]] * e[2] * e[3];
        }
        meanThreshold = ellMean;
        messagesPerTask = messageRate / (n * lambda);
    }

    private static int add(int[] s, Map<String, Integer> index, List<int[]> states, ArrayDeque<Integer> queue) {
        String key = Arrays.toString(s);
        Integer k = index.get(key);
        if (k == null) {
            k = states.size();
            index.put(key, k);
            states.add(s);
            queue.add(k);
        }
        return k;
    }

    private static int count(int[] s, int n, int l) {
        int c = 0;
        for (int j = 0; j < n; j++) {
            c += s[j] == l ? 1 : 0;
        }
        return c;
    }

    private static int atLeast(int[] s, int n, int l) {
        int c = 0;
        for (int j = 0; j < n; j++) {
            c += s[j] >= l ? 1 : 0;
        }
        return c;
    }

    /** Moves one pool with l tasks to l + delta and re-sorts the levels (ℓ stays last). */
    private static int[] move(int[] s, int n, int l, int delta) {
        int[] t = s.clone();
        for (int j = 0; j < n; j++) {
            if (t[j] == l) {
                t[j] += delta;
                break;
            }
        }
        Arrays.sort(t, 0, n);
        return t;
    }
}
