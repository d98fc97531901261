package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mflb.simulation.TestModels.queues;
import static org.mflb.simulation.TestModels.pools;

import java.util.List;
import java.util.function.DoubleUnaryOperator;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.system.Policy;

/**
 * Transient estimates on a time grid, averaged over replications, against exact transient laws:
 * random routing makes every server an independent queue (pool), so x_i(t) = P(Q(t) ≥ i) for the
 * one-server process, for every N. Covers the initial states, constant and time-varying arrival
 * rates (thinning), overload (allowed with a grid), and both engines.
 *
 * <p>Miss allowances: every estimate of one run — all levels at all grid times — comes from the same
 * replications, and they are correlated both ways: the levels at one time are functions of the same
 * occupancies, and the grid points of one replication are one sample path seen at times 0.5 to 1
 * apart, about the relaxation time of the pools (1: a pool's count at t and t + 1 has correlation
 * about e^{−1}) and far below that of the queues (1/(1−√λ)² ≈ 90 at λ = 0.8, none in overload), so a
 * replication that is high at t is still high at t + dt. Joint checks per time would
 * count correlated times as independent, joint checks per level correlated levels; so each run is
 * one joint check over its whole (time, level) grid, with Bonferroni-widened intervals
 * ({@link CiChecks.Joint}), valid whatever the correlation. Only different runs (seeds) count as
 * separate checks. Each test has one to three runs, so none may miss: with m runs each joint check
 * misses with probability at most p = 0.01/m, and the false alarm is at most m·p = 1% (union bound).
 */
class TransientTest {

    /** λ(t) = a + b sin t, with its exact supremum on a window. */
    record SineRate(double a, double b) implements ArrivalRate {
        @Override
        public double at(double t) {
            return a + b * Math.sin(t);
        }

        @Override
        public double supremum(double t0, double t1) {
            // sin reaches 1 at π/2 + 2kπ; otherwise the maximum is at an end
            double k = Math.ceil((t0 - Math.PI / 2) / (2 * Math.PI));
            double peak = Math.PI / 2 + 2 * Math.PI * k;
            return peak <= t1 ? a + b : Math.max(at(t0), at(t1));
        }
    }

    /**
     * M_t/G/∞ from empty: the number of tasks at t is Poisson with mean m(t) = ∫_0^t λ(s) Ḡ(t−s) ds.
     * For λ(t) = a + b sin t and exponential service m(t) = a(1−e^{−t}) + b(sin t − cos t + e^{−t})/2;
     * for constant λ and uniform(0, 2) service m(t) = λ(t − t²/4) on [0, 2].
     */
    @Test
    void poolsFromEmptyArePoissonAtEveryTime() {
        // 3 runs (both engines, two arrival laws), one joint check each (24, 24 and 16 estimates),
        // each missing with probability at most p = 0.01/3: none allowed, false alarm <= 1% (union bound)
        CiChecks checks = new CiChecks(0.01 / 3);
        double a = 2;
        double b = 1.5;
        DoubleUnaryOperator sineMean = t -> a * (1 - Math.exp(-t)) + b * (Math.sin(t) - Math.cos(t) + Math.exp(-t)) / 2;
        for (boolean calendar : new boolean[] {false, true}) {
            SimulationResult r = Simulator.run(SimulationScenario.builder()
                    .model(pools(Policy.random(), new SineRate(a, b))).servers(200).eventCalendar(calendar)
                    .tEnd(6).dt(1).replications(30).seed(calendar ? 411 : 412).build());
            compareTrajectory(checks, (calendar ? "calendar" : "fast") + " sine", r, sineMean, 4);
        }
        double lambda = 3;
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(pools(Policy.random(), lambda)
                .withService(TestDistributions.uniform02()))
                .servers(200).tEnd(2).dt(0.5).replications(30)
                .seed(42).build());
        compareTrajectory(checks, "uniform service", r, t -> lambda * (t - t * t / 4), 4);
        checks.assertAtMostMisses(0);
    }

    private static void compareTrajectory(CiChecks checks, String tag, SimulationResult r, DoubleUnaryOperator mean,
            int levels) {
        double[] times = r.times();
        List<VectorEstimate> traj = r.tailTrajectory();
        assertEquals(times.length, traj.size());
        CiChecks.Joint joint = checks.joint(tag);
        for (int k = 1; k < times.length; k++) {
            double[] truth = ClosedForms.poissonTail(mean.applyAsDouble(times[k]), levels + 1);
            for (int i = 1; i <= levels; i++) {
                joint.add("t=" + times[k] + " x_" + i, traj.get(k).get(i), truth[i], 0);
            }
        }
        joint.check();
    }

    /** Pools starting with K tasks each: at t the count is Binomial(K, e^{−t}) + Poisson(λ(1 − e^{−t})). */
    @Test
    void poolsFromAFullStart() {
        // one run, one joint check (3 times × 6 levels) at miss probability p = 0.01: allowing its miss
        // would make the test assert nothing, so none is allowed; false alarm <= 1%
        CiChecks checks = new CiChecks(0.01);
        int k0 = 4;
        double lambda = 1.5;
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(pools(Policy.random(), lambda))
                .servers(200).initialState(InitialState.all(k0)).tEnd(3).dt(1).replications(30)
                .seed(43).build());
        double[] times = r.times();
        CiChecks.Joint joint = checks.joint("all:4");
        for (int k = 0; k < times.length; k++) {
            double t = times[k];
            double keep = Math.exp(-t);
            double[] pois = pmf(ClosedForms.poissonTail(lambda * (1 - keep), 30));
            double[] pmf = new double[30];
            for (int j = 0; j <= k0; j++) {
                double bj = binomial(k0, j) * Math.pow(keep, j) * Math.pow(1 - keep, k0 - j);
                for (int m = 0; m + j < 30; m++) {
                    pmf[m + j] += bj * pois[m];
                }
            }
            double[] truth = ClosedForms.tailOf(pmf, 1.0);
            for (int i = 1; i <= 6; i++) {
                Estimate e = r.tailTrajectory().get(k).get(i);
                if (k == 0) {
                    // the initial state is deterministic: exact, no interval
                    checks.require("all:4 t=0 x_" + i + " = " + e.mean() + " exact",
                            Math.abs(e.mean() - truth[i]) <= 1e-12 && e.halfWidth() <= 1e-12);
                } else {
                    joint.add("t=" + t + " x_" + i, e, truth[i], 1e-12);
                }
            }
        }
        joint.check();
        checks.assertAtMostMisses(0);
    }

    /**
     * Queues under random routing are independent M_t/M/1 queues; their transient law comes from the
     * Kolmogorov forward equations, integrated here by RK4 on a truncated birth–death chain. Overload
     * (λ ≥ 1) is allowed for a transient run; a time-varying rate exercises thinning in the queue
     * engines; the initial state all:2 exercises the FIFO bookkeeping of initial jobs.
     */
    @Test
    void queuesFollowKolmogorovEquations() {
        // 3 runs (sine and overload on the fast engine, sine on the event calendar), one joint check
        // each (4 times × 4 levels), each missing with probability at most p = 0.01/3: none allowed,
        // false alarm <= 1% (union bound); every case is checked
        CiChecks checks = new CiChecks(0.01 / 3);
        Object[][] cases = {
            {new SineRate(0.8, 0.6), InitialState.empty(), false, 441L},
            {ArrivalRate.constant(1.3), InitialState.all(2), false, 442L},
            {new SineRate(0.8, 0.6), InitialState.all(2), true, 443L},
        };
        for (Object[] c : cases) {
            ArrivalRate rate = (ArrivalRate) c[0];
            InitialState init = (InitialState) c[1];
            boolean calendar = (Boolean) c[2];
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), rate))
                    .servers(200).initialState(init).eventCalendar(calendar).tEnd(4).dt(1).replications(30)
                    .seed((Long) c[3]).build());
            int start = init.kind() == InitialState.Kind.ALL ? init.occupiedLevels() : 0;
            double[] times = r.times();
            CiChecks.Joint joint = checks.joint(rate + " " + init + (calendar ? " calendar" : ""));
            for (int k = 1; k < times.length; k++) {
                double[] truth = birthDeathTail(rate, start, times[k]);
                for (int i = 1; i <= 4; i++) {
                    joint.add("t=" + times[k] + " x_" + i, r.tailTrajectory().get(k).get(i), truth[i], 1e-9);
                }
            }
            joint.check();
        }
        checks.assertAtMostMisses(0);
    }

    /** P(Q(t) ≥ i) of an M_t/M/1 queue started at {@code start}, by RK4 on levels 0..79 (step 1e-3). */
    private static double[] birthDeathTail(ArrivalRate rate, int start, double tEnd) {
        int k = 80;
        double[] p = new double[k];
        p[start] = 1;
        double h = 1e-3;
        int steps = (int) Math.round(tEnd / h);
        double[] k1 = new double[k];
        double[] k2 = new double[k];
        double[] k3 = new double[k];
        double[] k4 = new double[k];
        double[] tmp = new double[k];
        for (int s = 0; s < steps; s++) {
            double t = s * h;
            forward(rate.at(t), p, k1);
            axpy(p, k1, h / 2, tmp);
            forward(rate.at(t + h / 2), tmp, k2);
            axpy(p, k2, h / 2, tmp);
            forward(rate.at(t + h / 2), tmp, k3);
            axpy(p, k3, h, tmp);
            forward(rate.at(t + h), tmp, k4);
            for (int j = 0; j < k; j++) {
                p[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
            }
        }
        return ClosedForms.tailOf(p, 1.0);
    }

    private static void forward(double lambda, double[] p, double[] dp) {
        int k = p.length;
        for (int j = 0; j < k; j++) {
            double in = (j > 0 ? lambda * p[j - 1] : 0) + (j + 1 < k ? p[j + 1] : 0);
            double out = (j + 1 < k ? lambda : 0) * p[j] + (j > 0 ? p[j] : 0);
            dp[j] = in - out;
        }
    }

    private static void axpy(double[] x, double[] y, double a, double[] out) {
        for (int j = 0; j < x.length; j++) {
            out[j] = x[j] + a * y[j];
        }
    }

    /** The initial state from a tail vector is rounded as documented: c_i = ⌊N x_i + 1/2⌋. */
    @Test
    void tailInitialStateIsRoundedHalfUp() {
        SimulationResult r = Simulator.run(SimulationScenario.builder().model(queues(Policy.random(), 2)).servers(8)
                .initialState(InitialState.tail(1, 0.8, 0.3125, 0.05)).tEnd(1).dt(1).replications(2).seed(45)
                .build());
        double[] x0 = r.tailTrajectory().get(0).mean();
        // 8·0.8 = 6.4 → 6; 8·0.3125 = 2.5 → 3 (half up); 8·0.05 = 0.4 → 0
        assertEquals(1.0, x0[0]);
        assertEquals(6 / 8.0, x0[1]);
        assertEquals(3 / 8.0, x0[2]);
        assertEquals(0.0, x0.length > 3 ? x0[3] : 0.0, "no server starts with 3 jobs");
    }

    private static double[] pmf(double[] tail) {
        double[] p = new double[tail.length];
        for (int i = 0; i < tail.length; i++) {
            p[i] = tail[i] - (i + 1 < tail.length ? tail[i + 1] : 0);
        }
        return p;
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int j = 0; j < k; j++) {
            r = r * (n - j) / (j + 1);
        }
        return r;
    }
}
