package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

/**
 * A transient keeps its grid, not its integration (issue 18): with the same two output times, what
 * a transient keeps alive ({@link RetainedHeap}: reachable objects and array elements) is the same
 * for a horizon 10 or 1000 times longer, for the non-smooth policies (sliding pieces, regime (c),
 * regime (a) with its Radau IIA lower gaps, the learning threshold) and SQ(d) with memory. A whole-run
 * dense output would keep every step (hundreds per unit of time here).
 */
class TransientMemoryTest {

    private static FluidModel model(String policy, double lambda) {
        return switch (policy) {
            case "jsq" -> FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jsq(), lambda);
            case "jiq" -> FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.jiq(), lambda);
            case "threshold4" -> FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(4), lambda);
            case "adaptive" -> FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.adaptiveThreshold(0.9, 0),
                    lambda);
            case "memory" -> FluidModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(2), lambda);
            default -> throw new IllegalArgumentException(policy);
        };
    }

    @ParameterizedTest(name = "{0} at lambda = {1}: t-end {2} vs {3}")
    @CsvSource({"jsq, 2.5, 100, 100000", "jiq, 2.5, 100, 10000", "threshold4, 2.5, 100, 100000", "adaptive, 2.5, 100, 100000",
        "memory, 0.9, 100, 100000"})
    void whatATransientKeepsDoesNotGrowWithItsHorizon(String policy, double lambda, double shortEnd, double longEnd) {
        FluidModel m = model(policy, lambda);
        FluidTransient shortRun = m.transientFrom(InitialState.empty(), TimeGrid.of(0, shortEnd));
        FluidTransient longRun = m.transientFrom(InitialState.empty(), TimeGrid.of(0, longEnd));
        assertEquals(shortRun.truncation(), longRun.truncation(), "levels kept");
        // the same up to what the grid states themselves hold: the gaps kept beside a state (for the levels
        // near 1) are fewer than the K levels
        long kept = RetainedHeap.size(shortRun);
        long keptLonger = RetainedHeap.size(longRun);
        assertTrue(Math.abs(keptLonger - kept) < shortRun.truncation(), "retained " + kept + " then " + keptLonger);
    }
}
