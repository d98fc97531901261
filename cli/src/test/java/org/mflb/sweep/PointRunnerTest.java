package org.mflb.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A sweep's points run quietly: the sweep reports progress per point, and a failed point's error line
 * is the first line its command wrote to stderr, which a progress line would otherwise be.
 */
class PointRunnerTest {

    @Test
    void commandsWithProgressRunQuiet() {
        assertArrayEquals(new String[] {"simulate", "--n", "5", "--quiet"},
                PointRunner.quietly(List.of("simulate", "--n", "5")));
        assertArrayEquals(new String[] {"compare", "--quiet"}, PointRunner.quietly(List.of("compare", "--quiet")));
        assertArrayEquals(new String[] {"fixed-point", "--lambda", "0.5"},
                PointRunner.quietly(List.of("fixed-point", "--lambda", "0.5")));
    }
}
