package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;
import org.mflb.fluid.nonsmooth.SwitchedEquilibrium;

/**
 * One entry point and one pair of result types for every policy (issue 11): the common accessors
 * agree with the closed forms for a smooth and a non-smooth policy, and each kind of drift exposes
 * exactly its own extras.
 */
class OneFluidApiTest {

    @Test
    void aSmoothPolicyHasItsDriftAndNoRegimes() {
        FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
        assertTrue(sq2.isSmooth());
        FluidFixedPoint fp = sq2.fixedPoint();
        assertEquals(0.9 * 0.9 * 0.9, fp.tail()[2], 1e-12); // x_2 = λ^(2^2 − 1)
        assertEquals(fp.truncation(), fp.smoothDrift().orElseThrow().getDimension());
        assertTrue(fp.equilibrium().isEmpty());
        assertTrue(fp.iterations() > 0 && fp.spectrum().isPresent());
        FluidTransient tr = sq2.transientFrom(InitialState.empty(), TimeGrid.uniform(2, 1));
        assertTrue(tr.regimes().isEmpty());
        assertTrue(tr.trajectory().isPresent() && tr.smoothDrift().isPresent());
        assertEquals(tr.meanQueueLength(2), TailVectors.mean(tr.state(2)), 0.0);
    }

    @Test
    void aNonSmoothPolicyHasItsEquilibriumAndRegimesAndNoDrift() {
        FluidModel t2 = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(2), 2.5);
        assertFalse(t2.isSmooth());
        FluidFixedPoint fp = t2.fixedPoint();
        double[] expected = {1, 1, 1, 0.5, 0}; // q* of [GABL], Theorem 2
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], fp.tail()[i], 0.0, "level " + i);
        }
        assertEquals(2.5, fp.meanQueueLength(), 1e-15);
        SwitchedEquilibrium eq = fp.equilibrium().orElseThrow();
        assertEquals(SwitchedEquilibrium.Kind.BALANCED, eq.kind());
        assertEquals(2, eq.threshold().orElseThrow());
        assertTrue(fp.smoothDrift().isEmpty() && fp.spectrum().isEmpty() && fp.blocking().isEmpty());
        assertTrue(fp.isStable() && Double.isNaN(fp.spectralAbscissa()) && fp.iterations() == 0);
        FluidTransient tr = t2.transientFrom(InitialState.empty(), TimeGrid.uniform(6, 0.5));
        assertTrue(tr.smoothDrift().isEmpty() && tr.trajectory().isEmpty());
        assertFalse(tr.regimes().orElseThrow().switches().isEmpty());
        // the mass u(t) = Σ x_i of pools from empty is λ(1 − e^{−t}) through every regime
        assertEquals(2.5 * (1 - Math.exp(-6)), tr.meanQueueLength(6.0), 1e-8);
        MflbException e = assertThrows(MflbException.class, () -> t2.withLevels(5));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
    }

    @Test
    void everyPolicyBelongsToOneClosedFamily() {
        assertTrue(SmoothRouting.class.isSealed() && NonSmoothPolicy.class.isSealed() && MemoryPolicy.class.isRecord());
        FluidPolicy.Cases<String> family = new FluidPolicy.Cases<>() {
            @Override
            public String smooth(SmoothRouting routing) {
                return "smooth";
            }

            @Override
            public String nonSmooth(NonSmoothPolicy rule) {
                return "non-smooth";
            }

            @Override
            public String memory(MemoryPolicy memory) {
                return "memory";
            }
        };
        FluidPolicy[] policies = {RandomRouting.INSTANCE, PowerOfD.withReplacement(2), PowerOfD.distinct(2, 10),
            NonSmoothPolicy.jsq(), NonSmoothPolicy.jiq(), NonSmoothPolicy.threshold(2),
            NonSmoothPolicy.adaptiveThreshold(0.5, 1), MemoryPolicy.of(2)};
        String[] expected = {"smooth", "smooth", "smooth", "non-smooth", "non-smooth", "non-smooth", "non-smooth", "memory"};
        for (int i = 0; i < policies.length; i++) {
            assertEquals(expected[i], policies[i].match(family), policies[i].name());
            assertEquals(expected[i].equals("smooth"), policies[i].isSmooth(), policies[i].name());
        }
    }
}
