package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.Truncation;

/**
 * The built-in validation scenarios: every model mflb computes, against the simulated system.
 * Quick mode sizes are chosen so the whole catalogue runs in about a minute on two idle cores;
 * full mode runs longer simulations for tighter intervals.
 */
public final class Catalogue {

    private Catalogue() {
    }

    /** Statistical error only: for models that are exact at every {@code N}. */
    private static final Comparisons.Tolerance EXACT = new Comparisons.Tolerance(3, 0);

    /**
     * Fluid limits of smooth policies are off by {@code O(1/N)} in steady state (refined mean field):
     * for SQ(2) at λ = 0.9 the simulated coefficient is about 2.5, so {@code 5/N} bounds it.
     */
    private static Comparisons.Tolerance fluid(int n) {
        return new Comparisons.Tolerance(3, 5.0 / n);
    }

    /** @return the quick catalogue, in report order */
    public static List<ValidationScenario> scenarios() {
        return scenarios(false);
    }

    /**
     * @param full whether to include the scenarios that only the full catalogue runs (the refined
     *        mean field over d ∈ {2, 3}, λ ∈ {0.7, 0.9, 0.95}, N up to 100)
     * @return every scenario of that catalogue, in report order
     */
    public static List<ValidationScenario> scenarios(boolean full) {
        List<ValidationScenario> list = new ArrayList<>();
        ServerSystem queues = ServerSystem.singleServerQueues();
        ServerSystem pools = ServerSystem.infiniteServerPools();
        // the real algorithms: SQ(d) samples d distinct servers (its fluid limit samples with replacement)
        Policy sq2 = new Policy.PowerOfD(2, Sampling.DISTINCT);

        list.add(FluidVersusSimulation.steadyState("mm1-random", "Random routing: independent M/M/1 queues, lambda = 0.8",
                "Random routing makes every queue an independent M/M/1 queue for every N, so the fluid fixed point "
                        + "x_i = 0.8^i is exact: only statistical error is allowed.",
                LoadBalancingModel.of(queues, Policy.random(), 0.8), 500, new int[] {8, 16},
                new double[] {4000, 20000}, EXACT));
        list.add(FluidVersusSimulation.steadyState("sq2-fixed-point", "SQ(2) fixed point, lambda = 0.9",
                "The supermarket model's fixed point x_i = lambda^(2^i - 1) (Mitzenmacher; Vvedenskaya et al.) "
                        + "against time averages of the real algorithm (2 distinct servers sampled).",
                LoadBalancingModel.of(queues, sq2, 0.9), 1000, new int[] {8, 16},
                new double[] {4000, 20000}, fluid(1000)));
        list.add(FluidVersusSimulation.transientRun("sq2-transient", "SQ(2) transient from empty, lambda = 0.9",
                "The fluid ODE's trajectory x_i(t) from empty queues against replication averages of the "
                        + "simulated system on the same time grid.",
                LoadBalancingModel.of(queues, sq2, 0.9), 1000, new int[] {20, 40},
                new double[] {20, 40}, InitialState.empty(), 2, fluid(1000)));
        list.add(FluidVersusSimulation.transientRun("sq3-pools-transient",
                "SQ(3) in infinite-server pools from full pools, lambda = 5",
                "Pools start with 8 tasks each and relax to the SQ(3) fixed point; the total mass follows "
                        + "u(t) = 5 + 3e^-t. Fluid trajectory against replication averages.",
                LoadBalancingModel.of(pools, new Policy.PowerOfD(3, Sampling.DISTINCT), 5.0), 1000, new int[] {20, 40},
                new double[] {5, 10}, InitialState.all(8), 0.5, fluid(1000)));
        list.add(FluidVersusSimulation.steadyState("random-pools-poisson", "Random routing in pools: M/M/inf, lambda = 3",
                "Each pool is an M/M/inf queue for every N, so the fluid fixed point (Poisson(3) tails) is exact: "
                        + "only statistical error is allowed.",
                LoadBalancingModel.of(pools, Policy.random(), 3.0), 500, new int[] {8, 16},
                new double[] {1000, 5000}, EXACT));
        list.add(FluidVersusSimulation.steadyStateWithBlocking("erlang-b-loss",
                "Random routing in loss pools: Erlang-B, C = 5, lambda = 4",
                "Each pool is an Erlang loss system M/M/5/5 for every N: the blocking probability must equal "
                        + "Erlang-B B(5, 4) and the occupancy the truncated Poisson law; only statistical error is allowed.",
                LoadBalancingModel.of(ServerSystem.lossPools(5), Policy.random(), 4.0), 500, new int[] {8, 16},
                new double[] {1000, 5000}, EXACT, ClosedForms.erlangB(5, 4.0)));
        list.add(FluidVersusSimulation.steadyState("sq2-loss", "SQ(2) in loss pools, C = 5, lambda = 4.5",
                "JSQ(2) with finite capacity (Vasantam-Mazumdar): fluid occupancy and blocking q_C^2 against the "
                        + "simulated loss system.",
                LoadBalancingModel.of(ServerSystem.lossPools(5), sq2, 4.5), 1000, new int[] {8, 16},
                new double[] {1000, 5000}, fluid(1000)));
        list.addAll(LossPoolScenarios.scenarios(full));
        list.add(FluidVersusSimulation.transientRun("sq2-time-varying",
                "SQ(2) under a time-varying load lambda(t) = 0.7 + 0.25 sin(t/2)",
                "The fluid ODE driven by lambda(t) against the simulator, which thins a Poisson process of the "
                        + "same time-varying rate.",
                LoadBalancingModel.of(queues, sq2, (ArrivalRate) t -> 0.7 + 0.25 * Math.sin(t / 2)), 1000,
                new int[] {20, 40}, new double[] {30, 60}, InitialState.empty(), 2, fluid(1000)));
        list.add(RefinedVersusSimulation.meanVersusN("refined-vs-n", "Refined mean field vs N: SQ(2), lambda = 0.9",
                LoadBalancingModel.of(queues, Policy.powerOfD(2), 0.9), new int[] {10, 20, 50}));
        if (full) {
            for (int d : new int[] {2, 3}) {
                for (double lambda : new double[] {0.7, 0.9, 0.95}) {
                    list.add(RefinedVersusSimulation.meanVersusN("refined-d" + d + "-" + (int) Math.round(100 * lambda),
                            "Refined mean field vs N: SQ(" + d + "), lambda = " + lambda,
                            LoadBalancingModel.of(queues, Policy.powerOfD(d), lambda), new int[] {10, 20, 50, 100}));
                }
            }
        }
        list.add(RefinedVersusSimulation.covariance("diffusion-sq2", "Linear-noise covariance: SQ(2), lambda = 0.9",
                LoadBalancingModel.of(queues, Policy.powerOfD(2), 0.9), Truncation.DEFAULT, 1000, 5));
        list.addAll(ModelFileScenarios.catalogue());
        list.add(new PdeVersusSimulation("pde-lognormal-4", "lognormal:scv=4"));
        list.add(new PdeVersusSimulation("pde-weibull-05", "weibull:shape=0.5"));
        if (full) {
            list.add(new PdeVersusSimulation("pde-lognormal-1", "lognormal:scv=1"));
            list.add(new PdeVersusSimulation("pde-pareto-25", "pareto:shape=2.5"));
        }
        list.addAll(ResponseTimeScenarios.scenarios());
        list.addAll(HeterogeneousScenarios.scenarios(full));
        list.addAll(LeastLoadedScenarios.scenarios(full));
        list.addAll(NonSmoothScenarios.scenarios());
        list.addAll(MemoryScenarios.scenarios());
        list.addAll(ThresholdScenarios.scenarios());
        list.add(new ThresholdDiffusionScenario(2.5));
        // beta = 1 in the quick catalogue; 0.5 and 2 (a longer lattice and a lighter tail) in the full one
        for (double beta : full ? new double[] {0.5, 1, 2} : new double[] {1}) {
            list.add(new HalfinWhittScenario(beta));
        }
        return list;
    }
}
