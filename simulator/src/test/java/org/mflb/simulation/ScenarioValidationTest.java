package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.pools;
import static org.mflb.simulation.TestModels.loss;

import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;

/** Invalid scenarios fail at construction with one clear line naming the parameter. */
class ScenarioValidationTest {

    private static ScenarioBuilder valid() {
        return SimulationScenario.builder().model(queues(Policy.random(), 0.5)).servers(10).tEnd(10);
    }

    private static void rejects(String parameter, UnaryOperator<ScenarioBuilder> change) {
        MflbException e = assertThrows(MflbException.class, () -> change.apply(valid()).build());
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals(parameter, e.parameter());
        assertTrue(e.getMessage().startsWith(parameter), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void rejectsBadParameters() {
        valid().build();
        rejects("n", b -> b.servers(0));
        rejects("n", b -> b.servers(-5));
        rejects("lambda", b -> b.model(queues(Policy.random(), 0)));
        rejects("lambda", b -> b.model(queues(Policy.random(), -1)));
        rejects("lambda", b -> b.model(queues(Policy.random(), Double.NaN)));
        rejects("lambda", b -> b.model(queues(Policy.random(), (ArrivalRate) null)));
        rejects("lambda", b -> b.model(queues(Policy.random(), 1.0))); // queues, steady state
        rejects("lambda", b -> b.model(queues(Policy.random(), 1.5)));
        rejects("lambda", b -> b.model(queues(Policy.random(), 0.6).withService(Exponential.ofMean(2)))); // λE[S] ≥ 1
        rejects("t-end", b -> b.tEnd(0));
        rejects("t-end", b -> b.tEnd(Double.POSITIVE_INFINITY));
        rejects("warmup", b -> b.warmup(10));
        rejects("warmup", b -> b.warmup(-1));
        rejects("dt", b -> b.dt(-1));
        rejects("dt", b -> b.dt(11));
        rejects("dt", b -> b.dt(1e-6));
        rejects("d", b -> b.model(queues(new Policy.PowerOfD(0, Sampling.REPLACEMENT), 0.5)));
        // distinct sampling needs d ≤ N
        rejects("d", b -> b.model(queues(new Policy.PowerOfD(11, Sampling.DISTINCT), 0.5)));
        rejects("d", b -> b.model(queues(new Policy.Memory(0, Sampling.REPLACEMENT), 0.5)));
        rejects("capacity", b -> b.model(loss(0, Policy.random(), 0.5)));
        rejects("policy", b -> b.model(pools(new Policy.Memory(2, Sampling.REPLACEMENT), 0.5)));
        rejects("policy", b -> b.model(queues(new Policy.Threshold(1), 0.5)));
        rejects("threshold", b -> b.model(pools(new Policy.Threshold(-1), 0.5)));
        rejects("alpha", b -> b.model(pools(new Policy.AdaptiveThreshold(1, 0), 0.5)));
        rejects("replications", b -> b.replications(0));
        rejects("threads", b -> b.threads(0));
        rejects("batches", b -> b.batches(1));
        rejects("covariance-levels", b -> b.covarianceLevels(-1));
        rejects("percentiles", b -> b.percentiles(50, 100));
        rejects("init", b -> b.model(loss(2, Policy.random(), 0.5)).initialState(InitialState.all(3)));
        rejects("init", b -> b.initialState(InitialState.fixedPoint())); // no model to take it of
        // the memory: form sets the observations of SQ(d) with memory, which no other dispatcher keeps
        rejects("init", b -> b.initialMemory(MemoryState.parse("memory:0/3=1")));
        rejects("engine", b -> b.model(queues(new Policy.Memory(2, Sampling.REPLACEMENT), 0.5))
                .engine(Engine.OCCUPANCY));
        rejects("engine", b -> b.eventCalendar(true).engine(Engine.OCCUPANCY));
        rejects("system", b -> b.model(LoadBalancingModel.of(null, Policy.random(), 0.5)));
        rejects("policy", b -> b.model(LoadBalancingModel.of(ServerSystem.singleServerQueues(), null, 0.5)));
    }

    @Test
    void missingRequiredPartsAreNamed() {
        for (String[] missing : new String[][] {{"model"}, {"n"}, {"t-end"}}) {
            ScenarioBuilder b = SimulationScenario.builder();
            if (!missing[0].equals("model")) {
                b.model(queues(Policy.random(), 0.5));
            }
            if (!missing[0].equals("n")) {
                b.servers(10);
            }
            if (!missing[0].equals("t-end")) {
                b.tEnd(10);
            }
            MflbException e = assertThrows(MflbException.class, b::build);
            assertEquals(ErrorKind.MISSING_PARAMETER, e.kind());
            assertEquals(missing[0], e.parameter());
        }
    }

    @Test
    void acceptsWhatIsValid() {
        // λ ≥ 1 for queues is fine in a transient run, and for pools always
        valid().model(queues(Policy.random(), 1.5)).dt(1).build();
        valid().model(pools(Policy.random(), 20)).build();
        // d > N is fine with replacement
        valid().model(queues(Policy.powerOfD(20), 0.5)).build();
        // a time-varying rate cannot be checked against 1 in advance
        valid().model(queues(Policy.random(), t -> 2 + Math.sin(t))).build();
        SimulationScenario s = valid().build();
        assertEquals(1.0, s.run().warmup(), "default warm-up is t-end / 10 for a steady-state run");
        assertEquals(0.0, valid().dt(1).build().run().warmup(), "and 0 for a transient run");
        assertEquals(11, valid().dt(1).build().gridTimes().length);
        // the parts, and the scenario rebuilt from them
        SimulationScenario again = new SimulationScenario(s.model(), s.run(), s.observation());
        assertEquals(s.run(), again.run());
        assertEquals(s.observation(), again.observation());
        assertEquals(s.run(), s.toBuilder().build().run());
    }

    /** The rounding rule c_i = ⌊N x_i + 1/2⌋, worked by hand for N = 7; all:K and empty are exact. */
    @Test
    void initialLevelsRoundTheTailVectorPerServer() {
        // 7·0.5 + 1/2 = 4 servers with >= 1 job; 7·0.3 + 1/2 = 2.6 → 2 servers with >= 2 jobs
        int[] l = valid().servers(7).initialState(InitialState.tail(1, 0.5, 0.3)).build().run().initialLevels();
        assertArrayEquals(new int[] {2, 2, 1, 1, 0, 0, 0}, l);
        assertArrayEquals(new int[] {3, 3, 3, 3, 3, 3, 3},
                valid().servers(7).initialState(InitialState.all(3)).build().run().initialLevels());
        assertArrayEquals(new int[7], valid().servers(7).build().run().initialLevels());
    }

    @Test
    void parsesInitialStates() {
        assertEquals(InitialState.all(3), InitialState.parse("all:3"));
        assertEquals(InitialState.empty(), InitialState.parse("empty"));
        assertEquals("tail:1.0,0.8,0.3", InitialState.parse("tail:1,0.8,0.3").toString());
        for (String bad : new String[] {"full", "all:x", "all:-1", "tail:", "tail:0.9,0.5", "tail:1,0.5,0.7",
            "tail:1,1.2", "tail:1,a"}) {
            MflbException e = assertThrows(MflbException.class, () -> InitialState.parse(bad), bad);
            assertEquals("init", e.parameter());
        }
        assertEquals("engine", assertThrows(MflbException.class, () -> Engine.parse("fast")).parameter());
    }

    @Test
    void aRateAboveItsAnnouncedSupremumIsReported() {
        // a rate whose supremum() lies: thinning cannot be exact, so the run must fail, not clip
        ArrivalRate liar = new ArrivalRate() {
            @Override
            public double at(double t) {
                return 2.0;
            }

            @Override
            public double supremum(double t0, double t1) {
                return 1.0;
            }
        };
        MflbException e = assertThrows(MflbException.class, () -> Simulator.run(SimulationScenario.builder()
                .model(pools(Policy.random(), liar)).servers(10).tEnd(5).threads(1).build()));
        assertEquals("lambda", e.parameter());
        MflbException viaThreads = assertThrows(MflbException.class, () -> Simulator.run(SimulationScenario.builder()
                .model(pools(Policy.random(), liar)).servers(10).tEnd(5).replications(2).threads(2).build()));
        assertEquals("lambda", viaThreads.parameter());
    }
}
