package org.mflb.core.refined;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.mflb.core.model.FiniteDifferences;
import org.mflb.core.model.PopulationModel;

/** Test-only fixed points: integrate the fluid ODE for a long time, then polish by Newton's method. */
final class TestFixedPoints {

    private TestFixedPoints() {
    }

    static double[] of(PopulationModel model, double[] start, double horizon) {
        int n = model.getDimension();
        OrdinaryDifferentialEquation ode = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return n;
            }

            @Override
            public double[] computeDerivatives(double t, double[] y) {
                double[] f = new double[n];
                model.drift(0.0, y, f);
                return f;
            }
        };
        double[] x = new DormandPrince853Integrator(0, horizon, 1e-12, 1e-12)
                .integrate(ode, new ODEState(0, start.clone()), horizon).getPrimaryState();
        DMatrixRMaj jac = new DMatrixRMaj(n, n);
        double[] f = new double[n];
        for (int it = 0; it < 20; it++) {
            model.drift(0.0, x, f);
            FiniteDifferences.jacobian(model, 0.0, x, jac);
            DMatrixRMaj step = new DMatrixRMaj(n, 1);
            if (!CommonOps_DDRM.solve(jac, DMatrixRMaj.wrap(n, 1, f.clone()), step)) {
                break;
            }
            for (int i = 0; i < n; i++) {
                x[i] -= step.data[i];
            }
        }
        return x;
    }
}
