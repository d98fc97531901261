package org.mflb.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.DriftField;

/** The one rule for the size of a run: time at the bench's speeds, a notice over a minute, a refusal over a day or the heap. */
class WorkEstimateTest {

    private static WorkEstimate events(double events, double bytes) {
        return WorkEstimate.events("simulating X", events, bytes, "t-end", 100.0, "reduce --t-end");
    }

    @Test
    void timeIsTheWorkAtOneCoresSpeedOverTheCores() {
        assertEquals(1e6 / WorkEstimate.Unit.EVENTS.perSecond(), events(1e6, 0).seconds(), 1e-15);
        assertEquals(events(8e9, 0).seconds() / 4, events(8e9, 0).onCores(4).seconds(), 1e-9);
        assertEquals(events(8e9, 0).seconds(), events(8e9, 0).onCores(0).seconds(), 1e-9); // at least one core
    }

    @Test
    void aRunOverAMinuteSaysItsSizeAndAShortOneNothing() {
        double perMinute = WorkEstimate.NOTICE_SECONDS * WorkEstimate.Unit.EVENTS.perSecond();
        assertTrue(events(0.99 * perMinute, 0).notice().isEmpty());
        String line = events(1e10, 0).notice().orElseThrow();
        assertEquals("mflb: simulating X needs about 1.0e+10 events (~56 min at 3e+06 events/s)", line);
    }

    @Test
    void aRunOverADayIsRefusedWithTheNumbersUnlessForced() {
        MflbException e = assertThrows(MflbException.class, () -> events(1e15, 0).require(false, 1e9));
        assertEquals("t-end", e.parameter());
        assertEquals("t-end = 100.0 is invalid: must be smaller: simulating X needs about 1.0e+15 events (~3.9e+03 days"
                + " at 3e+06 events/s); the limit is a day of work (2.6e+11 events per core): reduce --t-end, or add"
                + " --force", e.getMessage());
        events(1e15, 0).require(true, 1e9); // forced
        events(0.99 * WorkEstimate.LIMIT_SECONDS * WorkEstimate.Unit.EVENTS.perSecond(), 0).require(false, 1e9);
        assertThrows(MflbException.class, () -> events(Double.POSITIVE_INFINITY, 0).require(false, 1e9));
    }

    @Test
    void memoryBeyondTheHeapIsRefusedEvenForced() {
        events(1e3, 0.79e9).require(true, 1e9);
        MflbException e = assertThrows(MflbException.class, () -> events(1e3, 0.81e9).require(true, 1e9));
        assertTrue(e.getMessage().contains("needs about 810 MB of memory, more than the 1000 MB free in the heap"),
                e.getMessage());
    }

    @Test
    void durationsRead() {
        assertEquals("45 s", WorkEstimate.duration(45));
        assertEquals("12 min", WorkEstimate.duration(720));
        assertEquals("5 h", WorkEstimate.duration(5 * 3600));
        assertEquals("30 days", WorkEstimate.duration(30 * 86_400));
        assertEquals("forever", WorkEstimate.duration(Double.POSITIVE_INFINITY));
    }

    /** dx/dt = −diag(1, 5, 20)·(x − 1): the spectral radius is 20 (power iteration, finite differences). */
    @Test
    void spectralRadiusOfALinearDrift() {
        double[] rates = {1, 5, 20};
        DriftField field = new DriftField() {
            @Override
            public int getDimension() {
                return 3;
            }

            @Override
            public void drift(double t, double[] x, double[] f) {
                for (int i = 0; i < 3; i++) {
                    f[i] = -rates[i] * (x[i] - 1);
                }
            }
        };
        assertEquals(20, WorkEstimate.spectralRadius(field, new double[] {0.2, 0.3, 0.5}), 20 * 1e-3);
    }

    /** Steps: 0.2/ρ while the state moves (10 time units), 6/ρ after; 100 to start. */
    @Test
    void integrationStepsGrowWithTheHorizonAndTheStiffness() {
        assertEquals(100 + 20 * 5 / 0.2, WorkEstimate.integrationSteps(20, 5), 1e-9);
        assertEquals(100 + 20 * (10 / 0.2 + 990 / 6.0), WorkEstimate.integrationSteps(20, 1000), 1e-9);
        assertEquals(100, WorkEstimate.integrationSteps(0, 1e9), 1e-9);
    }
}
