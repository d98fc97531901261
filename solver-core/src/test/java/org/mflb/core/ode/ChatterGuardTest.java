package org.mflb.core.ode;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Chattering is switching without moving time forward, not switching often. */
class ChatterGuardTest {

    @Test
    void anyNumberOfSwitchesSpreadOverTimeIsNoChattering() {
        ChatterGuard guard = new ChatterGuard();
        // a million switches, 10 per time unit (a week of a periodic load), some of them in pairs at one instant
        for (int i = 0; i < 1_000_000; i++) {
            double t = 1e5 + 0.1 * (i / 2);
            assertFalse(guard.chattering(t), "switch " + i);
        }
    }

    @Test
    void manySwitchesAtOneInstantAreChattering() {
        ChatterGuard guard = new ChatterGuard();
        boolean chattering = false;
        for (int i = 0; i < 60 && !chattering; i++) {
            chattering = guard.chattering(17144.0);
        }
        assertTrue(chattering);
    }

    @Test
    void aThousandSwitchesWithinRoundingOfEachOtherAreChattering() {
        ChatterGuard guard = new ChatterGuard();
        double t = 17144.0;
        boolean chattering = false;
        for (int i = 0; i < 2000 && !chattering; i++) {
            t = Math.nextUp(t); // a Zeno-like sequence: each switch a rounding error after the last
            chattering = guard.chattering(t);
        }
        assertTrue(chattering);
    }
}
