package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.simulation.Sampling;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.Simulator;
import org.mflb.validation.plot.Figure;

/**
 * Finite-{@code N} corrections against the simulator: the refined mean field {@code π + V/N} and
 * its second order {@code π + V/N + A/N²} for the mean queue length at several {@code N}
 * (Gast–Van Houdt; Gast–Bortolussi–Tribastone), and the linear-noise covariance {@code W} against
 * the simulated {@code N·Cov(X^N)}. The simulated SQ(d) samples with replacement, the model the
 * expansion is computed for.
 */
public final class RefinedVersusSimulation {

    private RefinedVersusSimulation() {
    }

    /**
     * Mean queue length at each {@code N}: mean field, order 1 and order 2 against the simulation.
     * With the series {@code π + t₁ + t₂ + ...} ({@code t₁ = V/N}, {@code t₂ = A/N²}), each order
     * must lie within 3 CI half-widths plus 1.5 times its first neglected term: {@code |t₂|} for
     * order 1, and the geometric estimate {@code t₂²/|t₁|} for order 2.
     */
    public static ValidationScenario meanVersusN(String id, String title, FluidModel fluid, int[] sizes) {
        return ValidationScenario.of(id, title, context -> {
                long start = System.nanoTime();
                FluidFixedPoint fp = fluid.fixedPoint();
                SteadyStateExpansion expansion = new RefinedMeanField(2).steadyState(fp.smoothDrift().orElseThrow(), fp.levels());
                double c2 = expansion.meanTotal(1, 2) - expansion.meanTotal(1, 1);
                List<Check> checks = new ArrayList<>();
                double[] ns = new double[sizes.length];
                double[][] lines = new double[3][sizes.length];
                double[] sim = new double[sizes.length];
                double[] half = new double[sizes.length];
                long events = 0;
                StringBuilder errors = new StringBuilder(
                        "\n\n| N | simulated E[Q] | CI half-width | error mean field | error 1/N | error 1/N^2 |\n"
                                + "|---:|---:|---:|---:|---:|---:|\n");
                for (int k = 0; k < sizes.length; k++) {
                    int n = sizes[k];
                    SimulationResult r = Simulator.run(SimulationOf.scenario(fluid, n).sampling(Sampling.REPLACEMENT)
                            .tEnd(context.pick(20_000.0, 100_000.0) * Math.max(1, 100.0 / n) / 10)
                            .replications(context.pick(8, 16)).seed(context.seed() ^ (31L * n + id.hashCode()))
                            .threads(context.threads()).build());
                    events += r.events();
                    Estimate q = r.meanQueueLength();
                    ns[k] = n;
                    sim[k] = q.mean();
                    half[k] = q.halfWidth();
                    for (int order = 0; order <= 2; order++) {
                        lines[order][k] = expansion.meanTotal(n, order);
                    }
                    errors.append(String.format(Locale.ROOT, "| %d | %.5f | %.5f | %.5f | %.5f | %.5f |%n", n, q.mean(),
                            q.halfWidth(), Math.abs(lines[0][k] - q.mean()), Math.abs(lines[1][k] - q.mean()),
                            Math.abs(lines[2][k] - q.mean())));
                    // The series π + t1 + t2 + ...: the first neglected term is estimated geometrically by t2²/|t1|.
                    double t1 = lines[1][k] - lines[0][k];
                    double t2 = lines[2][k] - lines[1][k];
                    double nextTerm = t1 != 0 ? t2 * t2 / Math.abs(t1) : 0;
                    checks.add(new Check("E[Q], refined order 2, N = " + n, lines[2][k], q.mean(), q.ci95Low(),
                            q.ci95High(), 3 * q.halfWidth() + 1.5 * nextTerm));
                    checks.add(new Check("E[Q], refined order 1, N = " + n, lines[1][k], q.mean(), q.ci95Low(),
                            q.ci95High(), 3 * q.halfWidth() + 1.5 * Math.abs(t2)));
                }
                Figure figure = Figure.of(title, "N (servers)", "mean queue length E[Q]")
                        .line("mean field", 0, ns, lines[0]).line("refined, 1/N", 1, ns, lines[1])
                        .line("refined, 1/N^2", 2, ns, lines[2]).points("simulation (95% CI)", 3, ns, sim, half);
                figure.save(context.figure(id));
                String description = String.format(Locale.ROOT,
                        "Mean queue length of %s at lambda = %s for N = %s: mean field pi, refined pi + V/N and "
                                + "pi + V/N + A/N^2 (A: 1/N^2 coefficient %.4f) against simulations that sample "
                                + "with replacement (the model the expansion is for); %,d simulated events. "
                                + "Tolerances: 3 CI half-widths + 1.5 times the first neglected term of the series "
                                + "pi + t1 + t2 + ... (t1 = V/N, t2 = A/N^2): |t2| for order 1, t2^2/|t1| for order 2.",
                        fluid, fluid.arrivalRate().at(0), java.util.Arrays.toString(sizes), c2, events) + errors;
                return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                        (System.nanoTime() - start) * 1e-9);
        });
    }

    /**
     * The linear-noise covariance {@code W} (Lyapunov equation {@code AW + WAᵀ + Q = 0}) against the
     * simulated {@code N·Cov(X^N)} for the first levels; tolerance {@code 3} CI half-widths plus
     * {@code 10/N} of the covariance's scale (its {@code O(1/N)} correction).
     */
    public static ValidationScenario covariance(String id, String title, FluidModel fluid, int n, int levels) {
        return ValidationScenario.of(id, title, context -> {
                long start = System.nanoTime();
                FluidFixedPoint fp = fluid.fixedPoint();
                SteadyStateExpansion expansion = new RefinedMeanField(1).steadyState(fp.smoothDrift().orElseThrow(), fp.levels());
                DMatrixRMaj w = expansion.covarianceTerm();
                SimulationResult r = Simulator.run(SimulationOf.scenario(fluid, n).sampling(SimulationOf.sampling(fluid))
                        .tEnd(context.pick(4000.0, 20000.0)).replications(context.pick(8, 16))
                        .covarianceLevels(levels).seed(context.seed() ^ id.hashCode()).threads(context.threads())
                        .build());
                MatrixEstimate cov = r.covariance().orElseThrow();
                List<Check> checks = new ArrayList<>();
                double scale = 0;
                for (int i = 0; i < levels; i++) {
                    scale = Math.max(scale, Math.abs(w.get(i, i)));
                }
                double[] diagonalLevels = new double[levels];
                double[] predicted = new double[levels];
                double[] simulated = new double[levels];
                double[] half = new double[levels];
                for (int i = 0; i < levels; i++) {
                    for (int j = i; j < levels; j++) {
                        Estimate e = cov.get(i, j);
                        checks.add(new Check("N Cov(x_" + (i + 1) + ", x_" + (j + 1) + ")", w.get(i, j), e.mean(),
                                e.ci95Low(), e.ci95High(), 3 * e.halfWidth() + 10.0 * scale / n));
                    }
                    diagonalLevels[i] = i + 1;
                    predicted[i] = w.get(i, i);
                    simulated[i] = cov.get(i, i).mean();
                    half[i] = cov.get(i, i).halfWidth();
                }
                Figure.of(title + " (N = " + n + ")", "level i", "N Var(x_i)")
                        .line("linear noise W_ii", 0, diagonalLevels, predicted)
                        .points("simulation (95% CI)", 1, diagonalLevels, simulated, half).save(context.figure(id));
                String description = String.format(Locale.ROOT,
                        "Stationary fluctuations of %s at lambda = %s: the Ornstein-Uhlenbeck (linear-noise) "
                                + "covariance W from the Lyapunov equation A W + W A^T + Q = 0 (Bartels-Stewart) "
                                + "against the simulated N Cov(x_i, x_j) at N = %d (time-averaged, %,d events). "
                                + "Tolerance: 3 CI half-widths + 10 max|W_ii|/N (the O(1/N) correction).",
                        fluid, fluid.arrivalRate().at(0), n, r.events());
                return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                        (System.nanoTime() - start) * 1e-9);
        });
    }
}
