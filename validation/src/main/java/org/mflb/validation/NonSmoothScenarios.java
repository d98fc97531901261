package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.ServerSystem;
import org.mflb.fluid.nonsmooth.JoinShortestQueue;
import org.mflb.fluid.nonsmooth.NonSmoothModel;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;
import org.mflb.fluid.nonsmooth.SwitchedTransient;
import org.mflb.simulation.Policy;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;
import org.mflb.simulation.SystemKind;
import org.mflb.validation.plot.Figure;

/**
 * Validation scenarios of the non-smooth fluid limits (MODELS.md §3, issue 5): the JSQ and JIQ
 * fluid transients, integrated piece by piece with their sliding regimes
 * ({@link NonSmoothModel}), against the simulated {@code N}-server system running the real
 * dispatcher ({@link Policy#JSQ}, {@link Policy#JIQ}). Only parameters cross over.
 * <p>
 * Tolerance: 3 CI half-widths plus {@code 0.1/√N}. The fluid limit of these policies is reached at
 * rate {@code 1/√N} on the levels that slide at 1 (the diffusion scale of paper 000, Theorems 3–4:
 * {@code √N (1 − q_i)} is tight there); at {@code N = 1000} the simulated bias of those levels is
 * about 0.003, i.e. {@code 0.1/√N}, while the other levels agree within the statistical error.
 */
public final class NonSmoothScenarios {

    private NonSmoothScenarios() {
    }

    /** @return the scenarios, in report order */
    public static List<ValidationScenario> scenarios() {
        ServerSystem pools = ServerSystem.infiniteServerPools();
        ServerSystem queues = ServerSystem.singleServerQueues();
        List<ValidationScenario> list = new ArrayList<>();
        list.add(new TransientScenario("jsq-pools-transient", "JSQ in infinite-server pools from empty, lambda = 2.5",
                "JSQ fills one level at a time: level k is full at t = ln(lambda/(lambda - k)) (ln(5/3), ln 5), "
                        + "after which the fluid slides on x_2 = 1 and x_3 -> 0.5 (the balanced state q*).",
                pools, NonSmoothPolicy.jsq(), 2.5, InitialState.empty(), 1000, new double[] {6, 10}, 0.5));
        list.add(new TransientScenario("jiq-pools-transient", "JIQ in infinite-server pools from empty, lambda = 1.5",
                "JIQ sends every task to an idle pool until none is left (x_1 = 1 at t = ln 3), then routes "
                        + "the excess at random: the fluid slides on x_1 = 1 towards the birth-death equilibrium "
                        + "with unbounded support.",
                pools, NonSmoothPolicy.jiq(), 1.5, InitialState.empty(), 1000, new double[] {6, 10}, 0.5));
        list.add(new TransientScenario("jsq-queues-drain", "JSQ in single-server queues from 2 jobs each, lambda = 0.9",
                "Queues start with 2 jobs each; JSQ keeps them balanced, so while every server is busy the total "
                        + "falls like 2 - 0.1 t and x_2 drains linearly; then x_1 -> 0.9, nothing waits.",
                queues, NonSmoothPolicy.jsq(), 0.9, InitialState.all(2), 1000, new double[] {20, 30}, 2));
        list.add(new TransientScenario("jiq-queues-drain", "JIQ in single-server queues from 2 jobs each, lambda = 0.9",
                "Queues start with 2 jobs each; JIQ routes to a random queue while no server is idle, so the "
                        + "queue-length spread grows before the system drains to x_1 = 0.9.",
                queues, NonSmoothPolicy.jiq(), 0.9, InitialState.all(2), 1000, new double[] {20, 30}, 2));
        return list;
    }

    /** A non-smooth fluid transient against replication averages on a time grid. */
    static final class TransientScenario implements ValidationScenario {

        private final String id;
        private final String title;
        private final String why;
        private final ServerSystem system;
        private final NonSmoothPolicy policy;
        private final double lambda;
        private final InitialState initial;
        private final int servers;
        private final double[] horizon;
        private final double dt;

        TransientScenario(String id, String title, String why, ServerSystem system, NonSmoothPolicy policy,
                double lambda, InitialState initial, int servers, double[] horizon, double dt) {
            this.id = id;
            this.title = title;
            this.why = why;
            this.system = system;
            this.policy = policy;
            this.lambda = lambda;
            this.initial = initial;
            this.servers = servers;
            this.horizon = horizon;
            this.dt = dt;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String title() {
            return title;
        }

        /** @return 3 half-widths plus the {@code 1/√N} allowance of the class comment */
        Comparisons.Tolerance tolerance() {
            return new Comparisons.Tolerance(3, 0.1 / Math.sqrt(servers));
        }

        @Override
        public ScenarioOutcome run(ValidationContext context) {
            long start = System.nanoTime();
            double tEnd = context.pick(horizon[0], horizon[1]);
            NonSmoothModel fluid = NonSmoothModel.of(system, policy, ArrivalRate.constant(lambda));
            SwitchedTransient tr = fluid.transientFrom(initial, TimeGrid.uniform(tEnd, dt));
            SimulationScenario scenario = SimulationScenario.builder()
                    .system(system.kind() == ServerSystem.Kind.POOLS ? SystemKind.POOLS : SystemKind.SUPERMARKET)
                    .policy(policy instanceof JoinShortestQueue ? Policy.JSQ : Policy.JIQ)
                    .servers(servers).arrivalRate(ArrivalRate.constant(lambda)).tEnd(tEnd).dt(dt)
                    .replications(context.pick(10, 40)).seed(context.seed() ^ id.hashCode()).threads(context.threads())
                    .initialState(SimulationOf.initialState(initial, tr.tail(0))).build();
            SimulationResult sim = Simulator.run(scenario);
            double[] times = sim.times();
            double[][] predicted = new double[times.length][];
            for (int k = 0; k < times.length; k++) {
                predicted[k] = tr.tail(Math.min(times[k], tEnd));
            }
            Comparisons.Tolerance tolerance = tolerance();
            List<Check> checks = new ArrayList<>(Comparisons.transientTails("", times, predicted, sim, tolerance));
            double[] lineTimes = Comparisons.fineTimes(tEnd, 400);
            double[][] line = new double[lineTimes.length][];
            for (int k = 0; k < lineTimes.length; k++) {
                line[k] = tr.tail(lineTimes[k]);
            }
            Figure figure = Comparisons.transientFigure(title + " (N = " + servers + ")", lineTimes, line, sim, 6);
            figure.save(context.figure(id));
            StringBuilder switches = new StringBuilder();
            for (var s : tr.switches()) {
                switches.append(switches.length() == 0 ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%s at t = %.6f", s.to().describe(), s.t()));
            }
            String description = why + "\n\nFluid regime switches: " + (switches.length() == 0 ? "none" : switches)
                    + ".\n\nSimulation: N = " + servers + ", " + sim.scenario().replications() + " replications of length "
                    + tEnd + ", " + String.format(Locale.ROOT, "%,d", sim.events()) + " events, CIs by "
                    + sim.confidenceMethod() + ". Tolerance per check: " + tolerance
                    + " (the 1/sqrt(N) term: fluid error on the sliding levels, paper 000 Theorems 3-4).";
            return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                    (System.nanoTime() - start) * 1e-9);
        }
    }
}
