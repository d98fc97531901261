package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;

/**
 * The PDE's start: the shared tail vector plus the ages of the jobs in service. Masses with exactly
 * {@code k} jobs are differences of the tail, worked by hand (exact in binary: halves and quarters).
 */
class PdeInitialStateTest {

    @Test
    void addsAgesToTheSharedTailVector() {
        PdeInitialState fresh = PdeInitialState.parse("tail:1,0.75,0.25");
        assertSame(PdeInitialState.Ages.FRESH, fresh.ages());
        assertEquals(InitialState.tail(1, 0.75, 0.25), fresh.occupancy());
        assertArrayEquals(new double[] {0.5, 0.25}, fresh.exactMasses());

        PdeInitialState eq = PdeInitialState.parse(" tail-eq:1,0.75,0.25 ");
        assertSame(PdeInitialState.Ages.EQUILIBRIUM, eq.ages());
        assertEquals(fresh.occupancy(), eq.occupancy());

        // all:K is the tail (1, 1, ..., 1): every server holds exactly K jobs
        assertArrayEquals(new double[] {0, 0, 1}, PdeInitialState.parse("all:3").exactMasses());
        assertEquals(0, PdeInitialState.parse("empty").occupiedLevels());
    }

    @Test
    void printsTheCommandLineForm() {
        assertEquals("empty", PdeInitialState.parse("empty").toString());
        assertEquals("tail:1,0.5,0.2", PdeInitialState.parse("tail:1,0.5,0.2").toString());
        assertEquals("tail-eq:1,0.5,0.2", PdeInitialState.parse("tail-eq:1,0.5,0.2").toString());
        assertEquals("all:3", PdeInitialState.parse("all:3").toString());
        assertEquals("tail-eq:1,0.5", PdeInitialState.tail(PdeInitialState.Ages.EQUILIBRIUM, 1, 0.5).toString());
    }

    @Test
    void refusesTheFixedPointAndMalformedStatesInOneLine() {
        for (String bad : new String[] {"fixed-point", "full", "tail-eq:", "tail-eq:1,abc", "tail-eq:1,0.2,0.5",
            "tail-eq:0.5", "tail:1,0.2,0.5", "all:-1", "all-eq:2"}) {
            MflbException e = assertThrows(MflbException.class, () -> PdeInitialState.parse(bad), bad);
            assertEquals("init", e.parameter(), bad);
            assertTrue(e.getMessage().startsWith("init = " + bad + " is invalid: must be "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertTrue(assertThrows(MflbException.class, () -> PdeInitialState.parse("fixed-point")).getMessage()
                .contains("tail-eq:"));
        assertThrows(MflbException.class, () -> PdeInitialState.of(InitialState.fixedPoint(), PdeInitialState.Ages.FRESH));
    }
}
