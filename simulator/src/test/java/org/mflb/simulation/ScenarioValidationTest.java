package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;

/** Invalid scenarios fail at construction with one clear line naming the parameter. */
class ScenarioValidationTest {

    private static SimulationScenario.Builder valid() {
        return SimulationScenario.builder().servers(10).lambda(0.5).tEnd(10);
    }

    private static void rejects(String parameter, UnaryOperator<SimulationScenario.Builder> change) {
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
        rejects("lambda", b -> b.lambda(0));
        rejects("lambda", b -> b.lambda(-1));
        rejects("lambda", b -> b.lambda(Double.NaN));
        rejects("lambda", b -> b.arrivalRate(null));
        rejects("lambda", b -> b.lambda(1.0)); // queues, steady state
        rejects("lambda", b -> b.lambda(1.5));
        rejects("t-end", b -> b.tEnd(0));
        rejects("t-end", b -> b.tEnd(Double.POSITIVE_INFINITY));
        rejects("warmup", b -> b.warmup(10));
        rejects("warmup", b -> b.warmup(-1));
        rejects("dt", b -> b.dt(-1));
        rejects("dt", b -> b.dt(11));
        rejects("dt", b -> b.dt(1e-6));
        rejects("d", b -> b.policy(Policy.SQD).d(0));
        rejects("d", b -> b.policy(Policy.SQD).d(11).sampling(Sampling.DISTINCT)); // distinct sampling needs d ≤ N
        rejects("d", b -> b.policy(Policy.MEMORY).d(0).sampling(Sampling.REPLACEMENT));
        rejects("capacity", b -> b.system(SystemKind.LOSS).capacity(0));
        rejects("policy", b -> b.system(SystemKind.POOLS).policy(Policy.MEMORY));
        rejects("policy", b -> b.system(SystemKind.SUPERMARKET).policy(Policy.THRESHOLD).threshold(1));
        rejects("threshold", b -> b.system(SystemKind.POOLS).policy(Policy.THRESHOLD));
        rejects("alpha", b -> b.system(SystemKind.POOLS).policy(Policy.ADAPTIVE_THRESHOLD).alpha(1));
        rejects("replications", b -> b.replications(0));
        rejects("threads", b -> b.threads(0));
        rejects("batches", b -> b.batches(1));
        rejects("covariance-levels", b -> b.covarianceLevels(-1));
        rejects("init", b -> b.system(SystemKind.LOSS).capacity(2).initialState(InitialState.all(3)));
        rejects("init", b -> b.initialState(InitialState.fixedPoint())); // no model to take it of
        rejects("system", b -> b.system(null));
        rejects("policy", b -> b.policy(null));
    }

    @Test
    void acceptsWhatIsValid() {
        // λ ≥ 1 for queues is fine in a transient run, and for pools always
        valid().lambda(1.5).dt(1).build();
        valid().system(SystemKind.POOLS).lambda(20).build();
        // d > N is fine with replacement; d is ignored by policies that do not sample
        valid().policy(Policy.SQD).d(20).sampling(Sampling.REPLACEMENT).build();
        valid().policy(Policy.JSQ).d(0).build();
        // a time-varying rate cannot be checked against 1 in advance
        valid().arrivalRate(t -> 2 + Math.sin(t)).build();
        SimulationScenario s = valid().build();
        assertEquals(1.0, s.warmup(), "default warm-up is t-end / 10 for a steady-state run");
        assertEquals(0.0, valid().dt(1).build().warmup(), "and 0 for a transient run");
        assertEquals(11, valid().dt(1).build().gridTimes().length);
    }

    /** The rounding rule c_i = ⌊N x_i + 1/2⌋, worked by hand for N = 7; all:K and empty are exact. */
    @Test
    void initialLevelsRoundTheTailVectorPerServer() {
        // 7·0.5 + 1/2 = 4 servers with >= 1 job; 7·0.3 + 1/2 = 2.6 → 2 servers with >= 2 jobs
        int[] l = valid().servers(7).initialState(InitialState.tail(1, 0.5, 0.3)).build().initialLevels();
        assertArrayEquals(new int[] {2, 2, 1, 1, 0, 0, 0}, l);
        assertArrayEquals(new int[] {3, 3, 3, 3, 3, 3, 3},
                valid().servers(7).initialState(InitialState.all(3)).build().initialLevels());
        assertArrayEquals(new int[7], valid().servers(7).build().initialLevels());
    }

    @Test
    void parsesCommandLineNames() {
        assertEquals(SystemKind.LOSS, SystemKind.parse("loss"));
        assertEquals(Policy.ADAPTIVE_THRESHOLD, Policy.parse("adaptive-threshold"));
        assertEquals(Sampling.REPLACEMENT, Sampling.parse("replacement"));
        assertEquals(InitialState.all(3), InitialState.parse("all:3"));
        assertEquals(InitialState.empty(), InitialState.parse("empty"));
        assertEquals("tail:1.0,0.8,0.3", InitialState.parse("tail:1,0.8,0.3").toString());
        for (String bad : new String[] {"full", "all:x", "all:-1", "tail:", "tail:0.9,0.5", "tail:1,0.5,0.7",
            "tail:1,1.2", "tail:1,a"}) {
            MflbException e = assertThrows(MflbException.class, () -> InitialState.parse(bad), bad);
            assertEquals("init", e.parameter());
        }
        assertEquals("policy", assertThrows(MflbException.class, () -> Policy.parse("jsq2")).parameter());
        assertEquals("system", assertThrows(MflbException.class, () -> SystemKind.parse("queue")).parameter());
        assertEquals("sampling", assertThrows(MflbException.class, () -> Sampling.parse("x")).parameter());
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
                .system(SystemKind.POOLS).servers(10).arrivalRate(liar).tEnd(5).threads(1).build()));
        assertEquals("lambda", e.parameter());
        MflbException viaThreads = assertThrows(MflbException.class, () -> Simulator.run(SimulationScenario.builder()
                .system(SystemKind.POOLS).servers(10).arrivalRate(liar).tEnd(5).replications(2).threads(2).build()));
        assertEquals("lambda", viaThreads.parameter());
    }
}
