package org.mflb.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.markov.StationaryDistribution;
import org.mflb.core.markov.TransitionRates;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.heterogeneous.ClassFixedPoint;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;
import org.mflb.simulation.state.ServerClassLayout;

/**
 * Servers of different speeds (docs/models.md §10) in the simulator, on both engines, against exact
 * truths: random routing makes each class an M/M/1 queue; equal speeds split into classes are the
 * homogeneous system; the exact stationary law of a two-server system decides SED(2)'s ties; and the
 * refined mean field {@code fluid + V/N} (fluid models, test scope only) at N = 20 and 50, with
 * intervals narrow enough to reject the bare fluid.
 */
class HeterogeneousSimulationTest {

    /** a = (½, ½), s = (1.5, 0.5): the reference case of docs/models.md §10. */
    private static final ServerClasses TWO = ServerClasses.of(new double[] {0.5, 0.5}, new double[] {1.5, 0.5});

    private static LoadBalancingModel queues(Policy policy, double lambda, ServerClasses classes) {
        return LoadBalancingModel.of(ServerSystem.singleServerQueues(), policy, lambda).withClasses(classes);
    }

    private static ScenarioBuilder run(LoadBalancingModel model, int n, double tEnd, int reps, long seed,
            Engine engine) {
        return SimulationScenario.builder().model(model).servers(n).tEnd(tEnd).warmup(tEnd / 10).replications(reps)
                .seed(seed).threads(2).engine(engine);
    }

    @Test
    void classSizesMustBeWholeAndTheLoadStable() {
        MflbException e = assertThrows(MflbException.class, () -> run(queues(Policy.powerOfD(2), 0.5, TWO), 101, 10, 1,
                1, Engine.AUTO).build());
        assertTrue(e.getMessage().contains("nearest such n: 100"), e.getMessage());
        // SQ(2) with a = (0.2, 0.8), s = (3, 0.5): lambda* = 0.625 although C = 1
        ServerClasses skewed = ServerClasses.of(new double[] {0.2, 0.8}, new double[] {3, 0.5});
        assertEquals(0.625, skewed.stabilityBoundary(2, Sampling.REPLACEMENT), 1e-12);
        assertEquals(0.78125, skewed.stabilityBoundary(3, Sampling.REPLACEMENT), 1e-12);
        assertEquals(1.0, skewed.stabilityBoundary(2, Sampling.SPEED), 1e-12);
        assertEquals(0.5, skewed.stabilityBoundary(1, Sampling.REPLACEMENT), 1e-12);
        ServerClasses three = ServerClasses.of(new double[] {0.25, 0.25, 0.5}, new double[] {2, 1, 0.5});
        assertEquals(8.0 / 9, three.stabilityBoundary(2, Sampling.REPLACEMENT), 1e-12);
        e = assertThrows(MflbException.class, () -> run(queues(Policy.powerOfD(2), 0.7, skewed), 10, 10, 1, 1,
                Engine.AUTO).build());
        assertTrue(e.getMessage().contains("lambda* = 0.625"), e.getMessage());
        run(queues(new Policy.PowerOfD(2, Sampling.SPEED), 0.7, skewed), 10, 10, 1, 1, Engine.AUTO).build();
    }

    @Test
    void integerSpeedComparisonIsTheExactDecimalOne() {
        ServerClasses[] cases = {TWO, ServerClasses.of(new double[] {0.5, 0.5}, new double[] {0.3, 0.9}),
            ServerClasses.of(new double[] {0.25, 0.25, 0.5}, new double[] {1.0 / 3, 2, 1e-3}),
            ServerClasses.of(new double[] {0.5, 0.5}, new double[] {12345.678, 0.000123})};
        for (ServerClasses c : cases) {
            ServerClassLayout layout = new ServerClassLayout(c, 4 * c.count());
            for (int k1 = 0; k1 < c.count(); k1++) {
                for (int k2 = 0; k2 < c.count(); k2++) {
                    for (int q1 = 0; q1 < 40; q1++) {
                        for (int q2 = 0; q2 < 40; q2++) {
                            assertEquals(Integer.signum(c.compareValues(k1, q1, k2, q2)),
                                    Integer.signum(layout.compareValues(k1, q1, k2, q2)), c + " " + k1 + q1 + k2 + q2);
                        }
                    }
                    // the hot loops' mask, on small levels and on levels near 2^31 (the long products'
                    // bound), against the decimal comparison
                    int[] levels = {0, 1, 2, 3, 7, 11, 39, 1 << 30, Integer.MAX_VALUE - 1};
                    for (int q1 : levels) {
                        for (int q2 : levels) {
                            assertEquals(c.compareValues(k1, q1, k2, q2) < 0 ? -1 : 0,
                                    layout.smallerValueMask(k1, q1, k2, q2), c + " " + k1 + " " + q1 + " " + k2 + " " + q2);
                        }
                    }
                }
            }
        }
    }

    @Test
    void randomRoutingMakesEachClassAnMM1Queue() {
        // a = (½, ½), s = (2, 1), lambda = 0.6: uniform routing gives class k the load lambda/s_k;
        // speed-weighted routing sends lambda s_k/C to a class-k server: load lambda/C = 0.4 everywhere.
        // 4 runs (2 engines x 2 routings), one joint check each, p = 0.01/4, none allowed: false alarm <= 1%
        ServerClasses classes = ServerClasses.of(new double[] {0.5, 0.5}, new double[] {2, 1});
        double lambda = 0.6;
        CiChecks checks = new CiChecks(0.01 / 4);
        long seed = 11;
        for (boolean speed : new boolean[] {false, true}) {
            Policy policy = speed ? new Policy.PowerOfD(1, Sampling.SPEED) : Policy.random();
            for (Engine engine : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
                SimulationResult r = Simulator.run(run(queues(policy, lambda, classes), 20, 3000, 10, seed++, engine)
                        .build());
                assertEquals(engine, r.engine());
                CiChecks.Joint joint = checks.joint((speed ? "speed-weighted" : "uniform") + " random, " + engine);
                double total = 0;
                for (int k = 0; k < 2; k++) {
                    double s = classes.speed(k);
                    double arrival = speed ? lambda * s / classes.capacity() : lambda;
                    double rho = arrival / s;
                    ClassEstimate c = r.classes().get(k);
                    joint.add("E[Q_" + k + "]", c.meanQueueLength(), rho / (1 - rho), 0);
                    joint.add("E[R_" + k + "]", c.meanResponseTime(), 1 / (s - arrival), 0);
                    joint.add("lambda_" + k, c.arrivalRate(), arrival, 0);
                    total += classes.fraction(k) * rho / (1 - rho);
                }
                joint.add("E[Q]", r.meanQueueLength(), total, 0);
                joint.add("E[R]", r.meanResponseTime().orElseThrow(), total / lambda, 0);
                joint.check();
            }
        }
        checks.assertAtMostMisses(0);
    }

    @Test
    void equalSpeedsSplitIntoClassesAreTheHomogeneousSystem() {
        // a = (0.4, 0.6), s = (1, 1), N = 10, lambda = 0.9: SQ(2), SED(2) (= SQ(2)) and speed-weighted
        // SQ(2) (= with replacement) against the homogeneous SQ(2) of the same N; every class holds the
        // mean of all servers. 6 runs (3 policies x 2 engines), p = 0.01/6, none allowed: false alarm <= 1%
        ServerClasses split = ServerClasses.of(new double[] {0.4, 0.6}, new double[] {1, 1});
        double lambda = 0.9;
        int n = 10;
        SimulationResult homogeneous = Simulator.run(run(LoadBalancingModel.of(ServerSystem.singleServerQueues(),
                Policy.powerOfD(2), lambda), n, 4000, 12, 100, Engine.OCCUPANCY).build());
        CiChecks checks = new CiChecks(0.01 / 6);
        long seed = 200;
        Policy[] policies = {Policy.powerOfD(2), new Policy.ShortestExpectedDelay(2, Sampling.REPLACEMENT),
            new Policy.PowerOfD(2, Sampling.SPEED)};
        for (Policy policy : policies) {
            for (Engine engine : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
                SimulationResult r = Simulator.run(run(queues(policy, lambda, split), n, 4000, 12, seed++, engine)
                        .build());
                CiChecks.Joint joint = checks.joint(policy.id() + " " + policy.sampling().id() + " " + engine);
                Estimate h = homogeneous.meanQueueLength();
                joint.add("E[Q]", EngineAgreementTest.difference(r.meanQueueLength(), h), 0, 0);
                for (int i = 1; i <= 3; i++) {
                    joint.add("x_" + i, EngineAgreementTest.difference(r.tail().get(i), homogeneous.tail().get(i)), 0, 0);
                }
                for (int k = 0; k < 2; k++) {
                    joint.add("E[Q_" + k + "]", EngineAgreementTest.difference(r.classes().get(k).meanQueueLength(), h),
                            0, 0);
                }
                joint.check();
            }
        }
        checks.assertAtMostMisses(0);
    }

    /**
     * The exact stationary mean jobs per server of the two-server system, one server of each class of
     * {@link #TWO}, under SED(2) with the given sampling (arrivals at rate 2λ; written from the
     * policy's definition): both samples the same server, or one of each (probability ½ with
     * replacement, 1 when distinct), which then compares (q_f + 1)/1.5 with (q_s + 1)/0.5, a tie going
     * to the fast server with probability {@code tieToFast} (½ is the policy). Truncated at 60 jobs per
     * server (an arrival beyond is lost: negligible mass).
     *
     * @return {E[Q_fast], E[Q_slow], λ_fast}: the mean jobs at each server and the arrival rate to the
     *         fast one ({@code 1.5·P(busy)}, its throughput)
     */
    static double[] twoServerSed(double lambda, boolean distinct, double tieToFast) {
        int cap = 60;
        int size = (cap + 1) * (cap + 1);
        TransitionRates.Builder chain = TransitionRates.builder(size);
        for (int f = 0; f <= cap; f++) {
            for (int s = 0; s <= cap; s++) {
                int state = f * (cap + 1) + s;
                int cmp = Integer.compare(2 * (f + 1), 6 * (s + 1)); // (f+1)/1.5 vs (s+1)/0.5, times 3
                double mixedToFast = cmp < 0 ? 1 : cmp > 0 ? 0 : tieToFast;
                double mixed = distinct ? 1 : 0.5;
                double toFast = (distinct ? 0 : 0.25) + mixed * mixedToFast;
                double toSlow = 1 - toFast;
                if (f < cap && toFast > 0) {
                    chain.rate(state, state + cap + 1, 2 * lambda * toFast);
                }
                if (s < cap && toSlow > 0) {
                    chain.rate(state, state + 1, 2 * lambda * toSlow);
                }
                if (f > 0) {
                    chain.rate(state, state - cap - 1, 1.5);
                }
                if (s > 0) {
                    chain.rate(state, state - 1, 0.5);
                }
            }
        }
        double[] pi = StationaryDistribution.solve(chain.build(), 1e-13, 200_000).probabilities();
        double[] q = new double[3];
        for (int f = 0; f <= cap; f++) {
            for (int s = 0; s <= cap; s++) {
                q[0] += pi[f * (cap + 1) + s] * f;
                q[1] += pi[f * (cap + 1) + s] * s;
                q[2] += f > 0 ? 1.5 * pi[f * (cap + 1) + s] : 0;
            }
        }
        return q;
    }

    @Test
    void sedTiesAcrossClassesSplitUniformlyInATwoServerSystem() {
        // N = 2, one server of each class, lambda = 0.7: the exact chain against both engines, with
        // replacement and distinct sampling. The tie (2+1)/1.5 = (0+1)/0.5 is frequent: giving it always
        // to the fast or always to the slow server moves the means by far more than the intervals
        // (printed). 4 runs, one joint check each, p = 0.01/4, none allowed: false alarm <= 1%
        double lambda = 0.7;
        CiChecks checks = new CiChecks(0.01 / 4);
        long seed = 300;
        for (boolean distinct : new boolean[] {false, true}) {
            double[] exact = twoServerSed(lambda, distinct, 0.5);
            double[] fast = twoServerSed(lambda, distinct, 1);
            double[] slow = twoServerSed(lambda, distinct, 0);
            System.out.printf("SED(2) N=2 %s: exact (%.5f, %.5f, %.5f); ties to fast (%.5f, %.5f, %.5f), to slow"
                    + " (%.5f, %.5f, %.5f)%n", distinct ? "distinct" : "replacement", exact[0], exact[1], exact[2],
                    fast[0], fast[1], fast[2], slow[0], slow[1], slow[2]);
            Policy policy = new Policy.ShortestExpectedDelay(2, distinct ? Sampling.DISTINCT : Sampling.REPLACEMENT);
            for (Engine engine : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
                SimulationResult r = Simulator.run(run(queues(policy, lambda, TWO), 2, 300_000, 10, seed++, engine)
                        .build());
                CiChecks.Joint joint = checks.joint("SED(2) N=2 " + policy.sampling().id() + " " + engine);
                joint.add("E[Q_fast]", r.classes().get(0).meanQueueLength(), exact[0], 0);
                joint.add("E[Q_slow]", r.classes().get(1).meanQueueLength(), exact[1], 0);
                joint.add("E[Q]", r.meanQueueLength(), (exact[0] + exact[1]) / 2, 0);
                joint.add("lambda_fast", r.classes().get(0).arrivalRate(), exact[2], 0);
                joint.check();
                for (double[] wrong : new double[][] {fast, slow}) {
                    Estimate e = r.classes().get(0).arrivalRate();
                    assertTrue(Math.abs(e.mean() - wrong[2]) > 2 * e.halfWidth(), "the test has power against "
                            + "a biased tie rule: " + e + " vs " + wrong[2]);
                }
            }
        }
        checks.assertAtMostMisses(0);
    }

    /** The fluid's E[Q], the refined 1/N and 1/N² terms at n, and the per-class E[Q_k] + their 1/N terms. */
    private record Refined(double fluid, double t1, double t2, double[] classes) {

        static Refined of(LoadBalancingModel model, int n) {
            HeterogeneousFluid fluid = HeterogeneousFluid.of(model);
            ClassFixedPoint fp = fluid.fixedPoint();
            SteadyStateExpansion e = fluid.refined(2);
            ServerClasses classes = model.classes();
            double[] v = e.firstOrderTerm();
            double[] perClass = new double[classes.count()];
            for (int c = 0; c < perClass.length; c++) {
                perClass[c] = fp.meanQueueLength(c);
            }
            for (int j = 0; j < v.length; j++) {
                int c = j % classes.count(); // y_{k,i} sits at (i - 1) K + k
                perClass[c] += v[j] / classes.fraction(c) / n;
            }
            double t1 = e.meanTotal(n, 1) - e.meanTotal(n, 0);
            return new Refined(e.meanTotal(n, 0), t1, e.meanTotal(n, 2) - e.meanTotal(n, 1), perClass);
        }
    }

    @Test
    void refinedMeanFieldClosesMostOfTheFiniteSizeGapAtN20() {
        // docs/models.md §10 fact 5: at N = 20 the refined fluid + V/N removes 82-98% of the gap between the
        // fluid and the finite system. a = (1/2, 1/2), s = (1.5, 0.5): SQ(2) at 0.7 (V/N = 0.091) and SED(2) at
        // 0.9 (V/N = 0.370). Each run: the simulated E[Q] within its widened interval of fluid + V/N (slack
        // 1.5|A/N^2|, the next term), and the refined value closes most of the gap even at the interval's far
        // end: |sim - refined| + widened h <= |V/N|/2 (measured: 2% of the gap left at 0.7, 10-20% at 0.9).
        // 2 runs, one joint check each at p = 0.01/2, none allowed: false alarm <= 1%
        int n = 20;
        CiChecks checks = new CiChecks(0.01 / 2);
        Object[][] cases = {{Policy.powerOfD(2), 0.7}, {new Policy.ShortestExpectedDelay(2, Sampling.REPLACEMENT), 0.9}};
        long seed = 500;
        for (Object[] c : cases) {
            Policy policy = (Policy) c[0];
            double lambda = (Double) c[1];
            LoadBalancingModel model = queues(policy, lambda, TWO);
            Refined refined = Refined.of(model, n);
            SimulationResult r = Simulator.run(run(model, n, 25_000, 8, seed++, Engine.OCCUPANCY).warmup(500).build());
            Estimate q = r.meanQueueLength();
            double predicted = refined.fluid() + refined.t1();
            String label = policy.id() + " lambda=" + lambda + " N=" + n;
            checks.joint(label).add("E[Q]", q, predicted, 1.5 * Math.abs(refined.t2())).check();
            double widened = CiChecks.wideningFactor(0.01 / 2, 1, q.samples() - 1) * q.halfWidth();
            System.out.printf("%s: fluid %.5f refined %.5f sim %.5f +- %.5f%n", label, refined.fluid(), predicted,
                    q.mean(), q.halfWidth());
            checks.require(String.format("%s: |sim - refined| + h = %.5f <= |V/N|/2 = %.5f", label,
                    Math.abs(q.mean() - predicted) + widened, Math.abs(refined.t1()) / 2),
                    Math.abs(q.mean() - predicted) + widened <= Math.abs(refined.t1()) / 2);
        }
        checks.assertAtMostMisses(0);
    }

    @Test
    void simulationFollowsTheRefinedMeanFieldAndNotTheBareFluid() {
        // fluid + V/N against N = 50 servers, per class and overall, with an interval narrow enough to reject the
        // bare fluid: a = (1/2, 1/2), s = (1.5, 0.5), SQ(2), lambda = 0.7, V/N = 0.036 against a half-width near
        // 0.01 (16 replications: a stable width). The same check at N = 1000, where V/N is 20 times smaller, needs
        // ~1e9 events: it is the validation catalogue's (hetero-refined-*, validate --full); the engines' agreement
        // is EngineAgreementTest's. Slack: 1.5|A/N^2| overall (the next term), twice that per class. One joint
        // check at p = 0.01, no miss allowed: false alarm <= 1%; the power requirement (the bare fluid outside the
        // widened interval) is asserted on the run.
        int n = 50;
        double lambda = 0.7;
        CiChecks checks = new CiChecks(0.01);
        LoadBalancingModel model = queues(Policy.powerOfD(2), lambda, TWO);
        Refined refined = Refined.of(model, n);
        SimulationResult r = Simulator.run(run(model, n, 10_000, 16, 600, Engine.OCCUPANCY).warmup(500).build());
        String label = "SQ(2) lambda=0.7 N=" + n;
        double slack = 1.5 * Math.abs(refined.t2());
        Estimate q = r.meanQueueLength();
        CiChecks.Joint joint = checks.joint(label).add("E[Q]", q, refined.fluid() + refined.t1(), slack);
        for (int k = 0; k < 2; k++) {
            joint.add("E[Q_" + k + "]", r.classes().get(k).meanQueueLength(), refined.classes()[k], 2 * slack);
        }
        joint.check();
        double widened = CiChecks.wideningFactor(0.01, 3, q.samples() - 1) * q.halfWidth();
        System.out.printf("%s: fluid %.5f refined %.5f sim %.5f +- %.5f (%.1f s)%n", label, refined.fluid(),
                refined.fluid() + refined.t1(), q.mean(), q.halfWidth(), r.wallSeconds());
        checks.require(label + ": the bare fluid lies outside the widened interval (the test has power)",
                Math.abs(q.mean() - refined.fluid()) > widened + slack);
        checks.assertAtMostMisses(0);
    }
}
