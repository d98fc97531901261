package org.mflb.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.mflb.core.markov.StationaryDistribution;
import org.mflb.core.markov.TransitionRates;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;

/**
 * The exact stationary law of a small system (N = 2..4 servers or pools), as an independent truth
 * for the simulator's dispatchers at finite N. The state is the sorted vector of the servers'
 * numbers of jobs (the policies are symmetric), capped at {@code cap}; an arrival that would go
 * above the cap is lost (the blocking of loss pools, or a truncation of negligible mass for queues
 * and infinite-server pools). The balance equations are solved by Gauss–Seidel iteration.
 *
 * <p>Routing probabilities, written from the policies' definitions (not from the simulator's code):
 * with {@code c_l} servers holding at least {@code l} jobs and {@code m_l = c_l − c_{l+1}},
 * the arrival joins a server with exactly {@code l} jobs with probability
 * <pre>
 *   random                 m_l / N
 *   SQ(d), replacement     (c_l/N)^d − (c_{l+1}/N)^d
 *   SQ(d), d distinct      [C(c_l, d) − C(c_{l+1}, d)] / C(N, d)
 *   JSQ                    1 for the smallest l present
 *   JIQ                    1 for l = 0 if m_0 > 0, else m_l / N
 * </pre>
 * Departures: each server with l ≥ 1 jobs loses one at rate 1 (queues) or l (pools).
 */
final class SmallSystemChain {

    final double[] tail;
    final double blocking;

    SmallSystemChain(int n, double lambda, boolean queues, int cap, Policy policy) {
        List<int[]> states = new ArrayList<>();
        enumerate(new int[n], 0, 0, cap, states);
        Map<String, Integer> index = new HashMap<>();
        for (int k = 0; k < states.size(); k++) {
            index.put(key(states.get(k)), k);
        }
        int size = states.size();
        TransitionRates.Builder chain = TransitionRates.builder(size);
        double[] blockedRate = new double[size];
        for (int k = 0; k < size; k++) {
            int[] s = states.get(k);
            for (int l = 0; l <= cap; l++) {
                int m = count(s, l);
                if (m == 0) {
                    continue;
                }
                // arrival to a server with l jobs
                double p = route(s, l, n, policy);
                if (p > 0) {
                    double rate = n * lambda * p;
                    if (l == cap) {
                        blockedRate[k] += rate;
                    } else {
                        chain.rate(k, index.get(key(move(s, l, +1))), rate);
                    }
                }
                if (l >= 1) {
                    double rate = m * (queues ? 1.0 : l);
                    chain.rate(k, index.get(key(move(s, l, -1))), rate);
                }
            }
        }
        double[] pi = StationaryDistribution.solve(chain.build(), 1e-13, 200_000).probabilities();
        tail = new double[cap + 1];
        double b = 0;
        for (int k = 0; k < size; k++) {
            int[] s = states.get(k);
            for (int i = 0; i <= cap; i++) {
                int c = 0;
                for (int v : s) {
                    if (v >= i) {
                        c++;
                    }
                }
                tail[i] += pi[k] * c / n;
            }
            b += pi[k] * blockedRate[k];
        }
        blocking = b / (n * lambda);
    }

    private static double route(int[] s, int l, int n, Policy policy) {
        int d = policy.d();
        int atLeast = 0;
        int above = 0;
        int min = Integer.MAX_VALUE;
        for (int v : s) {
            atLeast += v >= l ? 1 : 0;
            above += v > l ? 1 : 0;
            min = Math.min(min, v);
        }
        int m = atLeast - above;
        switch (policy.id()) {
            case "random":
                return (double) m / n;
            case "sqd":
                if (policy.sampling() == Sampling.DISTINCT) {
                    return (binomial(atLeast, d) - binomial(above, d)) / binomial(n, d);
                }
                return Math.pow((double) atLeast / n, d) - Math.pow((double) above / n, d);
            case "jsq":
                return l == min ? 1 : 0;
            case "jiq":
                if (min == 0) {
                    return l == 0 ? 1 : 0;
                }
                return (double) m / n;
            default:
                throw new IllegalArgumentException(policy.toString());
        }
    }

    private static double binomial(int a, int b) {
        if (b > a) {
            return 0;
        }
        double r = 1;
        for (int j = 0; j < b; j++) {
            r = r * (a - j) / (j + 1);
        }
        return r;
    }

    private static int count(int[] s, int l) {
        int c = 0;
        for (int v : s) {
            c += v == l ? 1 : 0;
        }
        return c;
    }

    /** Moves one server with l jobs to l + delta and re-sorts. */
    private static int[] move(int[] s, int l, int delta) {
        int[] t = s.clone();
        for (int i = 0; i < t.length; i++) {
            if (t[i] == l) {
                t[i] += delta;
                break;
            }
        }
        java.util.Arrays.sort(t);
        return t;
    }

    private static void enumerate(int[] cur, int pos, int from, int cap, List<int[]> out) {
        if (pos == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int v = from; v <= cap; v++) {
            cur[pos] = v;
            enumerate(cur, pos + 1, v, cap, out);
        }
    }

    private static String key(int[] s) {
        return java.util.Arrays.toString(s);
    }
}
