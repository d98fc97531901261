package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;
import org.mflb.validation.plot.Figure;

/**
 * A model's fluid limit (its fixed point or transient) against the simulated {@code N}-server system:
 * the model states the simulated system (SQ(d) sampling {@code d} distinct servers, the real
 * algorithm), and the fluid is its {@code N → ∞} limit ({@link FluidModel#limit()}: SQ(d) with
 * replacement).
 */
public final class FluidVersusSimulation implements ValidationScenario {

    private final String id;
    private final String title;
    private final String why;
    private final LoadBalancingModel model;
    private final int servers;
    private final int[] replications;
    private final double[] horizon;
    private final InitialState initial;
    private final double dt;
    private final Comparisons.Tolerance tolerance;
    private final OptionalDouble exactBlocking;

    private FluidVersusSimulation(String id, String title, String why, LoadBalancingModel model, int servers,
            int[] replications, double[] horizon, InitialState initial, double dt, Comparisons.Tolerance tolerance,
            OptionalDouble exactBlocking) {
        this.id = id;
        this.title = title;
        this.why = why;
        this.model = model;
        this.servers = servers;
        this.replications = replications;
        this.horizon = horizon;
        this.initial = initial;
        this.dt = dt;
        this.tolerance = tolerance;
        this.exactBlocking = exactBlocking;
    }

    /**
     * The fixed point against a long simulation's time averages.
     *
     * @param why the description: what is compared and where the tolerance comes from
     * @param replications replications {quick, full}
     * @param runLength simulated time per replication {quick, full}
     */
    public static FluidVersusSimulation steadyState(String id, String title, String why, LoadBalancingModel model,
            int servers, int[] replications, double[] runLength, Comparisons.Tolerance tolerance) {
        return new FluidVersusSimulation(id, title, why, model, servers, replications, runLength, null, 0, tolerance,
                OptionalDouble.empty());
    }

    /** The same, also checking the blocking probability against an exact value (Erlang-B). */
    public static FluidVersusSimulation steadyStateWithBlocking(String id, String title, String why,
            LoadBalancingModel model, int servers, int[] replications, double[] runLength,
            Comparisons.Tolerance tolerance, double exactBlocking) {
        return new FluidVersusSimulation(id, title, why, model, servers, replications, runLength, null, 0, tolerance,
                OptionalDouble.of(exactBlocking));
    }

    /**
     * The transient against replication averages on a time grid.
     *
     * @param horizon {quick, full} final time
     */
    public static FluidVersusSimulation transientRun(String id, String title, String why, LoadBalancingModel model,
            int servers, int[] replications, double[] horizon, InitialState initial, double dt,
            Comparisons.Tolerance tolerance) {
        return new FluidVersusSimulation(id, title, why, model, servers, replications, horizon, initial, dt, tolerance,
                OptionalDouble.empty());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public ScenarioOutcome run(ValidationContext context) {
        long start = System.nanoTime();
        double tEnd = context.pick(horizon[0], horizon[1]);
        FluidModel fluid = FluidModel.of(model, servers).limit();
        ScenarioBuilder scenario = SimulationOf.scenario(model, servers).tEnd(tEnd)
                .replications(context.pick(replications[0], replications[1]))
                .seed(context.seed() ^ id.hashCode()).threads(context.threads());
        List<Check> checks = new ArrayList<>();
        Figure figure;
        String plotTitle = title + " (N = " + servers + ")";
        SimulationResult sim;
        if (initial == null) {
            FluidFixedPoint fp = fluid.fixedPoint();
            sim = Simulator.run(scenario.build());
            checks.addAll(Comparisons.steadyState("", fp.tail(), fp.meanQueueLength(), sim, tolerance));
            Optional<Estimate> blocking = sim.blocking();
            if (blocking.isPresent() && fp.blocking().isPresent()) {
                Estimate b = blocking.get();
                checks.add(tolerance.check("blocking (fluid)", fp.blocking().getAsDouble(), b));
                if (exactBlocking.isPresent()) {
                    checks.add(Check.of("blocking (Erlang-B, exact)", exactBlocking.getAsDouble(), b.mean(),
                            b.ci95Low(), b.ci95High(), 3 * b.halfWidth(), 0));
                }
            }
            figure = Comparisons.steadyStateFigure(plotTitle, "fluid fixed point", fp.tail(), sim);
        } else {
            FluidTransient tr = fluid.transientFrom(initial, TimeGrid.uniform(tEnd, dt));
            sim = Simulator.run(scenario.dt(dt).initialState(SimulationOf.initialState(initial, tr.tail(0))).build());
            double[] times = sim.times();
            double[][] predicted = new double[times.length][];
            for (int k = 0; k < times.length; k++) {
                predicted[k] = tr.tail(Math.min(times[k], tEnd));
            }
            checks.addAll(Comparisons.transientTails("", times, predicted, sim, tolerance));
            double[] lineTimes = Comparisons.fineTimes(tEnd, 400);
            double[][] line = new double[lineTimes.length][];
            for (int k = 0; k < lineTimes.length; k++) {
                line[k] = tr.tail(lineTimes[k]);
            }
            figure = Comparisons.transientFigure(plotTitle, lineTimes, line, sim, 6);
        }
        figure.save(context.figure(id));
        String description = why + "\n\nSimulation: N = " + servers + ", " + sim.scenario().run().replications()
                + " replications of length " + tEnd + ", " + String.format(java.util.Locale.ROOT, "%,d", sim.events())
                + " events, CIs by " + sim.confidenceMethod() + ". Tolerance per check: " + tolerance + ".";
        return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                (System.nanoTime() - start) * 1e-9);
    }
}
