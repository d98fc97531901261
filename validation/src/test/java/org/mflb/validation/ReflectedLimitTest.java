package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.simulation.Estimate;

/** The Euler–Maruyama scheme of the reflected limit of [GABL], Theorem 4. */
class ReflectedLimitTest {

    @Test
    void totalTasksAreOrnsteinUhlenbeckWhateverTheReflection() {
        // Q̂ − Ẑ = √n(Σ q_i − λ) solves dX = −X dt + √(2λ) dW: stationary N(0, λ). The scheme's
        // own stationary variance for this linear part is 2λh/(1 − (1 − h)²) = λ/(1 − h/2): a
        // relative bias h/2 = 5e-4, far inside the intervals
        for (int lambda : new int[] {1, 3}) {
            ReflectedLimit.Moments m = ReflectedLimit.stationary(lambda, 1e-3, 4000, 10, 20, 7 + lambda);
            assertTrue(m.varDifference().covers(lambda) || near(m.varDifference(), lambda, 5e-4 * lambda),
                    "Var(Q - Z) = " + m.varDifference());
            assertTrue(m.meanDifference().covers(0), "E[Q - Z] = " + m.meanDifference());
            // Ẑ ≥ 0 and Q̂ ≥ 0 with positive means: the reflection is active
            assertTrue(m.meanZ().mean() > 0 && m.meanQ().mean() > 0);
        }
    }

    private static boolean near(Estimate e, double truth, double slack) {
        return truth >= e.ci95Low() - slack && truth <= e.ci95High() + slack;
    }

    @Test
    void badParametersAreRejected() {
        MflbException e = assertThrows(MflbException.class, () -> ReflectedLimit.stationary(2, 0.5, 10, 0, 20, 1));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertTrue(e.getMessage().contains("step"));
        assertThrows(MflbException.class, () -> ReflectedLimit.stationary(0, 1e-3, 10, 0, 20, 1));
        assertThrows(MflbException.class, () -> ReflectedLimit.stationary(2, 1e-3, 10, 0, 1, 1));
        assertThrows(MflbException.class, () -> ReflectedLimit.stationary(2, 1e-3, -1, 0, 20, 1));
    }
}
