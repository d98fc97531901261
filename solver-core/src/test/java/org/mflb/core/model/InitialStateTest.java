package org.mflb.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The shared initial state: the command-line forms, the tail-vector invariants of docs/models.md §0
 * ({@code x_0 = 1}, non-increasing, in [0, 1]) and the truncated tail vector. Exact comparisons: the
 * values are copied, never computed.
 */
class InitialStateTest {

    @Test
    void parsesEveryFormIntoTheTailVectorItDenotes() {
        assertSame(InitialState.Kind.EMPTY, InitialState.parse("empty").kind());
        assertArrayEquals(new double[3], InitialState.parse(" empty ").levels(3));
        assertSame(InitialState.Kind.FIXED_POINT, InitialState.parse("fixed-point").kind());

        InitialState tail = InitialState.parse("tail: 1, 0.8 ,0.3");
        assertEquals(InitialState.Kind.TAIL, tail.kind());
        assertEquals(2, tail.occupiedLevels());
        assertArrayEquals(new double[] {0.8, 0.3, 0, 0}, tail.levels(4));

        InitialState all = InitialState.parse("all:3");
        assertEquals(InitialState.Kind.ALL, all.kind());
        assertEquals(3, all.occupiedLevels());
        assertArrayEquals(new double[] {1, 1, 1, 0}, all.levels(4));
        assertEquals(0, InitialState.parse("all:0").occupiedLevels());
    }

    @Test
    void printsTheCommandLineFormAndReadsItBack() {
        for (String spec : new String[] {"empty", "fixed-point", "tail:1.0,0.8,0.3", "all:3", "tail:1.0"}) {
            InitialState s = InitialState.parse(spec);
            assertEquals(spec, s.toString());
            assertEquals(s, InitialState.parse(s.toString()));
        }
        assertEquals("tail:1.0,0.8,0.3", InitialState.tail(1, 0.8, 0.3).toString());
        assertEquals(InitialState.all(3), InitialState.parse("all:3"));
        assertEquals(InitialState.tail(1, 0.5), InitialState.parse("tail:1,0.5"));
        // all:2 and tail:1,1,1 are the same vector but keep their own form (it is printed back)
        assertNotEquals(InitialState.all(2), InitialState.tail(1, 1, 1));
        assertArrayEquals(InitialState.all(2).levels(2), InitialState.tail(1, 1, 1).levels(2));
    }

    @Test
    void isImmutable() {
        double[] x = {1, 0.5, 0.25};
        InitialState s = InitialState.tail(x);
        x[1] = 0.9;
        double[] levels = s.levels(2);
        levels[0] = 0;
        assertArrayEquals(new double[] {0.5, 0.25}, s.levels(2));
    }

    @Test
    void refusesATruncationThatWouldCutMassAndTheUnresolvedFixedPoint() {
        MflbException e = assertThrows(MflbException.class, () -> InitialState.parse("all:3").levels(2));
        assertEquals("levels", e.parameter());
        assertThrows(IllegalStateException.class, () -> InitialState.fixedPoint().levels(4));
    }

    @Test
    void rejectsEveryMalformedOrInvalidStateWithOneLineNamingInit() {
        String[] bad = {"full", "", "  ", "tail:", "tail:1,,0.5", "tail:1,abc", "tail:0.5,0.2", "tail:1,0.2,0.5",
            "tail:1,1.5", "tail:1,-0.1", "tail:1,NaN", "tail:1,Infinity", "all:x", "all:-1", "all:", "all:1.5",
            "tail-eq:1,0.5", "fixed-point:1"};
        for (String spec : bad) {
            MflbException e = assertThrows(MflbException.class, () -> InitialState.parse(spec), spec);
            assertEquals(ErrorKind.INVALID_PARAMETER, e.kind(), spec);
            assertEquals("init", e.parameter(), spec);
            assertTrue(e.getMessage().startsWith("init = "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertThrows(MflbException.class, () -> InitialState.parse(null));
        assertThrows(MflbException.class, () -> InitialState.tail());
        assertThrows(MflbException.class, () -> InitialState.tail((double[]) null));
        assertThrows(MflbException.class, () -> InitialState.all(-2));
    }

    @Test
    void messagesSayWhatIsWrong() {
        assertMessage("tail:1,0.2,0.5", "x_2 = 0.5 > x_1 = 0.2");
        assertMessage("tail:1,1.5", "entries in [0, 1] (x_1 = 1.5)");
        assertMessage("tail:0.5,0.2", "starting with x_0 = 1");
        assertMessage("all:-1", "all:K with an integer K >= 0");
        assertMessage("full", InitialState.FORMS);
        // a layer's own prefix for a tail vector is quoted as the user wrote it
        MflbException e = assertThrows(MflbException.class, () -> InitialState.parseTail("tail-eq:1,0.2,0.5", "tail-eq:"));
        assertTrue(e.getMessage().startsWith("init = tail-eq:1,0.2,0.5 is invalid"), e.getMessage());
        assertEquals(InitialState.tail(1, 0.4), InitialState.parseTail("tail-eq:1,0.4", "tail-eq:"));
    }

    private static void assertMessage(String spec, String part) {
        String message = assertThrows(MflbException.class, () -> InitialState.parse(spec)).getMessage();
        assertTrue(message.startsWith("init = " + spec + " is invalid: must be "), message);
        assertTrue(message.contains(part), message);
    }
}
