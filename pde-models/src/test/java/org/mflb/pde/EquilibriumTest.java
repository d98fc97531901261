package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.ode.TimeGrid;

/** Equilibrium checks with independent truths: M/G/1 (Pollaczek–Khinchine), Little + PASTA; bad input. */
class EquilibriumTest {

    /**
     * d = 1 is an M/G/1 queue: x_1 = λ and E[Q] = λ + λ²E[S²]/(2(1−λ)). The age solver's quadrature
     * is second order on a grid with spacing 1e-4 + 1e-3·a; 1e-4 leaves room for the heavy tails'
     * slowly converging integrals.
     */
    static void checkMg1(TestLaws law, double lambda) {
        PdeEquilibrium eq = HydrodynamicPde.of(1, lambda, law).equilibrium();
        double pk = lambda + lambda * lambda * law.moment(2) / (2 * (1 - lambda));
        System.out.printf("M/G/1 %s lambda %.2f: x1 %.10f, E[Q] %.8f vs PK %.8f (levels %d, cut-off %.1e, residual %.1e)%n",
                law.spec(), lambda, eq.tail()[1], eq.meanQueueLength(), pk, eq.levels(), eq.cutOffMass(), eq.residual());
        assertEquals(lambda, eq.tail()[1], 1e-12);
        assertEquals(pk, eq.meanQueueLength(), 1e-4 * pk);
        // Little + PASTA: the age-profile waiting time equals Σx/λ − 1
        assertEquals(eq.meanQueueLength() / lambda - 1, eq.meanWait(), 1e-4);
    }

    @Test
    void mg1LogNormal() {
        checkMg1(TestLaws.lognormal(4), 0.7);
    }

    @Test
    void mg1Weibull05() {
        checkMg1(TestLaws.weibullHalf(), 0.6);
    }

    @Test
    void mg1H2() {
        checkMg1(TestLaws.h2(10), 0.8);
    }

    @Test
    void littleForSq2HeavyTails() {
        for (TestLaws law : new TestLaws[] {TestLaws.lognormal(10), TestLaws.weibullHalf()}) {
            PdeEquilibrium eq = HydrodynamicPde.of(2, 0.9, law).equilibrium();
            double little = eq.meanQueueLength() / 0.9 - 1;
            System.out.printf("SQ(2) 0.9 %s: E[Q] %.6f, wait %.6f vs Little %.6f, levels %d, residual %.1e%n",
                    law.spec(), eq.meanQueueLength(), eq.meanWait(), little, eq.levels(), eq.residual());
            assertTrue(Double.isFinite(eq.meanQueueLength()));
            assertEquals(little, eq.meanWait(), 1e-4, law.spec());
        }
    }

    @Test
    void heavyTailTransientsStayFiniteAndPositive() {
        for (TestLaws law : new TestLaws[] {TestLaws.pareto(1.5), TestLaws.pareto(2.5), TestLaws.weibullHalf(),
            TestLaws.lognormal(10)}) {
            // plain scheme (positivity is a property of the scheme; Richardson may undershoot by O(h²)),
            // equilibrium ages cut at Ḡ = 1e-3 so the aged last cell is exercised
            PdeTransient tr = HydrodynamicPde.of(2, 0.9, law).withAgeStep(0.05).withRichardson(false)
                    .withAgeTolerance(1e-3)
                    .transientFrom(PdeInitialState.tail(PdeInitialState.Ages.EQUILIBRIUM, 1, 0.5, 0.2), TimeGrid.uniform(20, 1));
            for (int k = 0; k < tr.grid().size(); k++) {
                double[] x = tr.tail(k);
                for (int i = 1; i < x.length; i++) {
                    assertTrue(Double.isFinite(x[i]) && x[i] >= 0 && x[i] <= x[i - 1] + 1e-12, law.spec() + " " + x[i]);
                }
                assertTrue(Double.isFinite(tr.meanWait(k)));
            }
        }
    }

    @Test
    void badInputNamesTheParameter() {
        MflbException e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(0, 0.5, TestLaws.exponential()));
        assertEquals("d", e.parameter());
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, 1.0, TestLaws.exponential()).equilibrium());
        assertEquals("lambda", e.parameter());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, 0.5, TestLaws.exponential()).withAgeStep(-1));
        assertEquals("da", e.parameter());
        e = assertThrows(MflbException.class, () -> HydrodynamicPde.of(2, -0.5, TestLaws.exponential()));
        assertEquals("lambda", e.parameter());
    }
}
