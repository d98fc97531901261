package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;
import org.mflb.core.ode.TransientSolver;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SeriesTerms;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.refined.TransientExpansion;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.simulation.population.PopulationSimulation;
import org.mflb.simulation.population.PopulationSimulation.Settings;
import org.mflb.validation.plot.Figure;

/**
 * Model files against the simulation of their N-object chains ({@link PopulationSimulation}): the
 * stationary mean of every coordinate by the mean field, the refined mean field {@code π + V/N}
 * and its second order {@code π + V/N + A/N²} at several {@code N}; the linear-noise covariance
 * {@code W} against the simulated {@code N·Cov}; and the transient {@code x(t) + V(t)/N}.
 */
public final class ModelFileScenarios {

    /** How long to simulate: horizon, warmup and replications. */
    public record Effort(double tEnd, double warmup, int replications) { }

    private ModelFileScenarios() {
    }

    /**
     * The catalogue's model-file scenarios: the shipped SIR and bike-sharing files, refined mean
     * field against the N-object chain at several N, and the SIR covariance.
     *
     * @return the scenarios, in report order
     */
    public static List<ValidationScenario> catalogue() {
        ModelFile sir = org.mflb.core.modelfile.ShippedModels.load("sir", java.util.Map.of());
        ModelFile bikes = org.mflb.core.modelfile.ShippedModels.load("bike-sharing", java.util.Map.of());
        return List.of(
                refinedVersusN("modelfile-sir-refined", "Model file sir: refined mean field vs N-object simulation",
                        sir, new int[] {10, 50, 100}, c -> c.pick(new Effort(4000, 50, 8), new Effort(20000, 100, 16))),
                refinedVersusN("modelfile-bike-refined",
                        "Model file bike-sharing: refined mean field vs N-object simulation", bikes, new int[] {10, 20, 50},
                        c -> c.pick(new Effort(1000, 50, 8), new Effort(8000, 100, 16))),
                covariance("modelfile-sir-diffusion", "Model file sir: linear-noise covariance", sir, 50, 3,
                        c -> c.pick(new Effort(4000, 100, 8), new Effort(20000, 100, 16))));
    }

    private static double[] fixedPoint(ModelFile file) {
        return file.fixedPoint().state();
    }

    /**
     * Every coordinate that the prediction or the simulation puts at {@link Comparisons#NEGLIGIBLE}
     * or above, at each {@code N}: refined orders 1 and 2 against the simulated time average, with the
     * rule of {@link RefinedComparisons#seriesChecks} (not applicable where the terms do not
     * decrease), the rule of {@link RefinedVersusSimulation#meanVersusN}. The figure shows the
     * coordinate with the largest {@code |V|}.
     *
     * @param effort for a context: run lengths and replications
     */
    public static ValidationScenario refinedVersusN(String id, String title, ModelFile file, int[] sizes,
            java.util.function.Function<ValidationContext, Effort> effort) {
        return ValidationScenario.of(id, title, context -> {
            long start = System.nanoTime();
            double[] pi = fixedPoint(file);
            SteadyStateExpansion e = new RefinedMeanField(2).steadyState(file.model(), pi);
            double[] v = e.firstOrderTerm();
            int shown = 0;
            for (int i = 0; i < v.length; i++) {
                if (Math.abs(v[i]) > Math.abs(v[shown])) {
                    shown = i;
                }
            }
            Effort run = effort.apply(context);
            List<Check> checks = new ArrayList<>();
            double[] ns = new double[sizes.length];
            double[][] lines = new double[3][sizes.length];
            double[] sim = new double[sizes.length];
            double[] half = new double[sizes.length];
            long events = 0;
            StringBuilder table = new StringBuilder("\n\n| N | coordinate | simulated | CI half-width | error mean field"
                    + " | error 1/N | error 1/N^2 |\n|---:|---|---:|---:|---:|---:|---:|\n");
            for (int k = 0; k < sizes.length; k++) {
                int n = sizes[k];
                PopulationSimulation.Result r = PopulationSimulation.run(file, new Settings(n, run.tEnd(), run.warmup(),
                        Double.NaN, run.replications(), 20, context.seed() ^ (31L * n + id.hashCode()),
                        context.threads()));
                events += r.events();
                for (int i = 0; i < pi.length; i++) {
                    Estimate q = r.timeAverage().get(i);
                    SeriesTerms terms = SeriesTerms.of(e, n, i);
                    if (Math.max(Math.max(Math.abs(terms.upTo(1)), Math.abs(terms.upTo(2))), Math.abs(q.mean()))
                            < Comparisons.NEGLIGIBLE) {
                        continue; // predicted and simulated below the noise: not checked, as for the built-in models
                    }
                    String name = file.names().get(i);
                    RefinedComparisons.seriesChecks(checks, name, terms, q);
                    table.append(String.format(Locale.ROOT, "| %d | %s | %.5f | %.5f | %.5f | %.5f | %.5f |%n", n, name,
                            q.mean(), q.halfWidth(), Math.abs(pi[i] - q.mean()), Math.abs(terms.upTo(1) - q.mean()),
                            Math.abs(terms.upTo(2) - q.mean())));
                }
                ns[k] = n;
                sim[k] = r.timeAverage().mean()[shown];
                half[k] = r.timeAverage().get(shown).halfWidth();
                lines[0][k] = pi[shown];
                lines[1][k] = pi[shown] + v[shown] / n;
                lines[2][k] = e.mean(n, 2)[shown];
            }
            String coordinate = file.names().get(shown);
            RefinedComparisons.versusN(title, "N (objects)", "stationary mean of " + coordinate, ns, lines, sim, half,
                    "N-object simulation (95% CI)").save(context.figure(id));
            String description = String.format(Locale.ROOT,
                    "Model file %s (%s): stationary means of its %d coordinates at N = %s, mean field, refined"
                            + " pi + V/N and pi + V/N + A/N^2 against the exact simulation of the N-object chain"
                            + " (%d replications of %.0f time units after %.0f of warm-up; %,d events). Tolerances: "
                            + RefinedComparisons.RULE + ". Coordinates whose predicted and simulated values are both"
                            + " below 1e-4 are not checked.",
                    file.name(), file.file(), pi.length, java.util.Arrays.toString(sizes), run.replications(),
                    run.tEnd() - run.warmup(), run.warmup(), events) + table;
            return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                    (System.nanoTime() - start) * 1e-9);
        });
    }

    /**
     * The linear-noise covariance {@code W} against the simulated {@code N·Cov(x_i, x_j)} of the
     * first {@code levels} coordinates; tolerance 3 CI half-widths plus {@code 10 max|W_ii|/N}.
     */
    public static ValidationScenario covariance(String id, String title, ModelFile file, int n, int levels,
            java.util.function.Function<ValidationContext, Effort> effort) {
        return ValidationScenario.of(id, title, context -> {
            long start = System.nanoTime();
            double[] pi = fixedPoint(file);
            DMatrixRMaj w = new RefinedMeanField(1).steadyState(file.model(), pi).covarianceTerm();
            Effort run = effort.apply(context);
            int shown = Math.min(levels, pi.length);
            MatrixEstimate cov = PopulationSimulation.covariance(file, new Settings(n, run.tEnd(), run.warmup(),
                    Double.NaN, Math.max(2, run.replications()), 20, context.seed() ^ id.hashCode(), context.threads()),
                    0.5);
            RefinedComparisons.Covariance c = RefinedComparisons.Covariance.of(w, cov, shown, n, file.names()::get);
            c.figure(title + " (N = " + n + ")", "coordinate", "N-object simulation (95% CI)").save(context.figure(id));
            String description = String.format(Locale.ROOT,
                    "Model file %s (%s): the linear-noise covariance W (Lyapunov equation on the jumps' subspace)"
                            + " against N Cov(x_i, x_j) of the N-object chain at N = %d, read every 0.5 time units"
                            + " over %d replications. Tolerance: 3 CI half-widths + 10 max|W_ii|/N.",
                    file.name(), file.file(), n, Math.max(2, run.replications()));
            return new ScenarioOutcome(id, title, description, c.checks(), Optional.of(context.figure(id)),
                    (System.nanoTime() - start) * 1e-9);
        });
    }

    /**
     * The transient from the file's init state: the refined {@code x(t) + V(t)/N} against the
     * simulated mean of the N-object chain at each grid time, within 3 CI half-widths plus
     * {@code 1.5 |A(t)|/N²}, where the terms decrease ({@link SeriesTerms}; not applicable elsewhere).
     */
    public static ValidationScenario transientRun(String id, String title, ModelFile file, int n, TimeGrid grid,
            int replications) {
        return ValidationScenario.of(id, title, context -> {
            long start = System.nanoTime();
            double[] x0 = file.initialState();
            double[] times = grid.toArray();
            TransientExpansion e = new RefinedMeanField(2).transientRegime(file.model(), x0, grid.start(), times);
            PopulationSimulation.Result r = PopulationSimulation.run(file, new Settings(n, grid.end(), 0,
                    times.length > 1 ? times[1] - times[0] : grid.end(), Math.max(2, replications), 20,
                    context.seed() ^ id.hashCode(), context.threads()));
            List<Check> checks = new ArrayList<>();
            // A mean of R readings of counts/N moves in steps of 1/(RN); a state none of them has reached
            // (a zero-width interval at 0) is consistent with a mean below 3/(RN) (the rule of three).
            double resolution = 3.0 / ((double) Math.max(2, replications) * n);
            for (int s = 0; s < Math.min(times.length, r.times().length); s++) {
                double[] refined = e.mean(s, n, 1);
                double[] v = e.firstOrderTerm(s);
                double[] a = e.secondOrderTerm(s);
                for (int i = 0; i < x0.length; i++) {
                    Estimate q = r.trajectory()[s].get(i);
                    if (!(q.ci95High() >= q.ci95Low())
                            || Math.max(Math.abs(refined[i]), Math.abs(q.mean())) < Comparisons.NEGLIGIBLE) {
                        continue; // no interval, or values below the noise (not checked)
                    }
                    SeriesTerms terms = SeriesTerms.of(n, refined[i] - v[i] / n, v[i], a[i]);
                    Check check = Check.of(file.names().get(i) + "(t = " + Comparisons.time(times[s]) + "), refined 1/N",
                            refined[i], q.mean(), q.ci95Low(), q.ci95High(), 3 * q.halfWidth() + resolution,
                            1.5 * terms.neglected(1));
                    checks.add(check.unless(terms.notUsable()));
                }
            }
            Trajectory fluid = new TransientSolver().solve(file.model(), x0, grid);
            double[] lineTimes = Comparisons.fineTimes(grid.end(), 200);
            Figure figure = Figure.of(title + " (N = " + n + ")", "t", "x_i(t)");
            double[] simTimes = r.times();
            for (int i = 0; i < Math.min(x0.length, 6); i++) {
                double[] line = new double[lineTimes.length];
                for (int s = 0; s < lineTimes.length; s++) {
                    line[s] = fluid.stateAt(lineTimes[s])[i];
                }
                double[] mean = new double[simTimes.length];
                double[] half = new double[simTimes.length];
                for (int s = 0; s < simTimes.length; s++) {
                    mean[s] = r.trajectory()[s].mean()[i];
                    half[s] = r.trajectory()[s].get(i).halfWidth();
                }
                figure.line(file.names().get(i) + " mean field", i, lineTimes, line)
                        .points(file.names().get(i) + " simulation", i, simTimes, mean, half);
            }
            figure.save(context.figure(id));
            String description = String.format(Locale.ROOT,
                    "Model file %s (%s) from its init state: refined x(t) + V(t)/N against the mean of %d simulated"
                            + " N-object chains at N = %d (%,d events). Tolerance: 3 CI half-widths + 3/(RN) (the"
                            + " resolution of R readings; statistical part) + 1.5 |A(t)|/N^2 (model-error part), where"
                            + " the terms decrease (|A(t)|/N^2 < |V(t)|/N; elsewhere not applicable at this N).",
                    file.name(), file.file(), Math.max(2, replications), n, r.events());
            return new ScenarioOutcome(id, title, description, checks, Optional.of(context.figure(id)),
                    (System.nanoTime() - start) * 1e-9);
        });
    }
}
