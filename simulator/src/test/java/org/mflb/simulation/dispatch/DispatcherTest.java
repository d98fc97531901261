package org.mflb.simulation.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.TestModels;
import org.mflb.simulation.state.LevelSets;
import org.mflb.simulation.state.ServerClassLayout;

/** Each dispatcher does what its policy says, on random occupancies. */
class DispatcherTest {

    /** 99.9% quantile of chi-square with 6 degrees of freedom. */
    private static final double CHI2_6_999 = 22.458;

    private static UniformRandomProvider rng(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 12345});
    }

    private static DispatchContext context(Policy p, LevelSets occ, UniformRandomProvider rng) {
        SimulationScenario sc = SimulationScenario.builder().model(TestModels.queues(p, 0.5)).servers(occ.servers())
                .tEnd(1).build();
        return new DispatchContext(sc, occ, rng);
    }

    private static int[] randomLevels(SplittableRandom r, int n, int max) {
        int[] l = new int[n];
        for (int s = 0; s < n; s++) {
            l[s] = r.nextInt(max + 1);
        }
        return l;
    }

    @Test
    void lemireMapIsUniform() {
        // 70 000 draws on 7 values, chi-square with 6 degrees of freedom at the 0.1% level
        UniformRandomProvider rng = rng(1);
        int[] counts = new int[7];
        for (int i = 0; i < 70_000; i++) {
            counts[PowerOfDDispatcher.bounded(rng.nextInt(), 7, rng)]++;
        }
        double chi2 = 0;
        for (int c : counts) {
            chi2 += (c - 10_000.0) * (c - 10_000.0) / 10_000.0;
        }
        assertTrue(chi2 < CHI2_6_999, "chi2 = " + chi2);
    }

    @Test
    void jsqPicksAShortestQueueUniformly() {
        SplittableRandom r = new SplittableRandom(2);
        UniformRandomProvider rng = rng(2);
        for (int trial = 0; trial < 200; trial++) {
            LevelSets occ = new LevelSets(randomLevels(r, 15, 3));
            Dispatcher jsq = new JsqDispatcher(context(Policy.jsq(), occ, rng));
            int min = Integer.MAX_VALUE;
            for (int s = 0; s < 15; s++) {
                min = Math.min(min, occ.level(s));
            }
            for (int k = 0; k < 20; k++) {
                assertEquals(min, occ.level(jsq.select(0)));
            }
        }
        // uniform among the 7 servers tied at the minimum
        LevelSets occ = new LevelSets(new int[] {1, 2, 1, 1, 3, 1, 1, 1, 1, 2});
        Dispatcher jsq = new JsqDispatcher(context(Policy.jsq(), occ, rng));
        int[] counts = new int[10];
        for (int i = 0; i < 70_000; i++) {
            counts[jsq.select(0)]++;
        }
        double chi2 = 0;
        for (int s : new int[] {0, 2, 3, 5, 6, 7, 8}) {
            chi2 += (counts[s] - 10_000.0) * (counts[s] - 10_000.0) / 10_000.0;
        }
        assertEquals(0, counts[1] + counts[4] + counts[9]);
        assertTrue(chi2 < CHI2_6_999, "chi2 = " + chi2);
    }

    @Test
    void jiqPicksAnIdleServerWhenThereIsOne() {
        UniformRandomProvider rng = rng(3);
        LevelSets occ = new LevelSets(new int[] {1, 0, 2, 0, 1});
        Dispatcher jiq = new JiqDispatcher(context(Policy.jiq(), occ, rng));
        for (int i = 0; i < 100; i++) {
            assertEquals(0, occ.level(jiq.select(0)));
        }
        LevelSets busy = new LevelSets(new int[] {1, 3, 2});
        Dispatcher all = new JiqDispatcher(context(Policy.jiq(), busy, rng));
        int[] counts = new int[3];
        for (int i = 0; i < 3000; i++) {
            counts[all.select(0)]++;
        }
        for (int c : counts) {
            assertTrue(c > 850 && c < 1150, "uniform when nobody is idle: " + c); // ±6 standard deviations
        }
    }

    @Test
    void sqdWithAllServersSampledIsJsqAndNeverRepeatsAServer() {
        SplittableRandom r = new SplittableRandom(4);
        UniformRandomProvider rng = rng(4);
        for (int trial = 0; trial < 200; trial++) {
            LevelSets occ = new LevelSets(randomLevels(r, 6, 4));
            Policy.PowerOfD sixOfSix = new Policy.PowerOfD(6, Sampling.DISTINCT);
            Dispatcher all = new PowerOfDDispatcher(context(sixOfSix, occ, rng), sixOfSix);
            int min = Integer.MAX_VALUE;
            for (int s = 0; s < 6; s++) {
                min = Math.min(min, occ.level(s));
            }
            assertEquals(min, occ.level(all.select(0)), "d = N distinct servers sees every server");
        }
        ServerSample sample = new ServerSample(rng, 9, 9, true);
        for (int k = 0; k < 100; k++) {
            int[] s = sample.draw();
            boolean[] seen = new boolean[9];
            for (int v : s) {
                assertTrue(!seen[v], "repeated server");
                seen[v] = true;
            }
        }
    }

    /**
     * SQ(2) and SED(d) with replacement draw their samples inline rather than through a
     * {@link ServerSample}: the same stream must give the same draws, in the same order, and the choice
     * must be the first sample of smallest level (SQ) or smallest value {@code (Q+1)/s} compared exactly
     * (SED) — checked against the sampler and {@link ServerClassLayout#compareValues} on a twin stream.
     */
    @Test
    void samplesWithReplacementAreTheSamplersDrawsAndTheFirstBestWins() {
        SplittableRandom r = new SplittableRandom(6);
        int n = 20;
        Policy[] policies = {Policy.powerOfD(2), new Policy.ShortestExpectedDelay(2, Sampling.REPLACEMENT),
            new Policy.ShortestExpectedDelay(3, Sampling.REPLACEMENT)};
        for (Policy p : policies) {
            SimulationScenario sc = SimulationScenario.builder()
                    .model(TestModels.queues(p, 0.5).withClasses(ServerClasses.parse("0.3:1.5,0.3:1,0.4:0.625")))
                    .servers(n).tEnd(1).build();
            ServerClassLayout layout = sc.classLayout();
            LevelSets occ = new LevelSets(randomLevels(r, n, 5), false, layout);
            UniformRandomProvider rng = rng(6);
            Dispatcher dispatcher = sc.policyImplementation().createDispatcher(new DispatchContext(sc, occ, rng));
            int d = p instanceof Policy.PowerOfD q ? q.d() : ((Policy.ShortestExpectedDelay) p).d();
            boolean sed = p instanceof Policy.ShortestExpectedDelay;
            ServerSample twin = new ServerSample(rng(6), n, d, false);
            for (int step = 0; step < 5_000; step++) {
                int[] sample = twin.draw();
                int best = sample[0];
                for (int i = 1; i < d; i++) {
                    int v = sample[i];
                    int cmp = sed ? layout.compareValues(layout.classOf(v), occ.level(v), layout.classOf(best),
                            occ.level(best)) : Integer.compare(occ.level(v), occ.level(best));
                    if (cmp < 0) {
                        best = v;
                    }
                }
                int chosen = dispatcher.select(0);
                assertEquals(best, chosen, p + " at step " + step);
                if (r.nextBoolean() || occ.level(chosen) == 0) {
                    occ.up(chosen);
                } else {
                    occ.down(chosen);
                }
            }
        }
    }

    @Test
    void memoryObservationsBoundTheTrueLengthsAndTheChoiceIsAMinimum() {
        SplittableRandom r = new SplittableRandom(5);
        UniformRandomProvider rng = rng(5);
        int n = 12;
        LevelSets occ = new LevelSets(randomLevels(r, n, 3));
        Policy.Memory twoDistinct = new Policy.Memory(2, Sampling.DISTINCT);
        MemoryDispatcher mem = new MemoryDispatcher(context(twoDistinct, occ, rng), twoDistinct);
        for (int step = 0; step < 20_000; step++) {
            if (r.nextInt(2) == 0) {
                int minObs = Integer.MAX_VALUE;
                // the choice is made after refreshing the sample, so compare with the minimum after select
                int s = mem.select(0);
                for (int k = 0; k < n; k++) {
                    minObs = Math.min(minObs, mem.observation(k));
                }
                assertTrue(mem.observation(s) - 1 <= minObs, "chosen observation was not minimal");
                occ.up(s);
            } else {
                int s = r.nextInt(n);
                if (occ.level(s) > 0) {
                    occ.down(s); // a departure the dispatcher does not see
                }
            }
            for (int k = 0; k < n; k++) {
                assertTrue(mem.observation(k) >= occ.level(k), "observation below the true length");
            }
        }
    }

    /**
     * A stale-memory start (memory:Q/m=share): the scenario rounds the pairs to whole servers (counts
     * summing to N) and the dispatcher starts from those observations; servers believed loaded get no
     * job until sampled.
     */
    @Test
    void memoryStartsFromTheScenariosObservations() {
        int n = 10;
        Policy.Memory oneSampled = new Policy.Memory(1, Sampling.REPLACEMENT);
        SimulationScenario sc = SimulationScenario.builder().model(TestModels.queues(oneSampled, 0.5)).servers(n)
                .tEnd(1)
                .initialMemory(org.mflb.core.model.MemoryState.parse("memory:0/3=0.35,2/2=0.35,1/4=0.3")).build();
        int[] q = sc.run().initialLevels();
        int[] m = sc.run().initialObservations();
        int[][] count = new int[5][5];
        for (int s = 0; s < n; s++) {
            count[q[s]][m[s]]++;
        }
        // 3.5, 3.5, 3 servers: the two halves go by largest remainder to the first pairs in (m, Q) order
        assertEquals(4, count[2][2]);
        assertEquals(3, count[0][3]);
        assertEquals(3, count[1][4]);
        LevelSets occ = new LevelSets(q);
        MemoryDispatcher mem = new MemoryDispatcher(new DispatchContext(sc, occ, rng(3)), oneSampled);
        for (int s = 0; s < n; s++) {
            assertEquals(m[s], mem.observation(s), "observation of server " + s);
        }
        // d = 1: the sampled server is refreshed, the job goes to a smallest observation overall
        int chosen = mem.select(0);
        assertTrue(mem.observation(chosen) - 1 <= 2, "sent to a server observed at " + (mem.observation(chosen) - 1));
    }
}
