package org.mflb.pde.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;

/**
 * The workload transport equation of LL(d) (docs/models.md §11.6): against the closed local system
 * of exponential sizes solved independently here, its equilibrium at long times, and work
 * conservation.
 */
class WorkloadTransientTest {

    private static final ServiceDistribution EXP = ServiceDistributions.parse("exp");

    /**
     * Exponential sizes: with {@code Z = λ P(U + X > w)}, {@code ∂_w Z = λF̄^d − Z} and {@code Z(t, 0) = λ(t)},
     * so along the characteristics {@code w + t = const}
     * <pre>  dF̄/dt = Z − λF̄^d,  </pre>
     * a local system: no convolution. Solved here by classical Runge–Kutta along the characteristics
     * ({@code Δt = 2δ} on the nodes {@code iδ}: the stages fall on nodes) and, at every stage, the
     * linear ODE of {@code Z} by its exact exponential integrator with {@code F̄^d} interpolated by
     * cubics (4-point Gauss–Legendre per cell). Fourth order in {@code δ}.
     */
    static final class ExponentialCharacteristics {
        final int d;
        final ArrivalRate lambda;
        final double delta;
        final int nodes;
        double[] f;
        double time;

        ExponentialCharacteristics(int d, ArrivalRate lambda, double delta, double reach, DoubleUnaryOperator initial) {
            this.d = d;
            this.lambda = lambda;
            this.delta = delta;
            this.nodes = (int) Math.round(reach / delta) + 3;
            f = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                f[i] = initial.applyAsDouble(i * delta);
            }
        }

        private static final double[] X = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
            0.8611363115940526};
        private static final double[] W = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
            0.3478548451374538};

        /** {@code Z} on the nodes for the profile {@code y} at time {@code t}. */
        double[] z(double t, double[] y) {
            double lam = lambda.at(t);
            double[] p = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                p[i] = Math.pow(y[i], d);
            }
            double[] out = new double[nodes];
            out[0] = lam;
            double decay = Math.exp(-delta);
            for (int i = 0; i + 1 < nodes; i++) {
                int s = Math.max(0, Math.min(i - 1, nodes - 4));
                double integral = 0;
                for (int q = 0; q < X.length; q++) {
                    double x = 0.5 * delta * (1 + X[q]);
                    double u = i + x / delta - s;
                    double pc = -p[s] * (u - 1) * (u - 2) * (u - 3) / 6 + p[s + 1] * u * (u - 2) * (u - 3) / 2
                            - p[s + 2] * u * (u - 1) * (u - 3) / 2 + p[s + 3] * u * (u - 1) * (u - 2) / 6;
                    integral += W[q] * Math.exp(-(delta - x)) * pc;
                }
                out[i + 1] = decay * out[i] + lam * 0.5 * delta * integral;
            }
            return out;
        }

        double[] rate(double t, double[] y) {
            double[] z = z(t, y);
            double lam = lambda.at(t);
            double[] r = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                r[i] = z[i] - lam * Math.pow(y[i], d);
            }
            return r;
        }

        /** One step {@code Δt = 2δ}: node {@code i} comes from node {@code i + 2}. */
        void step() {
            double t = time;
            double[] k1 = rate(t, f);
            double[] y2 = shifted(f, k1, 1, delta);
            double[] k2 = rate(t + delta, y2);
            double[] y3 = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                y3[i] = (i + 1 < nodes ? f[i + 1] : 0) + delta * k2[i];
            }
            double[] k3 = rate(t + delta, y3);
            double[] y4 = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                y4[i] = (i + 2 < nodes ? f[i + 2] : 0) + 2 * delta * (i + 1 < nodes ? k3[i + 1] : 0);
            }
            double[] k4 = rate(t + 2 * delta, y4);
            double[] next = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                double from = i + 2 < nodes ? f[i + 2] : 0;
                double a = i + 2 < nodes ? k1[i + 2] : 0;
                double b = i + 1 < nodes ? k2[i + 1] + k3[i + 1] : 0;
                next[i] = from + delta / 3 * (a + 2 * b + k4[i]);
            }
            f = next;
            time += 2 * delta;
        }

        private double[] shifted(double[] y, double[] k, int by, double dt) {
            double[] out = new double[nodes];
            for (int i = 0; i < nodes; i++) {
                out[i] = i + by < nodes ? y[i + by] + dt * k[i + by] : 0;
            }
            return out;
        }

        /** {@code E[W] = ∫F̄^d} by Simpson's rule. */
        double meanWait() {
            int n = nodes - 3;
            if (n % 2 == 1) {
                n--;
            }
            double s = 0;
            for (int i = 0; i <= n; i++) {
                double v = Math.pow(f[i], d);
                s += (i == 0 || i == n ? 1 : (i % 2 == 1 ? 4 : 2)) * v;
            }
            return s * delta / 3;
        }

        void advanceTo(double t) {
            while (time < t - 1e-9) {
                step();
            }
        }
    }

    /**
     * The transport scheme (second order, Richardson over {@code h = 1/16, 1/32}) against the
     * characteristics solver (fourth order, {@code δ = 1/64}), from empty with {@code λ} switching on
     * and from the equilibrium at 0.5 under a sinusoidal {@code λ(t)}: {@code E[W](t)} and
     * {@code F̄(t, w)} agree within 1e-5 (measured: 2.1e-6 at most, the scheme's remaining error).
     */
    @Test
    void exponentialSizesFollowTheClosedLocalSystem() {
        double reach = 40;
        TimeGrid grid = TimeGrid.of(0, 1, 4, 10);
        ArrivalRate wave = t -> 0.75 + 0.2 * Math.sin(t);
        Object[][] cases = {{2, ArrivalRate.constant(0.9), WorkloadInitialState.empty(), (DoubleUnaryOperator) w -> 0.0},
            {3, wave, WorkloadInitialState.equilibrium(0.5),
                (DoubleUnaryOperator) w -> WorkloadExponentialTest.workload(3, 0.5, w)}};
        for (Object[] c : cases) {
            int d = (Integer) c[0];
            ArrivalRate lambda = (ArrivalRate) c[1];
            WorkloadTransient tr = WorkloadTransport.of(d, lambda, EXP).withReach(reach).withRichardson(true)
                    .transientFrom((WorkloadInitialState) c[2], grid);
            ExponentialCharacteristics ref = new ExponentialCharacteristics(d, lambda, 1.0 / 64, reach,
                    (DoubleUnaryOperator) c[3]);
            for (int k = 0; k < grid.size(); k++) {
                ref.advanceTo(grid.time(k));
                String at = "d = " + d + ", t = " + grid.time(k);
                assertEquals(ref.meanWait(), tr.meanWaitingTime(k), 1e-5, at + ": E[W]");
                for (double w : new double[] {0, 0.5, 2, 6}) {
                    assertEquals(ref.f[(int) Math.round(w * 64)], tr.workloadSurvival(k, w), 1e-5, at + ": F(" + w + ")");
                }
            }
        }
    }

    /**
     * From empty, the transient settles on the equilibrium (λ = 0.7; t = 40 for exponential and
     * deterministic sizes, 100 for H2 SCV 4, whose relaxation time is about 7): E[W], the busy
     * fraction, the mean workload up to the reach 48 and the p90 of R agree with the march within 1e-5
     * (E[W], busy) and 2e-5 (the others): the transport scheme's steady state differs from the march's
     * by its remainder after Richardson extrapolation, measured below 4e-6.
     */
    @Test
    void longTimesReachTheEquilibrium() {
        for (String spec : new String[] {"exp", "det", "h2:scv=4"}) {
            ServiceDistribution g = ServiceDistributions.parse(spec);
            TimeGrid grid = TimeGrid.of(0, spec.startsWith("h2") ? 100 : 40);
            WorkloadEquilibrium eq = LeastLoaded.of(2, 0.7, g).equilibrium();
            WorkloadTransient tr = WorkloadTransport.of(2, 0.7, g).withReach(48).withRichardson(true)
                    .transientFrom(WorkloadInitialState.empty(), grid);
            assertEquals(eq.meanWaitingTime(), tr.meanWaitingTime(1), 1e-5, spec + ": E[W]");
            assertEquals(0.7, tr.busyFraction(1), 1e-5, spec + ": busy fraction");
            // the transient's means stop at its reach: ∫_0^48 of the equilibrium's F̄ by Simpson's rule
            double work = 0;
            int n = 48 * 64;
            for (int i = 0; i <= n; i++) {
                work += (i == 0 || i == n ? 1 : (i % 2 == 1 ? 4 : 2)) * eq.workloadSurvival(i / 64.0);
            }
            assertEquals(work / (3 * 64), tr.meanWorkload(1), 2e-5, spec + ": mean workload");
            assertEquals(eq.responseTime().quantile(0.9), tr.responseTime(1).quantile(0.9), 2e-5, spec + ": p90");
        }
    }

    /**
     * Work conservation, {@code d/dt ∫F̄ dw = λ − F̄(t, 0+)} (the busy servers drain work at rate 1,
     * arrivals bring {@code λ E[X] = λ}), integrated over {@code [0, 10]} on the step grid: exact to
     * round-off for deterministic sizes (whose source {@code J} the scheme integrates exactly), and
     * to second order otherwise (the residual falls by 3.7 to 4.1 per halving of {@code h}).
     */
    @Test
    void workIsConservedToSecondOrder() {
        for (String spec : new String[] {"exp", "det", "h2:scv=4"}) {
            double[] residual = new double[2];
            for (int r = 0; r < 2; r++) {
                double h = r == 0 ? 1.0 / 16 : 1.0 / 32;
                TimeGrid grid = TimeGrid.uniform(10, h);
                WorkloadTransient tr = WorkloadTransport.of(2, 0.9, ServiceDistributions.parse(spec)).withStep(h)
                        .withReach(64).transientFrom(WorkloadInitialState.empty(), grid);
                double inflow = 0;
                for (int k = 1; k < grid.size(); k++) {
                    inflow += 0.9 * h - 0.5 * h * (tr.busyFraction(k - 1) + tr.busyFraction(k));
                }
                int last = grid.size() - 1;
                residual[r] = inflow - (tr.meanWorkload(last) - tr.meanWorkload(0));
            }
            if (spec.equals("det")) {
                assertEquals(0, residual[1], 1e-12, spec);
            } else {
                double ratio = residual[0] / residual[1];
                assertTrue(ratio > 3.5 && ratio < 4.5, spec + ": ratio " + ratio);
                assertTrue(Math.abs(residual[1]) < 1e-3, spec + ": residual " + residual[1]);
            }
        }
    }

    @Test
    void transientParametersAreValidated() {
        assertThrows(MflbException.class, () -> WorkloadTransport.of(2, 0.5, EXP).withStep(0.5));
        assertThrows(MflbException.class,
                () -> WorkloadTransport.of(2, 0.5, ServiceDistributions.parse("det")).withStep(0.3));
        assertThrows(MflbException.class, () -> WorkloadInitialState.equilibrium(1.2));
        assertThrows(MflbException.class, () -> WorkloadTransport.of(2, 0.5, ServiceDistributions.parse("exp:mean=3")));
        WorkloadTransient tr = WorkloadTransport.of(2, 0.9, EXP).withReach(4)
                .transientFrom(WorkloadInitialState.equilibrium(0.9), TimeGrid.of(0, 1));
        assertTrue(tr.reach() >= 4);
        MflbException beyond = assertThrows(MflbException.class, () -> tr.responseTime(1).quantile(0.99999));
        assertEquals("percentiles", beyond.parameter());
    }
}
