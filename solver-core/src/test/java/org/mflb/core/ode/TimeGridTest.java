package org.mflb.core.ode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TimeGridTest {

    @Test
    void indexAtOrBeforeIsTheLastTimeNotAfter() {
        TimeGrid grid = TimeGrid.of(0, 0.5, 2, 3);
        assertEquals(0, grid.indexAtOrBefore(-1));
        assertEquals(0, grid.indexAtOrBefore(0));
        assertEquals(0, grid.indexAtOrBefore(0.25));
        assertEquals(1, grid.indexAtOrBefore(0.5));
        assertEquals(1, grid.indexAtOrBefore(1.999));
        assertEquals(2, grid.indexAtOrBefore(2));
        assertEquals(3, grid.indexAtOrBefore(3));
        assertEquals(3, grid.indexAtOrBefore(7));
    }
}
