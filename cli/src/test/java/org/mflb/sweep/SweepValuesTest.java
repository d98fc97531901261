package org.mflb.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.MflbException;
import org.mflb.simulation.engine.ReplicationStreams;

/** Lists and ranges of swept options, and the seeds of a sweep's points. */
class SweepValuesTest {

    @Test
    void rangesAreInclusiveAndSteppedInDecimal() {
        List<String> lambdas = SweepValues.parse("--lambda", "0.5:0.95:0.05", false);
        assertEquals(10, lambdas.size());
        assertEquals("0.5", lambdas.get(0));
        assertEquals("0.55", lambdas.get(1));
        assertEquals("0.95", lambdas.get(9)); // 0.5 + 9 * 0.05 exactly: no 0.9500000000000001, no lost end point
        assertEquals(List.of("5", "6", "7", "8", "9"), SweepValues.parse("--param s", "5:9:1", true));
        assertEquals(List.of("1", "3"), SweepValues.parse("--d", "1:4:2", true)); // 4 is not reached
        assertEquals(List.of("0.1"), SweepValues.parse("--lambda", "0.1:0.1:1", false));
        assertEquals(List.of("1", "2", "3"), SweepValues.parse("--d", "1, 2,3", true));
        assertEquals(List.of("1000"), SweepValues.parse("--n", "1e3", true));
        assertTrue(SweepValues.isSweep("1,2") && SweepValues.isSweep("1:2:1"));
        assertFalse(SweepValues.isSweep("0.5"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "0.9:0.5:0.1; FROM must be <= TO (0.9 > 0.5)",
        "0.5:0.9:0; the step must be > 0",
        "0.5:0.9:-0.1; the step must be > 0",
        "0.5:abc:0.1; 'abc' is not a number",
        "0.5,x; 'x' is not a number",
        "0.5:0.9; a range has three parts FROM:TO:STEP",
        "0:1:1e-9; it has 1000000001 values, more than 100000"})
    void badRangesAreOneLineNamingTheOption(String text, String reason) {
        MflbException e = assertThrows(MflbException.class, () -> SweepValues.parse("--lambda", text, false));
        assertEquals("lambda", e.parameter());
        assertTrue(e.getMessage().startsWith("--lambda " + text + " is invalid: " + reason + ";"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void integerOptionsTakeIntegersOnly() {
        MflbException e = assertThrows(MflbException.class, () -> SweepValues.parse("--d", "1,2.5", true));
        assertTrue(e.getMessage().contains("'2.5' is not an integer"), e.getMessage());
    }

    @Test
    void aListOfLawsSplitsOnlyWhereANewLawStarts() {
        assertEquals(List.of("exp", "lognormal:scv=4,mean=2"),
                SweepValues.parse("--service", "exp,lognormal:scv=4,mean=2", SweepValues.Kind.LAW));
        assertEquals(List.of("exp", "lognormal:scv=4"), SweepValues.parse("--service", "exp, lognormal:scv=4",
                SweepValues.Kind.LAW));
        // commas inside brackets belong to the phase-type matrices; ", T=" continues the law
        String ph = "ph:alpha=[0.5,0.5],T=[[-1,0],[0,-2]]";
        assertEquals(List.of("det", ph, "erlang:k=2"), SweepValues.parse("--service", "det," + ph + ",erlang:k=2",
                SweepValues.Kind.LAW));
        assertEquals(List.of("exp:rate=2", "h2:scv=4"), SweepValues.parse("--service", "exp:rate=2,h2:scv=4",
                SweepValues.Kind.LAW));
        assertFalse(SweepValues.isSweep(SweepValues.Kind.LAW, "lognormal:scv=4,mean=2"));
        assertFalse(SweepValues.isSweep(SweepValues.Kind.LAW, ph));
        assertTrue(SweepValues.isSweep(SweepValues.Kind.LAW, "exp,det"));
        MflbException e = assertThrows(MflbException.class,
                () -> SweepValues.parse("--service", "exp,,det", SweepValues.Kind.LAW));
        assertEquals("service", e.parameter());
        assertTrue(e.getMessage().startsWith("--service exp,,det is invalid: an empty value; a swept value is one or a"
                + " list a,b,c of laws"), e.getMessage());
    }

    @Test
    void aListOfNamesSplitsAtEveryComma() {
        assertEquals(List.of("sqd", "jsq", "random"), SweepValues.parse("--policy", "sqd, jsq,random", SweepValues.Kind.NAME));
        assertTrue(SweepValues.isSweep(SweepValues.Kind.NAME, "sqd,jsq"));
        assertFalse(SweepValues.isSweep(SweepValues.Kind.NAME, "adaptive-threshold"));
        assertFalse(SweepValues.isSweep(SweepValues.Kind.NAME, "a:b")); // a colon is no range of names
        assertThrows(MflbException.class, () -> SweepValues.parse("--policy", "sqd,", SweepValues.Kind.NAME));
        assertEquals(List.of("1", "2"), SweepValues.parse("--n", "1:2:1", SweepValues.Kind.INTEGER));
    }

    @Test
    void aListOfServerClassesSplitsAtSemicolons() {
        assertEquals(List.of("1:1", "0.5:1.5,0.5:0.5"), SweepValues.parse("--classes", "1:1; 0.5:1.5,0.5:0.5",
                SweepValues.Kind.CLASSES));
        assertTrue(SweepValues.isSweep(SweepValues.Kind.CLASSES, "1:1;0.5:2,0.5:0.5"));
        assertFalse(SweepValues.isSweep(SweepValues.Kind.CLASSES, "0.5:2,0.5:0.5")); // one class set: commas and colons are its own
        assertThrows(MflbException.class, () -> SweepValues.parse("--classes", "1:1;", SweepValues.Kind.CLASSES));
    }

    @Test
    void pointSeedsDependOnSeedAndPointOnly() {
        Set<Long> seeds = new HashSet<>();
        for (int p = 0; p < 1000; p++) {
            seeds.add(ReplicationStreams.pointSeed(1, p));
            assertEquals(ReplicationStreams.pointSeed(1, p), ReplicationStreams.pointSeed(1, p));
        }
        assertEquals(1000, seeds.size());
        assertTrue(ReplicationStreams.pointSeed(1, 0) != ReplicationStreams.pointSeed(2, 0));
    }
}
