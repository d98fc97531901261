package org.mflb.validation;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidTransient;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.Simulator;

/**
 * A non-smooth fluid transient (JSQ, JIQ, threshold: piecewise-smooth with sliding regimes,
 * {@link FluidModel}, docs/models.md §3) from {@code initial} against the replication averages (10
 * quick, 40 full) of the simulated {@code N}-server system running the real dispatcher
 * ({@link SimulationOf#scenario(LoadBalancingModel, int)}) on the grid of step {@code dt} up to
 * {@code horizon} = {quick, full} final time; also the pieces the other non-smooth scenarios share (the
 * fluid at given times, the figure, the tolerance). {@code why} is the report's description of what
 * is compared, {@code slidingLevels} names the levels of the tolerance's {@code 1/√N} term.
 * <p>
 * Tolerance: 3 CI half-widths plus {@code 0.1/√N} ({@link #tolerance(int)}). The fluid limit of these
 * policies is reached at rate {@code 1/√N} on the levels that slide at 1 (the diffusion scale of
 * [GABL], Theorems 3–4: {@code √N (1 − q_i)} is tight there), so the simulated mean sits below 1
 * by {@code O(1/√N)}; the constant 0.1 is the measured {@code √N}-scaled bias of those levels (about
 * 0.003 at {@code N = 1000}), while the other levels agree within the statistical error.
 */
record NonSmoothVersusSimulation(String id, String title, String why, LoadBalancingModel model, InitialState initial,
        int servers, double[] horizon, double dt, String slidingLevels) implements ValidationScenario {

    /** The {@code 1/√N} allowance of the tail checks (class comment). */
    static final double SLIDING_BIAS = 0.1;

    /** @return 3 half-widths plus the {@code 0.1/√N} allowance of the class comment */
    static Comparisons.Tolerance tolerance(int servers) {
        return new Comparisons.Tolerance(3, SLIDING_BIAS / Math.sqrt(servers));
    }

    /** @return the fluid tail at each of {@code times} (clamped to the grid's end) */
    static double[][] fluidAt(FluidTransient tr, double[] times, double tEnd) {
        double[][] p = new double[times.length][];
        for (int k = 0; k < times.length; k++) {
            p[k] = tr.tail(Math.min(times[k], tEnd));
        }
        return p;
    }

    /** Saves the transient figure (fluid lines on a fine grid, simulated points with CIs). */
    static void saveFigure(ValidationContext context, String id, String title, FluidTransient tr, double tEnd,
            SimulationResult sim) {
        double[] lineTimes = Comparisons.fineTimes(tEnd, 400);
        Comparisons.transientFigure(title, lineTimes, fluidAt(tr, lineTimes, tEnd), sim, 6).save(context.figure(id));
    }

    /** @return the fluid's regime switches, for the report ("none" if it has none) */
    static String switches(FluidTransient tr) {
        StringBuilder s = new StringBuilder();
        for (var sw : tr.regimes().orElseThrow().switches()) {
            s.append(s.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s at t = %.6f", sw.to().describe(), sw.t()));
        }
        return s.length() == 0 ? "none" : s.toString();
    }

    @Override
    public ScenarioOutcome run(ValidationContext context) {
        long start = System.nanoTime();
        double tEnd = context.pick(horizon[0], horizon[1]);
        FluidTransient tr = FluidModel.of(model).transientFrom(initial, TimeGrid.uniform(tEnd, dt));
        SimulationResult sim = Simulator.run(SimulationOf.scenario(model, servers).tEnd(tEnd).dt(dt)
                .replications(context.pick(10, 40)).seed(context.seed() ^ id.hashCode()).threads(context.threads())
                .initialState(SimulationOf.initialState(initial, tr.tail(0))).build());
        Comparisons.Tolerance tolerance = tolerance(servers);
        double[] times = sim.times();
        List<Check> checks = Comparisons.transientTails("", times, fluidAt(tr, times, tEnd), sim, tolerance);
        saveFigure(context, id, title + " (N = " + servers + ")", tr, tEnd, sim);
        String description = why + "\n\nFluid regime switches: " + switches(tr) + ".\n\nSimulation: N = " + servers
                + ", " + sim.scenario().run().replications() + " replications of length " + tEnd + ", "
                + String.format(Locale.ROOT, "%,d", sim.events()) + " events, CIs by " + sim.confidenceMethod()
                + ". Tolerance per check: " + tolerance + " (the 1/sqrt(N) term: fluid error on " + slidingLevels
                + ", [GABL] Theorems 3-4).";
        return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                (System.nanoTime() - start) * 1e-9);
    }
}
