package org.mflb.simulation;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.InitialState;
import org.mflb.core.system.Policy;
import org.mflb.simulation.dispatch.LevelJump;

/**
 * The simulated threshold policies of [GABL] (token dispatchers) against independent truths:
 * exact chains of three pools, the balanced state of [GABL]'s Theorem 2 at n = 500, and the
 * fluid jump times of the self-learning threshold from empty (docs/models.md §3).
 */
class ThresholdDispatcherTest {

    private static ScenarioBuilder pools(Policy policy, int n, double lambda) {
        return SimulationScenario.builder().model(TestModels.pools(policy, lambda)).servers(n).threads(1);
    }

    /**
     * One long run (20 batch means of 4 500 time units ≫ the relaxation time ≈ 1) against the chain,
     * as one joint check: the levels of one run are correlated, and the message rate and the mean
     * threshold are functions of the same sample path (messages are sent when pools cross the
     * threshold, so their rate moves with the occupancy of the levels around it).
     */
    private static void compare(CiChecks checks, String name, ScenarioBuilder b, ThresholdChain exact,
            boolean adaptive) {
        b.servers(3).tEnd(100_000).warmup(10_000);
        Engine[] engines = b.build().occupancyExact() ? new Engine[] {Engine.AGENT, Engine.OCCUPANCY}
                : new Engine[] {Engine.AGENT};
        for (Engine engine : engines) {
            compareOn(checks, name + " (" + engine.cliName() + ")", b.engine(engine).build(), exact, adaptive);
        }
    }

    private static void compareOn(CiChecks checks, String name, SimulationScenario scenario, ThresholdChain exact,
            boolean adaptive) {
        SimulationResult r = Simulator.run(scenario);
        CiChecks.Joint joint = checks.joint(name).levels(r.tail(), 1, Arrays.copyOfRange(exact.tail, 1, 5), 0)
                .add("messages/task", r.policyStatistics().get("messagesPerTask"), exact.messagesPerTask, 0);
        if (adaptive) {
            joint.add("E[threshold]", r.policyStatistics().get("meanThreshold"), exact.meanThreshold, 0);
        }
        joint.check();
    }

    @Test
    void threePoolsMatchTheExactChain() {
        // 15 runs (7 cases on the agent and the occupancy engine, the event calendar on the agent
        // engine), one joint check each, each missing with probability at most p = 0.01/15: none
        // allowed, false alarm <= 15 x 0.067% = 1% (union bound). Allowing misses would leave the
        // event-calendar engine (one run) or an adaptive run of one engine unchecked
        CiChecks checks = new CiChecks(0.01 / 15);
        // λ = 1.5, 3 pools: 4.5 tasks on average (Poisson for every policy), so a cap of 14 tasks per
        // pool cuts off P(Poisson(4.5) > 14) < 1e-4 of the time, and only in states where a single
        // pool holds all of them: far below the intervals' half-widths (≈ 1e-3)
        double lambda = 1.5;
        int cap = 14;
        for (int ell = 0; ell <= 3; ell++) {
            ThresholdChain exact = new ThresholdChain(3, lambda, cap, ell, Double.NaN);
            compare(checks, "threshold " + ell, pools(new Policy.Threshold(ell), 3, lambda).seed(60 + ell),
                    exact, false);
        }
        // the event-calendar engine (used for general service) calls the same hooks
        compare(checks, "threshold 1, calendar", pools(new Policy.Threshold(1), 3, lambda).eventCalendar(true)
                .seed(64), new ThresholdChain(3, lambda, cap, 1, Double.NaN), false);
        double[] alphas = {0.2, 0.5, 0.9};
        for (int a = 0; a < alphas.length; a++) {
            ThresholdChain exact = new ThresholdChain(3, lambda, cap, 0, alphas[a]);
            compare(checks, "adaptive alpha " + alphas[a],
                    pools(new Policy.AdaptiveThreshold(alphas[a], 0), 3, lambda).seed(70 + a), exact, true);
        }
        checks.assertAtMostMisses(0);
    }

    @Test
    void floorLambdaThresholdBalancesPoolsWhilePowerOfTwoSpreadsThem() {
        // n = 500, λ = 10.5, ℓ = ⌊λ⌋ = 10: [GABL] (Theorem 2) drives the pools to the balanced state,
        // 10 or 11 tasks each; 20 batches of 9 time units
        int n = 500;
        double lambda = 10.5;
        SimulationResult th = Simulator.run(pools(new Policy.Threshold(10), n, lambda)
                .initialState(InitialState.all(10)).tEnd(200).warmup(20).seed(81).build());
        SimulationResult sq2 = Simulator.run(pools(Policy.powerOfD(2), n, lambda).initialState(InitialState.all(10))
                .tEnd(200).warmup(20).seed(82).build());
        double balancedTh = th.tail().get(10).mean() - th.tail().get(12).mean();
        double balancedSq2 = sq2.tail().get(10).mean() - sq2.tail().get(12).mean();
        CiChecks checks = new CiChecks();
        // at finite n the total number of tasks (Poisson(5250), sd 72 = 0.15 per pool) leaves the band
        // [10n, 12n) only rarely, and the policy refills a pool below 10 first; measured 0.998
        checks.require("threshold: fraction of pools with 10 or 11 tasks " + balancedTh + " >= 0.99",
                balancedTh >= 0.99);
        // SQ(2)'s fixed point puts about half of the pools outside {10, 11} (measured 0.52)
        checks.require("SQ(2): fraction of pools with 10 or 11 tasks " + balancedSq2 + " <= 0.7", balancedSq2 <= 0.7);
        Estimate messages = th.policyStatistics().get("messagesPerTask");
        checks.require("messages per task " + messages.mean() + " <= 2", messages.ci95High() <= 2);
        // in the balanced state every departure leaves a pool with 11 tasks (→ 10: a yellow message)
        // or with 10 (→ 9: a green one), and arrivals send none (their pool reaches 10 or 11): one
        // message per task, up to the tasks at pools outside {10, 11} (measured 1 − 4e-5)
        checks.require("messages per task " + messages.mean() + " within 0.01 of 1",
                Math.abs(messages.mean() - 1) <= 0.01);
        // only absolute bounds here, no interval check
        checks.assertAtMostMisses(0);
    }

    @Test
    void selfLearningThresholdFromEmptyJumpsAtTheFluidTimes() {
        // docs/models.md §3: from empty the fluid threshold reaches k at t_k = ln(λ/(λ−k)), k ≤ ⌊λ⌋, and
        // with the paper's α = 0.1 + 0.9 λ/(⌊λ⌋+1) it stays at ⌊λ⌋
        int n = 20_000;
        double lambda = 10.5;
        double alpha = 0.1 + 0.9 * lambda / 11;
        SimulationResult r = Simulator.run(pools(new Policy.AdaptiveThreshold(alpha, 0), n, lambda).tEnd(12)
                .warmup(6).replications(1).batches(4).seed(90).build());
        List<LevelJump> jumps = r.jumps();
        CiChecks checks = new CiChecks();
        checks.require("10 jumps 0 → 1 → ... → 10: " + jumps, jumps.size() == 10);
        for (int k = 1; k <= 10; k++) {
            LevelJump j = jumps.get(k - 1);
            double tk = Math.log(lambda / (lambda - k));
            // ℓ reaches k when the total number of tasks, Poisson(nλ(1 − e^{−t})) for any policy,
            // reaches nk (the pools are then all at k); its sd over the slope n(λ − k) gives the sd
            // of the jump time: sqrt(k/n)/(λ − k) (0.045 for k = 10); allow 5 sd plus 1e-3 for the
            // few pools still one task short when the mass reaches nk
            double sd = Math.sqrt(k / (double) n) / (lambda - k);
            checks.require(String.format("jump %d at %.4f vs fluid %.4f (sd %.4f)", k, j.t(), tk, sd),
                    j.from() == k - 1 && j.to() == k && Math.abs(j.t() - tk) <= 5 * sd + 1e-3);
        }
        Estimate mean = r.policyStatistics().get("meanThreshold");
        checks.require("mean threshold " + mean.mean() + " = 10 after the warm-up", mean.mean() == 10);
        // only absolute bounds here, no interval check
        checks.assertAtMostMisses(0);
    }
}
