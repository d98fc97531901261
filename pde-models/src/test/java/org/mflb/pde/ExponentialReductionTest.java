package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.fluid.InitialState;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.fluid.ServerSystem;
import org.mflb.fluid.SmoothRouting;

/**
 * Exponential service: the PDE integrated over the age is exactly the SQ(d) ODE of MODELS.md §1,
 * solved independently by the foundation's adaptive Dormand–Prince integrator (tolerances ≪ 1e-8).
 */
class ExponentialReductionTest {

    /** Issue 6: "agrees with the foundation ODE to 1e-4 along the whole transient". */
    static final double TOL = 1e-4;

    static double maxError(int d, double lambda, PdeInitialState pdeInit, InitialState odeInit, double tEnd,
            HydrodynamicPde pde) {
        TimeGrid grid = TimeGrid.uniform(tEnd, 0.5);
        SmoothRouting policy = d == 1 ? RandomRouting.INSTANCE : PowerOfD.withReplacement(d);
        FluidTransient ode = FluidModel.of(ServerSystem.singleServerQueues(), policy, lambda).transientFrom(odeInit,
                grid);
        PdeTransient tr = pde.transientFrom(pdeInit, grid);
        double err = 0;
        for (int k = 0; k < grid.size(); k++) {
            double[] a = tr.tail(k);
            double[] b = ode.tail(k);
            for (int i = 1; i < Math.max(a.length, b.length); i++) {
                double va = i < a.length ? a[i] : 0;
                double vb = i < b.length ? b[i] : 0;
                err = Math.max(err, Math.abs(va - vb));
            }
        }
        return err;
    }

    @Test
    void sq2FromEmptyMatchesOde() {
        HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, TestLaws.exponential());
        double plain02 = maxError(2, 0.9, PdeInitialState.empty(), InitialState.empty(), 10,
                pde.withRichardson(false));
        double plain01 = maxError(2, 0.9, PdeInitialState.empty(), InitialState.empty(), 10,
                pde.withRichardson(false).withAgeStep(0.01));
        double rich = maxError(2, 0.9, PdeInitialState.empty(), InitialState.empty(), 20, pde.withAgeStep(0.01));
        System.out.printf("exp SQ(2) lambda 0.9: first order h=0.02 %.3e, h=0.01 %.3e; Richardson(0.01) t<=20 %.3e%n",
                plain02, plain01, rich);
        assertTrue(rich < TOL, "Richardson error " + rich);
        // first order: halving h halves the error (ratio within 10% of 2)
        assertTrue(Math.abs(plain02 / plain01 - 2) < 0.2, "order ratio " + plain02 / plain01);
    }

    @Test
    void fromATailVectorAndD3() {
        double[] start = {1, 0.9, 0.6, 0.3, 0.1};
        HydrodynamicPde pde = HydrodynamicPde.of(3, 0.8, TestLaws.exponential()).withAgeStep(0.01);
        double err = maxError(3, 0.8, PdeInitialState.tail(PdeInitialState.Ages.FRESH, start),
                InitialState.tail(start), 10, pde);
        System.out.printf("exp SQ(3) lambda 0.8 from tail: Richardson(0.01) %.3e%n", err);
        assertTrue(err < TOL, "error " + err);
    }
}
