package org.mflb.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.ServerClasses;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * The hot loops' lookups written without branches give exactly the answers of their definitions (and of
 * the stopping loops they replaced, so that a seed gives the same numbers as before): the level of a
 * rank {@code L(r) = max{l : c_l > r}}, the class of a server number, and the class and busy server
 * of a departure.
 */
class BranchFreeLookupsTest {

    @Test
    void levelOfRankIsTheLargestLevelWithMoreServersThanTheRank() {
        SplittableRandom rng = new SplittableRandom(5);
        // highest levels below and above the counted range (the search), and arrays longer than needed
        for (int highest : new int[] {0, 1, 2, 7, OccupancyReplication.COUNTED_LEVELS, OccupancyReplication.COUNTED_LEVELS + 1, 90}) {
            for (int trial = 0; trial < 20; trial++) {
                int n = 1 + rng.nextInt(300);
                int[] c = new int[Math.max(64, highest + 2 + rng.nextInt(3))];
                c[0] = n;
                for (int l = 1; l <= highest; l++) {
                    c[l] = rng.nextInt(c[l - 1] + 1); // non-increasing, possibly zero before highest
                }
                for (int r = 0; r < n; r++) {
                    int expected = 0;
                    for (int l = 0; l < c.length; l++) {
                        if (c[l] > r) {
                            expected = l;
                        }
                    }
                    assertEquals(expected, OccupancyReplication.levelOfRank(c, r, highest), "highest " + highest + " r " + r);
                }
            }
        }
    }

    @Test
    void classOfIsTheBlockHoldingTheServer() {
        // 3 classes (the counted case) and 10 (the binary search), sizes N·a_k
        ServerClasses three = ServerClasses.parse("0.3:1.5,0.3:1,0.4:0.625");
        double[] a = new double[10];
        double[] s = new double[10];
        for (int k = 0; k < 10; k++) {
            a[k] = 0.1;
            s[k] = k + 1;
        }
        for (ServerClassLayout layout : new ServerClassLayout[] {new ServerClassLayout(three, 1000),
            new ServerClassLayout(ServerClasses.of(a, s), 200)}) {
            for (int k = 0; k < layout.count(); k++) {
                for (int server = layout.start(k); server < layout.end(k); server++) {
                    assertEquals(k, layout.classOf(server));
                }
            }
        }
    }

    @Test
    void departureClassIsTheStoppingLoopsAnswerBitForBit() {
        SplittableRandom rng = new SplittableRandom(7);
        ServerClasses four = ServerClasses.parse("0.25:2,0.25:1.3,0.25:0.7,0.25:0.1");
        ServerClassLayout layout = new ServerClassLayout(four, 40);
        int[][] empty = new int[4][];
        for (int k = 0; k < 4; k++) {
            empty[k] = new int[] {10};
        }
        ClassStatistics stats = new ClassStatistics(layout, 1.7, empty);
        for (int trial = 0; trial < 20_000; trial++) {
            int[] busy = new int[4];
            int total = 0;
            for (int k = 0; k < 4; k++) {
                busy[k] = rng.nextInt(4) == 0 ? 0 : rng.nextInt(11); // empty classes, the last ones too
                total += busy[k];
            }
            if (total == 0) {
                continue;
            }
            double rate = stats.busyRate(busy);
            // uniform values, and the class boundaries themselves (v = w_0, v = w_0 + w_1, ...)
            double v = trial % 4 == 0 ? boundary(stats, busy, rng.nextInt(4)) : rng.nextDouble() * rate;
            if (!(v < rate)) {
                continue;
            }
            assertEquals(stoppingLoop(stats, busy, v), stats.departure(busy, v), "busy " + java.util.Arrays.toString(busy) + " v " + v);
            long ki = stats.departure(busy, v);
            int k = (int) (ki >>> 32);
            int i = (int) ki;
            assertEquals(true, busy[k] > 0 && i >= 0 && i < busy[k], "a busy server of a class with busy servers");
        }
    }

    /** @return {@code Σ_{c<j} w_c}, computed as the engines' remainders are */
    private static double boundary(ClassStatistics stats, int[] busy, int j) {
        double v = 0;
        for (int c = 0; c < j; c++) {
            v += stats.rate[c] * busy[c];
        }
        return v;
    }

    /** The loop that stops at the class (the code before the branch-free one), as the definition. */
    private static long stoppingLoop(ClassStatistics stats, int[] busy, double v) {
        int last = busy.length - 1;
        while (busy[last] == 0) {
            last--;
        }
        for (int c = 0; c <= last; c++) {
            double w = stats.rate[c] * busy[c];
            if (v < w || c == last) {
                int i = (int) (v * stats.inverseRate[c]);
                if (i >= busy[c]) {
                    i = busy[c] - 1;
                }
                return ((long) c << 32) | i;
            }
            v -= w;
        }
        throw new IllegalStateException();
    }
}
