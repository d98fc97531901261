package org.mflb.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
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
    void classCountsLevelOfRankIsTheLargestLevelWithMoreServersThanTheRank() {
        // the occupancy engine with classes: counts at an offset in a longer array (the classes' counts
        // side by side), the first levels counted, the rest galloped and bisected
        SplittableRandom rng = new SplittableRandom(9);
        final int length = 128;
        for (int highest : new int[] {0, 1, OccupancyClassReplication.COUNTED_FIRST - 1, OccupancyClassReplication.COUNTED_FIRST,
            OccupancyClassReplication.COUNTED_FIRST + 1, 40, length - 2}) {
            for (int trial = 0; trial < 20; trial++) {
                int n = 1 + rng.nextInt(300);
                int offset = length * rng.nextInt(3);
                int[] c = new int[3 * length];
                Arrays.fill(c, 7); // other classes' counts around this one: never read as its own
                Arrays.fill(c, offset, offset + length, 0);
                c[offset] = n;
                for (int l = 1; l <= highest; l++) {
                    c[offset + l] = rng.nextInt(c[offset + l - 1] + 1);
                }
                for (int r = 0; r < n; r++) {
                    int expected = 0;
                    for (int l = 0; l < length; l++) {
                        if (c[offset + l] > r) {
                            expected = l;
                        }
                    }
                    assertEquals(expected, OccupancyClassReplication.levelOfRank(c, offset, length - 1, r),
                            "highest " + highest + " offset " + offset + " r " + r);
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
        // 1 to 4 classes (the straight-line cases) and 5, 6 (the loop)
        String[] classSets = {"1:1.3", "0.5:2,0.5:0.7", "0.3:1.5,0.3:1,0.4:0.625", "0.25:2,0.25:1.3,0.25:0.7,0.25:0.1",
            "0.2:3,0.2:2,0.2:1,0.2:0.5,0.2:0.25", "0.125:2,0.125:1.9,0.25:1,0.125:0.6,0.125:0.5,0.25:0.1"};
        SplittableRandom rng = new SplittableRandom(7);
        for (String set : classSets) {
            ServerClassLayout layout = new ServerClassLayout(ServerClasses.parse(set), 40);
            int classes = layout.count();
            ClassStatistics stats = new ClassStatistics(layout, 1.7);
            int boundaries = 0;
            for (int trial = 0; trial < 20_000; trial++) {
                int[] busy = new int[classes];
                int total = 0;
                for (int k = 0; k < classes; k++) {
                    busy[k] = rng.nextInt(4) == 0 ? 0 : rng.nextInt(11); // empty classes, the last ones too
                    total += busy[k];
                }
                if (total == 0) {
                    continue;
                }
                // the engines' offset: the arrival bound N·λ̄ below the departures' part of their uniform
                double offset = trial % 2 == 0 ? 0 : 36 * rng.nextDouble();
                double rate = stats.busyRate(busy, offset);
                assertEquals(lowerEdge(stats, busy, 0, classes), rate, 0, set + ": the total rate, summed in order");
                // uniform values, the class boundaries themselves (u = e_1, e_2, ...) and the top end
                boolean atBoundary = trial % 4 == 1 && classes > 1;
                double u = atBoundary ? lowerEdge(stats, busy, offset, 1 + rng.nextInt(classes - 1))
                        : trial % 97 == 0 ? offset + rate : offset + rng.nextDouble() * rate;
                boundaries += atBoundary ? 1 : 0;
                assertEquals(stoppingLoop(stats, busy, offset, u), stats.departure(busy, u),
                        set + ": busy " + java.util.Arrays.toString(busy) + " offset " + offset + " u " + u);
                long ki = stats.departure(busy, u);
                int k = (int) (ki >>> 32);
                int i = (int) ki;
                assertTrue(busy[k] > 0 && i >= 0 && i < busy[k], set + ": a busy server of a class with busy servers");
            }
            assertTrue(classes == 1 || boundaries > 4000, set + ": boundaries tried " + boundaries);
        }
    }

    /** @return {@code e_j = o + Σ_{c<j} w_c}, summed as {@link ClassStatistics#busyRate} sums it */
    private static double lowerEdge(ClassStatistics stats, int[] busy, double offset, int j) {
        double r = 0;
        for (int c = 0; c < j; c++) {
            r += stats.rate[c] * busy[c];
        }
        return offset + r;
    }

    /**
     * The definition: the last class with busy servers whose part {@code [e_c, e_{c+1})} holds u (the
     * last class with busy servers when u reaches the top through rounding), and the index
     * {@code ⌊(u − e_c)/(μ s_c)⌋} capped at the class's last busy server.
     */
    private static long stoppingLoop(ClassStatistics stats, int[] busy, double offset, double u) {
        int last = busy.length - 1;
        while (busy[last] == 0) {
            last--;
        }
        for (int c = 0; c <= last; c++) {
            if (busy[c] > 0 && (u < lowerEdge(stats, busy, offset, c + 1) || c == last)) {
                int i = (int) ((u - lowerEdge(stats, busy, offset, c)) * stats.inverseRate[c]);
                if (i >= busy[c]) {
                    i = busy[c] - 1;
                }
                return ((long) c << 32) | i;
            }
        }
        throw new IllegalStateException();
    }
}
