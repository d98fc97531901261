package org.mflb.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequireTest {

    @Test
    void nanFailsEveryCheckAndNamesTheParameter() {
        MflbException e = assertThrows(MflbException.class, () -> Require.positive("lambda", Double.NaN));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals("lambda", e.parameter());
        assertTrue(e.getMessage().startsWith("lambda = NaN"), e.getMessage());
        assertThrows(MflbException.class, () -> Require.nonNegative("x", Double.NaN));
        assertThrows(MflbException.class, () -> Require.open("alpha", Double.NaN, 0, 1));
        assertThrows(MflbException.class, () -> Require.finite("x", Double.POSITIVE_INFINITY));
    }

    @Test
    void validValuesPassThrough() {
        assertEquals(0.5, Require.open("alpha", 0.5, 0, 1));
        assertEquals(0.0, Require.nonNegative("x", 0.0));
        assertEquals(3, Require.between("d", 3, 1, 10));
        MflbException e = assertThrows(MflbException.class, () -> Require.atLeast("d", 0, 1));
        assertEquals("d = 0 is invalid: must be an integer >= 1", e.getMessage());
    }
}
