package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.LUDecomposition;
import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.ODEStateAndDerivative;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;

/**
 * Phase-type service: the PDE must agree with the exact mean-field ODE on (queue length, phase of
 * the job in service), built here independently of the PDE code. State {@code p[k][i]}: fraction of
 * servers with exactly {@code k} jobs whose job in service is in phase {@code i}; with
 * {@code θ_k = λ (x_k^d − x_{k+1}^d)/(x_k − x_{k+1})} and exit rates {@code s = −T·1},
 * <pre>
 *   dp[k][i]/dt = θ_{k−1} p[k−1][i] + [k=1] λ (1 − x_1^d) α_i − θ_k p[k][i]
 *                 + Σ_j p[k][j] T_{ji} + Σ_j p[k+1][j] s_j α_i.
 * </pre>
 */
class PhaseTypeOdeTest {

    /** Issue 6: phase-type agreement "to 1e-3"; the PDE's defaults reach about 1e-4 (transient) and 1e-6 (equilibrium). */
    static final double TOL = 1e-3;
    static final int K = 160;

    /** The mean-field ODE on (queue length ≤ K, phase). */
    static final class PhaseOde implements OrdinaryDifferentialEquation {
        final int d;
        final double lambda;
        final double[] alpha;
        final double[][] t;
        final double[] exit;
        final int m;

        PhaseOde(int d, double lambda, double[] alpha, double[][] t) {
            this.d = d;
            this.lambda = lambda;
            this.alpha = alpha;
            this.t = t;
            this.m = alpha.length;
            this.exit = new double[m];
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int j = 0; j < m; j++) {
                    s += t[i][j];
                }
                exit[i] = -s;
            }
        }

        public int getDimension() {
            return K * m;
        }

        double[] tail(double[] p) {
            double[] x = new double[K + 2];
            for (int k = K; k >= 1; k--) {
                double s = 0;
                for (int i = 0; i < m; i++) {
                    s += p[(k - 1) * m + i];
                }
                x[k] = x[k + 1] + s;
            }
            x[0] = 1;
            return x;
        }

        public double[] computeDerivatives(double time, double[] p) {
            double[] x = tail(p);
            double[] theta = new double[K + 1];
            for (int k = 0; k < K; k++) {
                double u = x[k];
                double v = x[k + 1];
                theta[k] = u - v > 1e-300 ? lambda * (Math.pow(u, d) - Math.pow(v, d)) / (u - v)
                        : lambda * d * Math.pow(u, d - 1);
            }
            double[] dp = new double[p.length];
            for (int k = 1; k <= K; k++) {
                for (int i = 0; i < m; i++) {
                    double r = -theta[k] * p[(k - 1) * m + i];
                    if (k >= 2) {
                        r += theta[k - 1] * p[(k - 2) * m + i];
                    } else {
                        r += lambda * (1 - Math.pow(x[1], d)) * alpha[i];
                    }
                    for (int j = 0; j < m; j++) {
                        r += p[(k - 1) * m + j] * t[j][i];
                        if (k < K) {
                            r += p[k * m + j] * exit[j] * alpha[i];
                        }
                    }
                    dp[(k - 1) * m + i] = r;
                }
            }
            return dp;
        }

        /**
         * The stationary point: the state at t = 200 polished by Newton's method on
         * {@code dp/dt = 0} (finite-difference Jacobian), until {@code |dp/dt| < 1e-13}.
         */
        double[] equilibrium() {
            DormandPrince853Integrator dp = new DormandPrince853Integrator(1e-8, 10, 1e-10, 1e-10);
            double[] y = dp.integrate(this, new ODEState(0, new double[getDimension()]), 200).getPrimaryState();
            int n = y.length;
            for (int it = 0; it < 20; it++) {
                double[] f = computeDerivatives(0, y);
                double norm = 0;
                for (double v : f) {
                    norm = Math.max(norm, Math.abs(v));
                }
                if (norm < 1e-13) {
                    return tail(y);
                }
                double[][] jac = new double[n][n];
                for (int j = 0; j < n; j++) {
                    double step = 1e-7 * Math.max(1e-3, Math.abs(y[j]));
                    double saved = y[j];
                    y[j] = saved + step;
                    double[] g = computeDerivatives(0, y);
                    y[j] = saved;
                    for (int i = 0; i < n; i++) {
                        jac[i][j] = (g[i] - f[i]) / step;
                    }
                }
                double[] delta = new LUDecomposition(new Array2DRowRealMatrix(jac, false)).getSolver()
                        .solve(new ArrayRealVector(f, false)).toArray();
                for (int i = 0; i < n; i++) {
                    y[i] = Math.max(0.0, y[i] - delta[i]);
                }
            }
            throw new AssertionError("Newton did not make the ODE stationary");
        }

        /** Tail vectors at the grid times, from empty. */
        double[][] solve(TimeGrid grid) {
            DormandPrince853Integrator dp = new DormandPrince853Integrator(1e-8, 10, 1e-11, 1e-11);
            double[][] out = new double[grid.size()][];
            double[] y = new double[getDimension()];
            double t0 = 0;
            for (int k = 0; k < grid.size(); k++) {
                if (grid.time(k) > t0) {
                    ODEStateAndDerivative s = dp.integrate(this, new ODEState(t0, y), grid.time(k));
                    y = s.getPrimaryState();
                    t0 = grid.time(k);
                }
                out[k] = tail(y);
            }
            return out;
        }
    }

    static PhaseOde erlang2(int d, double lambda) {
        return new PhaseOde(d, lambda, new double[] {1, 0}, new double[][] {{-2, 2}, {0, -2}});
    }

    static PhaseOde h2(int d, double lambda, double scv) {
        double p = (1 + Math.sqrt((scv - 1) / (scv + 1))) / 2;
        return new PhaseOde(d, lambda, new double[] {p, 1 - p}, new double[][] {{-2 * p, 0}, {0, -2 * (1 - p)}});
    }

    static double transientError(PhaseOde ode, ServiceDistribution law, double tEnd) {
        return transientError(ode, HydrodynamicPde.of(ode.d, ode.lambda, law), tEnd);
    }

    static double transientError(PhaseOde ode, HydrodynamicPde pde, double tEnd) {
        TimeGrid grid = TimeGrid.uniform(tEnd, 0.5);
        double[][] exact = ode.solve(grid);
        PdeTransient tr = pde.transientFrom(PdeInitialState.empty(), grid);
        double err = 0;
        for (int k = 0; k < grid.size(); k++) {
            double[] a = tr.tail(k);
            for (int i = 1; i <= K; i++) {
                err = Math.max(err, Math.abs((i < a.length ? a[i] : 0) - exact[k][i]));
            }
        }
        return err;
    }

    static double equilibriumError(PhaseOde ode, ServiceDistribution law) {
        double[] x = ode.equilibrium();
        PdeEquilibrium eq = HydrodynamicPde.of(ode.d, ode.lambda, law).equilibrium();
        double[] a = eq.tail();
        double err = 0;
        for (int i = 1; i <= K; i++) {
            err = Math.max(err, Math.abs((i < a.length ? a[i] : 0) - x[i]));
        }
        return err;
    }

    /** The defaults (h = 0.05, no extrapolation) against the exact ODE, transient and equilibrium. */
    static void check(String name, PhaseOde ode, String spec, double tEnd) {
        ServiceDistribution law = ServiceDistributions.parse(spec);
        double tr = transientError(ode, law, tEnd);
        double eq = equilibriumError(ode, law);
        System.out.printf("%s: transient (t <= %.0f) %.3e, equilibrium %.3e%n", name, tEnd, tr, eq);
        assertTrue(tr < TOL, "transient " + tr);
        assertTrue(eq < TOL, "equilibrium " + eq);
    }

    @Test
    void erlang2() {
        check("Erlang-2 SQ(2) 0.9", erlang2(2, 0.9), "erlang:k=2", 20);
    }

    @Test
    void h2Scv4() {
        check("H2(4) SQ(2) 0.9", h2(2, 0.9, 4), "h2:scv=4", 20);
    }

    @Test
    void h2Scv10() {
        check("H2(10) SQ(2) 0.8", h2(2, 0.8, 10), "h2:scv=10", 20);
    }

    @Test
    void h2RandomRouting() {
        check("H2(4) d=1 0.7", h2(1, 0.7, 4), "h2:scv=4", 10);
    }

    /**
     * Second order with non-exponential service too: the error against the exact ODE falls by about 4
     * when h halves (measured 3.6; the band [3.3, 4.8] excludes orders below 1.7).
     */
    @Test
    void secondOrderForH2() {
        PhaseOde ode = h2(2, 0.9, 4);
        HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, ServiceDistributions.parse("h2:scv=4"));
        double e1 = transientError(ode, pde.withAgeStep(0.1), 10);
        double e2 = transientError(ode, pde.withAgeStep(0.05), 10);
        System.out.printf("H2(4) SQ(2) 0.9 t <= 10: h = 0.1 %.3e, h = 0.05 %.3e, ratio %.2f%n", e1, e2, e1 / e2);
        assertTrue(e1 / e2 > 3.3 && e1 / e2 < 4.8, "ratio " + e1 / e2);
    }
}
