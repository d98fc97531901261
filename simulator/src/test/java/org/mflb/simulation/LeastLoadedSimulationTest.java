package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;

/**
 * The workload engine of LL(d), the least loaded of d servers (docs/models.md §11), against exact
 * values: d = 1 is N independent M/G/1 queues (Pollaczek–Khinchine), d = N with distinct sampling is
 * the M/M/c queue (Erlang C, exact at finite N), and at N = 2000 the fluid limit's closed forms
 * (exponential sizes) and reference values (deterministic sizes) within the interval plus a stated
 * O(1/N) allowance. The busy fraction is λE[X] at any N, and the time-averaged jobs per server obey
 * Little's law, both exactly in expectation.
 */
class LeastLoadedSimulationTest {

    /**
     * Relative O(1/N) allowance for the finite-N bias of E[R], its quantiles and the mean number of
     * jobs against the fluid limit: one-sided, the N-server system lying above its limit by
     * {@code c/N} with {@code c ≤ ALLOWANCE_C}. Measured: exponential sizes, d = 2, λ = 0.9:
     * E[R] 0.46% above the limit at N = 500 and 0.06% ± 0.2% at N = 2000 (c ≈ 2.3); deterministic,
     * d = 3, λ = 0.95: 0.69% at N = 500, 0.20% at N = 2000 (c ≈ 3.5-4); docs: 0.1-1% at N = 2000.
     * {@code c = 10} (0.5% at N = 2000) is about three times the measured constants.
     */
    private static final double ALLOWANCE_C = 10;

    private static LoadBalancingModel ll(int d, Sampling sampling, double lambda, ServiceDistribution law) {
        return new LoadBalancingModel(ServerSystem.singleServerQueues(), new Policy.LeastLoaded(d, sampling),
                ArrivalRate.constant(lambda), law);
    }

    /** The finite-N value in [limit, limit·(1 + c/N)]: the midpoint as truth, half the width as slack. */
    private static void addAboveLimit(CiChecks.Joint joint, String name, Estimate e, double limit, int n) {
        double allowance = limit * ALLOWANCE_C / n;
        joint.add(name, e, limit + allowance / 2, allowance / 2);
    }

    /**
     * d = 1: every server is an M/G/1 queue of load λ. Pollaczek–Khinchine:
     * E[W] = λm₂/(2(1 − λ)), E[R] = E[W] + 1; busy fraction λ; an arrival finds its server idle with
     * probability 1 − λ (PASTA); jobs per server λE[R] (Little). Three laws, λ = 0.7, N = 1000, one
     * joint check each; m = 3 checks at p = 0.01/3, no miss allowed (false alarm ≤ 1%).
     */
    @Test
    void oneSampleIsPollaczekKhinchine() {
        double lambda = 0.7;
        ServiceDistribution[] laws = {ServiceDistributions.parse("det"), ServiceDistributions.parse("lognormal:scv=4"),
                TestDistributions.h2(4)};
        CiChecks checks = new CiChecks(0.01 / laws.length);
        for (ServiceDistribution law : laws) {
            double m2 = law.moment(2);
            double w = lambda * m2 / (2 * (1 - lambda));
            SimulationResult r = Simulator.run(SimulationScenario.builder().model(ll(1, Sampling.REPLACEMENT, lambda, law))
                    .servers(1000).tEnd(1300).warmup(100).replications(8).seed(11).threads(2).build());
            assertEquals(Engine.WORKLOAD, r.engine());
            checks.joint("M/G/1 " + law.spec())
                    .add("E[W]", r.meanWaitingTime().orElseThrow(), w, 0)
                    .add("E[R]", r.meanResponseTime().orElseThrow(), w + 1, 0)
                    .add("busy", r.tail().get(1).asFraction(), lambda, 0)
                    .add("idle arrivals", r.idleArrivalFraction(), 1 - lambda, 0)
                    .add("jobs", r.meanQueueLength(), lambda * (w + 1), 0)
                    .check();
            assertEquals(2, r.tail().size(), "the workload engine's tail stops at x_1");
        }
        checks.assertAtMostMisses(0);
    }

    /**
     * d = N with distinct sampling joins the least loaded of all servers: FCFS with a central queue,
     * the M/M/c queue for exponential sizes, exact at finite N (Erlang C: P(W > 0) = C(c, a),
     * E[W] = C(c, a)/(c − a), a = cλ). N = 10 takes the partial-shuffle path of distinct sampling.
     * One joint check at p = 0.01.
     */
    @Test
    void allServersDistinctIsErlangC() {
        int c = 10;
        double lambda = 0.8;
        double a = c * lambda;
        double term = 1;
        double sum = 0;
        for (int k = 0; k < c; k++) {
            sum += term;
            term *= a / (k + 1);
        }
        double top = term * c / (c - a); // a^c/c! · c/(c − a)
        double erlangC = top / (sum + top);
        double w = erlangC / (c - a);
        SimulationResult r = Simulator.run(SimulationScenario.builder()
                .model(ll(c, Sampling.DISTINCT, lambda, ServiceDistributions.parse("exp"))).servers(c).tEnd(100_000)
                .warmup(1000).replications(8).seed(3).threads(2).build());
        CiChecks checks = new CiChecks(0.01);
        checks.joint("M/M/" + c)
                .add("E[W]", r.meanWaitingTime().orElseThrow(), w, 0)
                .add("P(no wait)", r.idleArrivalFraction(), 1 - erlangC, 0)
                .add("busy", r.tail().get(1).asFraction(), lambda, 0)
                .check();
        checks.assertAtMostMisses(0);
    }

    /**
     * N = 2000 against the fluid limit (docs/models.md §11.4): exponential sizes, d = 2, λ = 0.9:
     * E[R] = −ln(1 − λ²)/λ² = 2.0502854405, p50, p90, p99 = 1.8346845139, 3.8788471432,
     * 6.2577684096, P(W = 0) = 1 − λ²; deterministic sizes, d = 3 (distinct, by rejection),
     * λ = 0.95: E[R] = 1.54964894 (the march at 1e-8), P(W = 0) = 1 − λ³. E[R], the quantiles and
     * the jobs per server (λE[R]) within the interval plus the one-sided allowance
     * {@link #ALLOWANCE_C}/N; the busy fraction λ and P(W = 0) (its O(1/N) bias is far below the
     * interval) without allowance. Two joint checks at p = 0.01/2.
     */
    @Test
    void agreesWithTheFluidLimitAtN2000() {
        int n = 2000;
        CiChecks checks = new CiChecks(0.01 / 2);
        double lambda = 0.9;
        SimulationResult r = Simulator.run(SimulationScenario.builder()
                .model(ll(2, Sampling.REPLACEMENT, lambda, ServiceDistributions.parse("exp"))).servers(n).tEnd(1300)
                .warmup(100).replications(8).percentiles(50, 90, 99).seed(5).threads(2).build());
        double er = -Math.log(1 - lambda * lambda) / (lambda * lambda);
        assertEquals(2.0502854405, er, 1e-10);
        CiChecks.Joint exp = checks.joint("LL(2) exp N=2000");
        addAboveLimit(exp, "E[R]", r.meanResponseTime().orElseThrow(), er, n);
        addAboveLimit(exp, "jobs", r.meanQueueLength(), lambda * er, n);
        double[] limits = {1.8346845139, 3.8788471432, 6.2577684096};
        List<QuantileEstimate> q = r.responseTimeQuantiles();
        assertEquals("per-job", r.responseTimeQuantileMethod());
        for (int j = 0; j < limits.length; j++) {
            addAboveLimit(exp, "p" + (int) q.get(j).p(), q.get(j).estimate(), limits[j], n);
        }
        exp.add("busy", r.tail().get(1).asFraction(), lambda, 0)
                .add("P(W = 0)", r.idleArrivalFraction(), 1 - lambda * lambda, 0)
                .check();

        double lambda3 = 0.95;
        SimulationResult det = Simulator.run(SimulationScenario.builder()
                .model(ll(3, Sampling.DISTINCT, lambda3, ServiceDistributions.parse("det"))).servers(n).tEnd(1300)
                .warmup(100).replications(8).seed(6).threads(2).build());
        CiChecks.Joint joint = checks.joint("LL(3) distinct det N=2000");
        addAboveLimit(joint, "E[R]", det.meanResponseTime().orElseThrow(), 1.54964894, n);
        joint.add("busy", det.tail().get(1).asFraction(), lambda3, 0)
                .add("P(W = 0)", det.idleArrivalFraction(), 1 - Math.pow(lambda3, 3), 0)
                .check();
        checks.assertAtMostMisses(0);
    }

    /**
     * Deterministic sizes: every job's response time is its wait plus 1 — the means differ by 1 to
     * round-off, every quantile is ≥ 1 (up to the histogram's 3 significant digits), and with
     * P(W = 0) = 1 − λ^d well above 10% at λ = 0.8 the 10th percentile is 1.
     */
    @Test
    void deterministicSizesRespondInAtLeastOne() {
        SimulationResult r = Simulator.run(SimulationScenario.builder()
                .model(ll(2, Sampling.REPLACEMENT, 0.8, ServiceDistributions.parse("det"))).servers(500).tEnd(400)
                .replications(4).percentiles(10, 50, 99).seed(9).threads(2).build());
        double response = r.meanResponseTime().orElseThrow().mean();
        double waiting = r.meanWaitingTime().orElseThrow().mean();
        assertEquals(1, response - waiting, 1e-9);
        assertTrue(waiting > 0);
        for (QuantileEstimate q : r.responseTimeQuantiles()) {
            assertTrue(q.estimate().ci95Low() >= 1 - 1e-3, q.toString());
        }
        assertEquals(1, r.responseTimeQuantiles().get(0).estimate().mean(), 1e-3);
    }

    /** @return a run with everything the engine does: λ(t) by thinning, a grid, percentiles, distinct sampling */
    private static SimulationScenario reproducible(int threads, Sampling sampling) {
        ArrivalRate wave = new ArrivalRate() {
            @Override
            public double at(double t) {
                return 0.8 + 0.15 * Math.sin(t / 5);
            }

            @Override
            public double supremum(double t0, double t1) {
                return 0.95;
            }
        };
        return SimulationScenario.builder()
                .model(new LoadBalancingModel(ServerSystem.singleServerQueues(), new Policy.LeastLoaded(3, sampling), wave,
                        ServiceDistributions.parse("lognormal:scv=4")))
                .servers(300).tEnd(120).dt(10).warmup(20).replications(5).percentiles(50, 99).seed(77).threads(threads)
                .initialState(org.mflb.core.model.InitialState.parse("all:1")).build();
    }

    /** Replication r draws from the stream of (seed, r) only: the same numbers on 1, 2 or 3 threads. */
    @Test
    void sameSeedGivesIdenticalResultsWhateverTheThreadCount() {
        for (Sampling sampling : new Sampling[] {Sampling.REPLACEMENT, Sampling.DISTINCT}) {
            SimulationResult one = Simulator.run(reproducible(1, sampling));
            assertEquals(Engine.WORKLOAD, one.engine());
            for (int threads : new int[] {2, 3}) {
                SimulationResult other = Simulator.run(reproducible(threads, sampling));
                assertEquals(one.events(), other.events());
                assertEquals(one.meanResponseTime(), other.meanResponseTime());
                assertEquals(one.meanWaitingTime(), other.meanWaitingTime());
                assertEquals(one.meanQueueLength(), other.meanQueueLength());
                assertEquals(one.idleArrivalFraction(), other.idleArrivalFraction());
                assertArrayEquals(one.tail().mean(), other.tail().mean());
                assertArrayEquals(one.tail().ci95High(), other.tail().ci95High());
                assertEquals(one.responseTimeQuantiles(), other.responseTimeQuantiles());
                for (int g = 0; g < one.times().length; g++) {
                    assertArrayEquals(one.tailTrajectory().get(g).mean(), other.tailTrajectory().get(g).mean());
                }
            }
            // the grid starts from all:1 (every server busy) and the busy fraction stays a fraction
            assertEquals(1.0, one.tailTrajectory().get(0).mean()[1]);
            for (int g = 1; g < one.times().length; g++) {
                double x1 = one.tailTrajectory().get(g).mean()[1];
                assertTrue(x1 > 0.5 && x1 < 1, "x1(" + one.times()[g] + ") = " + x1);
            }
        }
    }

    /** Only the workload engine runs LL(d), and it runs nothing else; it has no covariance or memory. */
    @Test
    void refusesWhatTheWorkloadEngineCannotDo() {
        LoadBalancingModel model = ll(2, Sampling.REPLACEMENT, 0.9, ServiceDistributions.parse("exp"));
        ScenarioBuilder b = SimulationScenario.builder().model(model).servers(10).tEnd(10);
        assertEquals(Engine.WORKLOAD, b.build().engineInUse());
        assertEquals(Engine.WORKLOAD, b.engine(Engine.WORKLOAD).build().engineInUse());
        for (Engine other : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
            MflbException e = assertThrows(MflbException.class, () -> b.engine(other).build());
            assertTrue(e.getMessage().contains("engine"), e.getMessage());
        }
        b.engine(Engine.AUTO);
        assertThrows(MflbException.class, () -> b.covarianceLevels(2).build());
        b.covarianceLevels(0);
        assertThrows(MflbException.class, () -> b.eventCalendar(true).build());
        b.eventCalendar(false);
        MflbException e = assertThrows(MflbException.class, () -> SimulationScenario.builder()
                .model(TestModels.queues(Policy.powerOfD(2), 0.9)).servers(10).tEnd(10).engine(Engine.WORKLOAD).build());
        assertTrue(e.getMessage().contains("workload"), e.getMessage());
        assertEquals(Engine.WORKLOAD, Engine.parse("workload"));
    }
}
