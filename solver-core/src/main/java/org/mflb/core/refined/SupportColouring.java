package org.mflb.core.refined;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups transitions so that within a group any two rate supports are identical or disjoint. One
 * evaluation of all the rates, with coordinate {@code s_a} of every support of the group driven by
 * the same local variable {@code a}, then differentiates every rate of the group at once: a rate
 * never depends on the coordinates another support of its group drives. Greedy colouring of the
 * distinct supports sorted by first coordinate (optimal for interval supports, e.g. the
 * nearest-neighbour rates of the SQ(d) family need two groups).
 */
final class SupportColouring {

    /** Per group: the transitions it covers. */
    final int[][] transitions;
    /** Per group: coordinate → local variable, or −1 when the coordinate is not driven. */
    final int[][] slot;
    /** Per group: number of local variables (largest support). */
    final int[] variables;

    SupportColouring(int[][] supports, int dimension) {
        Map<String, List<Integer>> bySupport = new LinkedHashMap<>();
        for (int l = 0; l < supports.length; l++) {
            bySupport.computeIfAbsent(Arrays.toString(supports[l]), k -> new ArrayList<>()).add(l);
        }
        List<List<Integer>> distinct = new ArrayList<>(bySupport.values());
        distinct.sort((p, q) -> Integer.compare(first(supports[p.get(0)]), first(supports[q.get(0)])));
        List<boolean[]> used = new ArrayList<>();
        List<List<Integer>> groups = new ArrayList<>();
        List<int[]> slots = new ArrayList<>();
        for (List<Integer> same : distinct) {
            int[] s = supports[same.get(0)];
            int g = 0;
            while (g < groups.size() && !disjoint(used.get(g), s)) {
                g++;
            }
            if (g == groups.size()) {
                used.add(new boolean[dimension]);
                groups.add(new ArrayList<>());
                int[] sl = new int[dimension];
                Arrays.fill(sl, -1);
                slots.add(sl);
            }
            for (int a = 0; a < s.length; a++) {
                used.get(g)[s[a]] = true;
                slots.get(g)[s[a]] = a;
            }
            groups.get(g).addAll(same);
        }
        int ng = groups.size();
        transitions = new int[ng][];
        slot = new int[ng][];
        variables = new int[ng];
        for (int g = 0; g < ng; g++) {
            transitions[g] = groups.get(g).stream().mapToInt(Integer::intValue).toArray();
            slot[g] = slots.get(g);
            int m = 0;
            for (int l : transitions[g]) {
                m = Math.max(m, supports[l].length);
            }
            variables[g] = m;
        }
    }

    int groupCount() {
        return transitions.length;
    }

    private static int first(int[] s) {
        return s.length == 0 ? -1 : s[0];
    }

    private static boolean disjoint(boolean[] used, int[] s) {
        for (int j : s) {
            if (used[j]) {
                return false;
            }
        }
        return true;
    }

    /** Coordinates with {@code depends[l][j]}, as increasing supports. */
    static int[][] toSupports(boolean[][] depends) {
        int[][] supports = new int[depends.length][];
        for (int l = 0; l < depends.length; l++) {
            int m = 0;
            for (boolean d : depends[l]) {
                if (d) {
                    m++;
                }
            }
            supports[l] = new int[m];
            m = 0;
            for (int j = 0; j < depends[l].length; j++) {
                if (depends[l][j]) {
                    supports[l][m++] = j;
                }
            }
        }
        return supports;
    }
}
