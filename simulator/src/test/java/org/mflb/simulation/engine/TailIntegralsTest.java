package org.mflb.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.mflb.core.system.ServerClasses;
import org.mflb.simulation.state.LevelCounts;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * The integrals of the tail counts, of all servers and split by class, against the integrals of the
 * same piecewise-constant paths summed interval by interval (the definition): random walks of the
 * servers' levels, several units, levels growing past the initial array.
 */
class TailIntegralsTest {

    /** The levels of N servers, with the counts {@code c_i} the integrals read. */
    private static final class Levels implements LevelCounts {
        final int[] level;
        int highest;

        Levels(int n) {
            level = new int[n];
        }

        @Override
        public int servers() {
            return level.length;
        }

        @Override
        public int countAtLeast(int i) {
            int c = 0;
            for (int l : level) {
                c += l >= i ? 1 : 0;
            }
            return c;
        }

        @Override
        public int highestLevel() {
            return highest;
        }

        int[] classCounts(ServerClassLayout layout) {
            int k = layout.count();
            int[] counts = new int[(highest + 1) * k];
            for (int s = 0; s < level.length; s++) {
                for (int i = 1; i <= level[s]; i++) {
                    counts[i * k + layout.classOf(s)]++;
                }
            }
            return counts;
        }
    }

    @Test
    void classIntegralsMatchTheirDefinitionAndSumToTheTail() {
        ServerClassLayout layout = new ServerClassLayout(ServerClasses.parse("0.25:2,0.5:1,0.25:0.5"), 8);
        int k = layout.count();
        SplittableRandom rng = new SplittableRandom(11);
        Levels one = new Levels(8);
        Levels split = new Levels(8);
        TailIntegrals all = new TailIntegrals(one, 0, 1);
        TailIntegrals byClass = new TailIntegrals(split, 0, k);
        double t = 0;
        for (int unit = 0; unit < 4; unit++) {
            double a = t;
            double b = a + 50;
            all.startUnit(a, b);
            byClass.startUnit(a, b, split.classCounts(layout));
            // the definitions: Σ over the intervals between events of count × length
            double[] tailArea = new double[200];
            double[] jobArea = new double[k];
            while (true) {
                double next = t + rng.nextDouble() * 0.3;
                double until = Math.min(next, b);
                for (int s = 0; s < 8; s++) {
                    for (int i = 1; i <= split.level[s]; i++) {
                        tailArea[i] += until - t;
                    }
                    jobArea[layout.classOf(s)] += split.level[s] * (until - t);
                }
                t = until;
                if (next >= b) {
                    break;
                }
                int s = rng.nextInt(8);
                int c = layout.classOf(s);
                // drift upwards so that the levels pass the initial 64 of the arrays
                if (split.level[s] == 0 || rng.nextDouble() < 0.7) {
                    int l = split.level[s] + 1;
                    all.beforeUp(l, t);
                    byClass.beforeUpInClass(l, c, t);
                    one.level[s] = l;
                    split.level[s] = l;
                    one.highest = Math.max(one.highest, l);
                    split.highest = one.highest;
                } else {
                    int l = split.level[s];
                    all.beforeDown(l, t);
                    byClass.beforeDownInClass(l, c, t);
                    one.level[s] = l - 1;
                    split.level[s] = l - 1;
                }
            }
            double[] x = all.endUnitTail();
            double[] xByClass = byClass.endUnitTail();
            assertEquals(x.length, xByClass.length);
            for (int i = 1; i < x.length; i++) {
                double expected = tailArea[i] / (8 * (b - a));
                assertEquals(expected, x[i], 1e-12 * (1 + i), "unit " + unit + " x_" + i);
                assertEquals(expected, xByClass[i], 1e-12 * (1 + i), "unit " + unit + " x_" + i + " by class");
            }
            double[] q = byClass.endUnitClassMeanJobs(layout);
            for (int c = 0; c < k; c++) {
                assertEquals(jobArea[c] / (layout.size(c) * (b - a)), q[c], 1e-10, "unit " + unit + " class " + c);
            }
        }
        // the walks went past the arrays' initial 64 levels
        assertTrue(split.highest > 64, "highest level " + split.highest);
    }

    @Test
    void oneClassIsTheTailOfAllServers() {
        ServerClassLayout layout = new ServerClassLayout(ServerClasses.parse("1:2"), 3);
        Levels levels = new Levels(3);
        levels.level[0] = 2;
        levels.level[2] = 1;
        levels.highest = 2;
        TailIntegrals byClass = new TailIntegrals(levels, 0, 1);
        byClass.startUnit(0, 4, levels.classCounts(layout));
        byClass.beforeDownInClass(2, 0, 1); // server 0: 2 → 1 at t = 1
        levels.level[0] = 1;
        // ∫c_1 = 2·4, ∫c_2 = 1·1: x̄ = (8, 1)/(3·4); Q̄ = (3·1 + 2·3)/(3·4)
        assertArrayEquals(new double[] {1, 8.0 / 12, 1.0 / 12}, byClass.endUnitTail(), 1e-15);
        assertArrayEquals(new double[] {9.0 / 12}, byClass.endUnitClassMeanJobs(layout), 1e-15);
    }
}
