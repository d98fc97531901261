package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.Truncation;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.Simulator;

/**
 * Finite-{@code N} corrections against the simulator: the refined mean field {@code π + V/N} and
 * its second order {@code π + V/N + A/N²} for the mean queue length at several {@code N}
 * (Gast–Van Houdt; Gast–Bortolussi–Tribastone), and the linear-noise covariance {@code W} against
 * the simulated {@code N·Cov(X^N)}. The expansions and the simulation are built from the same
 * model: SQ(d) sampling with replacement is the model the expansions are exact for; with {@code d}
 * distinct servers the drift is that algorithm's exact finite-N one.
 */
public final class RefinedVersusSimulation {

    private RefinedVersusSimulation() {
    }

    /**
     * Mean queue length at each {@code N}: mean field, order 1 and order 2 against the simulation.
     * Each order must lie within the tolerance of {@link RefinedComparisons#seriesChecks}, where the
     * series is usable at that {@code N}.
     */
    public static ValidationScenario meanVersusN(String id, String title, LoadBalancingModel model, int[] sizes) {
        FluidModel fluid = FluidModel.of(model);
        return ValidationScenario.of(id, title, context -> {
                long start = System.nanoTime();
                FluidFixedPoint fp = fluid.fixedPoint();
                SteadyStateExpansion expansion = new RefinedMeanField(2).steadyState(fp.smoothDrift().orElseThrow(), fp.levels());
                double c2 = expansion.meanTotal(1, 2) - expansion.meanTotal(1, 1);
                List<Check> checks = new ArrayList<>();
                MeanVersusN versusN = new MeanVersusN(expansion, sizes.length);
                long events = 0;
                for (int n : sizes) {
                    SimulationResult r = Simulator.run(SimulationOf.scenario(model, n)
                            .tEnd(context.pick(20_000.0, 100_000.0) * Math.max(1, 100.0 / n) / 10)
                            .replications(context.pick(8, 16)).seed(context.seed() ^ (31L * n + id.hashCode()))
                            .threads(context.threads()).build());
                    events += r.events();
                    versusN.add(checks, n, r.meanQueueLength());
                }
                versusN.figure(title, "mean queue length E[Q]").save(context.figure(id));
                String description = String.format(Locale.ROOT,
                        "Mean queue length of %s at lambda = %s for N = %s: mean field pi, refined pi + V/N and "
                                + "pi + V/N + A/N^2 (A: 1/N^2 coefficient %.4f) against simulations that sample "
                                + "with replacement (the model the expansion is for); %,d simulated events. "
                                + "Tolerances: " + RefinedComparisons.RULE + ".",
                        fluid, fluid.arrivalRate().at(0), java.util.Arrays.toString(sizes), c2, events) + versusN.table();
                return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                        (System.nanoTime() - start) * 1e-9);
        });
    }

    /**
     * The linear-noise covariance {@code W} (Lyapunov equation {@code AW + WAᵀ + Q = 0}) against the
     * simulated {@code N·Cov(X^N)} for the first levels; tolerance {@code 3} CI half-widths plus
     * {@code 10/N} of the covariance's scale (its {@code O(1/N)} correction).
     *
     * @param model the model simulated and expanded (SQ(d) with distinct sampling: its exact drift at {@code n})
     * @param truncation the fluid's truncation
     * @param n the number of servers simulated
     * @param levels the levels of the covariance compared
     */
    public static ValidationScenario covariance(String id, String title, LoadBalancingModel model, Truncation truncation,
            int n, int levels) {
        FluidModel fluid = FluidModel.of(model, n).withTruncation(truncation);
        return ValidationScenario.of(id, title, context -> {
                long start = System.nanoTime();
                FluidFixedPoint fp = fluid.fixedPoint();
                SteadyStateExpansion expansion = new RefinedMeanField(1).steadyState(fp.smoothDrift().orElseThrow(), fp.levels());
                DMatrixRMaj w = expansion.covarianceTerm();
                SimulationResult r = Simulator.run(SimulationOf.scenario(model, n)
                        .tEnd(context.pick(4000.0, 20000.0)).replications(context.pick(8, 16))
                        .covarianceLevels(levels).seed(context.seed() ^ id.hashCode()).threads(context.threads())
                        .build());
                MatrixEstimate cov = r.covariance().orElseThrow();
                RefinedComparisons.Covariance c = RefinedComparisons.Covariance.of(w, cov, levels, n,
                        i -> "x_" + (i + 1));
                c.figure(title + " (N = " + n + ")", "level i", "simulation (95% CI)").save(context.figure(id));
                String description = String.format(Locale.ROOT,
                        "Stationary fluctuations of %s at lambda = %s: the Ornstein-Uhlenbeck (linear-noise) "
                                + "covariance W from the Lyapunov equation A W + W A^T + Q = 0 (Bartels-Stewart) "
                                + "against the simulated N Cov(x_i, x_j) at N = %d (time-averaged, %,d events). "
                                + "Tolerance: 3 CI half-widths + 10 max|W_ii|/N (the O(1/N) correction).",
                        fluid, fluid.arrivalRate().at(0), n, r.events());
                return new ScenarioOutcome(id, title, description, c.checks(), Optional.of(context.figure(id)),
                        (System.nanoTime() - start) * 1e-9);
        });
    }
}
