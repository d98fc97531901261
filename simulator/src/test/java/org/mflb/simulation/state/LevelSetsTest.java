package org.mflb.simulation.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.ServerClasses;

/** The sorted-permutation invariants of {@link LevelSets}, checked against brute force after random moves. */
class LevelSetsTest {

    @Test
    void invariantsHoldUnderRandomMoves() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 37;
        int[] init = new int[n];
        for (int s = 0; s < n; s++) {
            init[s] = r.nextInt(4);
        }
        LevelSets ls = new LevelSets(init);
        int[] level = init.clone();
        check(ls, level);
        for (int step = 0; step < 20_000; step++) {
            int s = r.nextInt(n);
            if (level[s] > 0 && r.nextInt(3) == 0) {
                ls.down(s);
                level[s]--;
            } else {
                ls.up(s); // drifts upwards, so the level array must grow past its initial 64 levels
                level[s]++;
            }
            if (step % 97 == 0) {
                int target = level[s] == 0 ? 0 : r.nextInt(level[s] + 1);
                ls.lowerTo(s, target);
                level[s] = target;
            }
            check(ls, level);
        }
        int max = 0;
        for (int l : level) {
            max = Math.max(max, l);
        }
        assertTrue(max > 64, "test should exercise growth of the level array, max = " + max);
    }

    @Test
    void partialOrderKeepsIdleServersFirst() {
        SplittableRandom r = new SplittableRandom(8);
        int n = 29;
        int[] level = new int[n];
        LevelSets ls = new LevelSets(level, false);
        for (int step = 0; step < 20_000; step++) {
            int s = r.nextInt(n);
            if (level[s] > 0 && r.nextBoolean()) {
                ls.down(s);
                level[s]--;
            } else {
                ls.up(s);
                level[s]++;
            }
            int idle = 0;
            for (int l : level) {
                idle += l == 0 ? 1 : 0;
            }
            assertEquals(n - idle, ls.countAtLeast(1));
            for (int p = 0; p < n; p++) {
                assertEquals(p < idle, level[ls.serverAt(p)] == 0, "idle servers first");
                assertEquals(level[p], ls.level(p));
            }
            for (int i = 2; i < 5; i++) {
                int c = 0;
                for (int l : level) {
                    c += l >= i ? 1 : 0;
                }
                assertEquals(c, ls.countAtLeast(i));
            }
        }
    }

    /**
     * With server classes, each class keeps its block of positions, idle servers before busy ones (and
     * sorted by level in the sorted order), and the busy count of each class gives its busy servers:
     * checked against brute force in both orders (the partial order keeps only the busy counts).
     */
    @Test
    void classBlocksHoldTheirBusyServersLast() {
        ServerClassLayout layout = new ServerClassLayout(ServerClasses.parse("0.3:1.5,0.3:1,0.4:0.625"), 30);
        for (boolean sorted : new boolean[] {false, true}) {
            SplittableRandom r = new SplittableRandom(9);
            int n = layout.servers();
            int[] level = new int[n];
            for (int s = 0; s < n; s++) {
                level[s] = r.nextInt(3);
            }
            LevelSets ls = new LevelSets(level, sorted, layout);
            for (int step = 0; step < 20_000; step++) {
                int s = r.nextInt(n);
                int c = layout.classOf(s);
                if (level[s] > 0 && r.nextInt(5) < 2) {
                    if (step % 2 == 0) {
                        ls.downInClass(s, c);
                    } else {
                        ls.down(s);
                    }
                    level[s]--;
                } else {
                    if (step % 2 == 0) {
                        ls.upInClass(s, c);
                    } else {
                        ls.up(s); // drifts upwards past the initial 64 levels
                    }
                    level[s]++;
                }
                for (int k = 0; k < layout.count(); k++) {
                    int busy = 0;
                    for (int v = layout.start(k); v < layout.end(k); v++) {
                        busy += level[v] > 0 ? 1 : 0;
                    }
                    assertEquals(busy, ls.classBusy()[k], "busy servers of class " + k);
                    boolean[] seen = new boolean[n];
                    for (int i = 0; i < busy; i++) {
                        int v = ls.busyServerOfClass(k, i);
                        assertEquals(k, layout.classOf(v), "class of the busy server");
                        assertTrue(level[v] > 0 && !seen[v], "a busy server, listed once");
                        seen[v] = true;
                    }
                    for (int p = layout.start(k); p < layout.end(k); p++) {
                        assertEquals(k, layout.classOf(ls.serverAt(p)), "the block of class " + k);
                        if (sorted && p > layout.start(k)) {
                            assertTrue(level[ls.serverAt(p - 1)] <= level[ls.serverAt(p)], "sorted block");
                        }
                    }
                }
            }
            for (int s = 0; s < n; s++) {
                assertEquals(level[s], ls.level(s));
            }
            for (int i = 0; i < 5; i++) {
                int count = 0;
                for (int l : level) {
                    count += l >= i ? 1 : 0;
                }
                assertEquals(count, ls.countAtLeast(i), "c_" + i);
            }
        }
    }

    private static void check(LevelSets ls, int[] level) {
        int n = level.length;
        int max = 0;
        for (int s = 0; s < n; s++) {
            assertEquals(level[s], ls.level(s));
            max = Math.max(max, level[s]);
        }
        assertTrue(ls.highestLevel() >= max);
        for (int i = 0; i <= max + 1; i++) {
            int c = 0;
            for (int l : level) {
                if (l >= i) {
                    c++;
                }
            }
            assertEquals(c, ls.countAtLeast(i), "c_" + i);
        }
        // sorted order, and a permutation
        boolean[] seen = new boolean[n];
        for (int p = 0; p < n; p++) {
            int s = ls.serverAt(p);
            assertTrue(!seen[s]);
            seen[s] = true;
            if (p > 0) {
                assertTrue(level[ls.serverAt(p - 1)] <= level[s], "order not sorted at " + p);
            }
        }
    }
}
