package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SeriesTerms;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.heterogeneous.ClassFixedPoint;
import org.mflb.fluid.heterogeneous.ClassStability;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;
import org.mflb.fluid.heterogeneous.HeterogeneousModel;
import org.mflb.simulation.ClassEstimate;
import org.mflb.simulation.Engine;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.Simulator;
import org.mflb.validation.plot.Figure;

/**
 * Servers in classes of speeds (docs/models.md §10) against the simulated N-server system: the fluid
 * fixed point per class, the refined mean field against {@code N}, the stability boundary
 * {@code λ* = min_m C_m/A_m^d} with the growth rates of the overloaded classes beyond it, and the mean
 * response time of SQ(d), SED(d) and speed-weighted sampling against the load {@code λ/C}.
 * <p>
 * Finite-{@code N} allowance of a fluid prediction: the fluid is the limit of the expansion
 * {@code q + δ₁/N + δ₂/N² + ...} of each quantity {@code q(y)}, whose {@code 1/N} term
 * {@code δ₁ = ∇q·V} the refined mean field computes (exact derivatives: the drift is a polynomial). A
 * simulated value must lie within 3 CI half-widths plus {@code 2|δ₁|/N} of the fluid's (twice the
 * known first term, to cover the rest of the series at the sizes simulated here).
 */
public final class HeterogeneousScenarios {

    /** a = (½, ½), s = (1.5, 0.5): the reference case of docs/models.md §10 ({@code λ* = 1}). */
    static final ServerClasses TWO = ServerClasses.of(new double[] {0.5, 0.5}, new double[] {1.5, 0.5});
    /** a = (0.2, 0.8), s = (3, 0.5): {@code C = 1}, SQ(2)/SED(2) {@code λ* = 0.625}, SQ(3) 0.78125. */
    static final ServerClasses SKEWED = ServerClasses.of(new double[] {0.2, 0.8}, new double[] {3, 0.5});
    /** a = (¼, ¼, ½), s = (2, 1, 0.5): {@code C = 1}, SQ(2) {@code λ* = 8/9} set by the two slowest classes. */
    static final ServerClasses THREE = ServerClasses.of(new double[] {0.25, 0.25, 0.5}, new double[] {2, 1, 0.5});

    private static final Policy SQ2 = Policy.powerOfD(2);
    private static final Policy SED2 = new Policy.ShortestExpectedDelay(2, Sampling.REPLACEMENT);
    private static final Policy SPEED2 = new Policy.PowerOfD(2, Sampling.SPEED);

    /**
     * Relative allowance on a growth rate measured between two windows of a run from empty: the
     * system of {@code N = 500}–1000 servers grows 1–3% slower than its fluid over t ≤ 4500
     * (docs/models.md §10's table), so 5% of the largest predicted rate.
     */
    static final double GROWTH_ALLOWANCE = 0.05;

    private HeterogeneousScenarios() {
    }

    /**
     * @param full whether to run the full catalogue's sizes and cases
     * @return the scenarios, in report order
     */
    public static List<ValidationScenario> scenarios(boolean full) {
        List<ValidationScenario> list = new ArrayList<>();
        list.add(ValidationScenario.of("hetero-classes-sq2", "Servers in two speed classes, SQ(2): fluid vs simulation"
                + " per class", c -> perClass(c, "hetero-classes-sq2", SQ2, "SQ(2)")));
        list.add(ValidationScenario.of("hetero-classes-sed2", "Servers in two speed classes, SED(2): fluid vs"
                + " simulation per class", c -> perClass(c, "hetero-classes-sed2", SED2, "SED(2)")));
        list.add(ValidationScenario.of("hetero-refined-sq2-70", "Refined mean field vs N, two speed classes, SQ(2),"
                + " lambda = 0.7", c -> refinedVersusN(c, "hetero-refined-sq2-70", SQ2, 0.7,
                        c.pick(new int[] {20, 50, 100}, new int[] {20, 50, 100, 1000}))));
        if (full) {
            list.add(ValidationScenario.of("hetero-refined-sed2-90", "Refined mean field vs N, two speed classes,"
                    + " SED(2), lambda = 0.9", c -> refinedVersusN(c, "hetero-refined-sed2-90", SED2, 0.9,
                            new int[] {20, 50, 100, 1000})));
        }
        list.add(ValidationScenario.of("hetero-stability", "Stability boundary lambda* and growth beyond it: a ="
                + " (0.2, 0.8), s = (3, 0.5)", c -> stability(c, full)));
        list.add(ValidationScenario.of("hetero-response-vs-load", "Mean response time vs lambda/C: SQ(2), SED(2),"
                + " speed-weighted SQ(2)", c -> responseVersusLoad(c)));
        return list;
    }

    /** @return {@code SQ(d)} or {@code SED(d)} */
    private static String name(Policy policy) {
        return (policy instanceof Policy.ShortestExpectedDelay ? "SED(" : "SQ(") + policy.d() + ")";
    }

    /** @return single-server queues in {@code classes} under {@code policy} at load {@code λ} */
    static LoadBalancingModel model(ServerClasses classes, Policy policy, double lambda) {
        return LoadBalancingModel.of(ServerSystem.singleServerQueues(), policy, lambda).withClasses(classes);
    }

    /**
     * A quantity of the fixed point as a function of the state {@code y} (in the model's order), with
     * its value and its refined {@code 1/N} coefficient {@code ∇q·V} (a central difference along
     * {@code V}: exact for the linear quantities, and to 1e-9 for the ratios).
     */
    record Quantity(String name, double value, double firstOrder) {

        static Quantity of(String name, ToDoubleFunction<double[]> q, double[] y, double[] v) {
            double eps = 1e-6;
            double[] plus = y.clone();
            double[] minus = y.clone();
            for (int j = 0; j < y.length; j++) {
                plus[j] += eps * v[j];
                minus[j] -= eps * v[j];
            }
            return new Quantity(name, q.applyAsDouble(y), (q.applyAsDouble(plus) - q.applyAsDouble(minus)) / (2 * eps));
        }

        /**
         * @param prefix put before the quantity's name in the check's
         * @param suffix put after it
         * @return the check of a simulated estimate against the fluid value, with the allowance 2|δ₁|/N
         */
        Check against(String prefix, String suffix, Estimate e, int n) {
            return Check.of(prefix + name + suffix, value, e.mean(), e.ci95Low(), e.ci95High(), 3 * e.halfWidth(),
                    2 * Math.abs(firstOrder) / n);
        }
    }

    /** @return {@code E[Q_k] = Σ_i y_{k,i}/a_k} */
    static double classMean(HeterogeneousModel m, double[] y, int c) {
        double sum = 0;
        for (int i = m.levels(); i >= 1; i--) {
            sum += y[m.index(c, i)];
        }
        return sum / m.classes().fraction(c);
    }

    /**
     * Per-class means of one model: {@code E[Q_k]}, the arrival rate {@code λ_k = s_k u_{k,1}} per
     * class-k server, {@code E[R_k] = E[Q_k]/λ_k}, and the overall {@code E[Q]} and {@code E[R] = E[Q]/λ}.
     */
    static List<Quantity> classQuantities(ClassFixedPoint fp, double[] v) {
        HeterogeneousModel m = fp.model();
        ServerClasses classes = m.classes();
        double lambda = m.arrivalRate().at(0);
        double[] y = fp.state();
        List<Quantity> out = new ArrayList<>();
        for (int c = 0; c < classes.count(); c++) {
            int k = c;
            ToDoubleFunction<double[]> rate = z -> classes.speed(k) * z[m.index(k, 1)] / classes.fraction(k);
            out.add(Quantity.of("E[Q_" + (k + 1) + "]", z -> classMean(m, z, k), y, v));
            out.add(Quantity.of("lambda_" + (k + 1), rate, y, v));
            out.add(Quantity.of("E[R_" + (k + 1) + "]", z -> classMean(m, z, k) / rate.applyAsDouble(z), y, v));
        }
        ToDoubleFunction<double[]> total = z -> {
            double s = 0;
            for (int c = 0; c < classes.count(); c++) {
                s += classes.fraction(c) * classMean(m, z, c);
            }
            return s;
        };
        out.add(Quantity.of("E[Q]", total, y, v));
        out.add(Quantity.of("E[R]", z -> total.applyAsDouble(z) / lambda, y, v));
        return out;
    }

    /** @return the estimates of {@link #classQuantities}, in the same order */
    static List<Estimate> classEstimates(SimulationResult r) {
        List<Estimate> out = new ArrayList<>();
        for (ClassEstimate c : r.classes()) {
            out.add(c.meanQueueLength());
            out.add(c.arrivalRate());
            out.add(c.meanResponseTime());
        }
        out.add(r.meanQueueLength());
        out.add(r.meanResponseTime().orElseThrow());
        return out;
    }

    /**
     * @return the refined 1/N coefficient {@code V} at a fixed point already solved, in its order (what
     *         {@link HeterogeneousFluid#refined} gives, without solving the fixed point again)
     */
    private static double[] firstOrder(ClassFixedPoint fp) {
        return new RefinedMeanField(1).steadyState(fp.model(), fp.state()).firstOrderTerm();
    }

    /**
     * The fluid fixed point of {@link #TWO} against the simulated system per class: {@code E[Q_k]},
     * {@code λ_k}, {@code E[R_k]}, the overall tail and means. Quick: {@code λ = 0.8}, {@code N = 500},
     * the occupancy engine; full: {@code λ = 0.9}, {@code N = 1000}, both engines, a warm-up of 600
     * (the fluid from empty reaches its fixed point to 1e-3 at t ≈ 500 for SQ(2), 250 for SED(2)).
     */
    private static ScenarioOutcome perClass(ValidationContext context, String id, Policy policy, String name) {
        long start = System.nanoTime();
        double lambda = context.pick(0.8, 0.9);
        int n = context.pick(500, 1000);
        LoadBalancingModel model = model(TWO, policy, lambda);
        HeterogeneousFluid fluid = HeterogeneousFluid.of(model);
        ClassFixedPoint fp = fluid.fixedPoint();
        double[] v = firstOrder(fp);
        List<Quantity> predicted = classQuantities(fp, v);
        double[] tail = overallTail(fp);
        List<Check> checks = new ArrayList<>();
        List<Engine> engines = context.full() ? List.of(Engine.OCCUPANCY, Engine.AGENT) : List.of(Engine.OCCUPANCY);
        StringBuilder runs = new StringBuilder();
        SimulationResult shown = null;
        for (Engine engine : engines) {
            SimulationResult r = Simulator.run(SimulationOf.scenario(model, n).engine(engine)
                    .tEnd(context.pick(650.0, 3000.0)).warmup(context.pick(150.0, 600.0))
                    .replications(context.pick(4, 8)).seed(context.seed() ^ (id.hashCode() + engine.ordinal()))
                    .threads(context.threads()).build());
            String label = engine.name().toLowerCase(Locale.ROOT) + ": ";
            List<Estimate> sim = classEstimates(r);
            for (int q = 0; q < predicted.size(); q++) {
                checks.add(predicted.get(q).against(label, "", sim.get(q), n));
            }
            for (int i = 1; i < tail.length && tail[i] > Comparisons.NEGLIGIBLE && i < r.tail().size(); i++) {
                int level = i;
                Quantity x = Quantity.of("x_" + i, z -> levelSum(fp.model(), z, level), fp.state(), v);
                checks.add(x.against(label, "", r.tail().get(i), n));
            }
            runs.append(String.format(Locale.ROOT, " %s: %,d events in %.1f s;", engine, r.events(), r.wallSeconds()));
            shown = r;
        }
        Figure figure = Comparisons.steadyStateFigure(String.format(Locale.ROOT, "%s, a = (1/2, 1/2), s = (1.5, 0.5),"
                + " lambda = %s, N = %d", name, lambda, n), "fluid x_i (all servers)",
                tail, shown);
        for (int c = 0; c < TWO.count(); c++) {
            double[] u = fp.tail(c);
            int levels = 1;
            while (levels < u.length && u[levels] > 1e-9) {
                levels++;
            }
            double[] x = new double[levels];
            double[] y = new double[levels];
            for (int i = 0; i < levels; i++) {
                x[i] = i;
                y[i] = u[i];
            }
            figure.dashedLine("fluid u_" + (c + 1) + ",i (class " + (c + 1) + ", speed " + TWO.speed(c) + ")", c + 2,
                    x, y);
        }
        figure.save(context.figure(id));
        String description = String.format(Locale.ROOT, "Servers in classes a = (1/2, 1/2) of speeds s = (1.5, 0.5)"
                + " under %s (samples with replacement) at lambda = %s: the fluid fixed point (E[Q] = %.6f, per class"
                + " %.6f and %.6f; Newton, residual %.1e) against the simulated N = %d servers per class: the mean"
                + " jobs E[Q_k] of a class-k server, its arrival rate lambda_k = s_k u_{k,1} and the mean response"
                + " time E[R_k] of the jobs it receives (Little per class), and the tail x_i of all servers. Tolerance:"
                + " 3 CI half-widths + 2|delta_1|/N, with delta_1 the refined 1/N coefficient of the quantity"
                + " (V/N = %.4f on E[Q]).%s", name, lambda, fp.meanQueueLength(), fp.meanQueueLength(0),
                fp.meanQueueLength(1), fp.residual(), n, sum(v) / n, runs);
        return new ScenarioOutcome(id, "Servers in two speed classes, " + name + ", lambda = " + lambda
                + ": fluid vs simulation per class", description, checks, Optional.of(context.figure(id)),
                (System.nanoTime() - start) * 1e-9);
    }

    /** @return {@code S_i = Σ_k y_{k,i}}, the fraction of all servers with at least {@code i} jobs */
    static double levelSum(HeterogeneousModel m, double[] y, int i) {
        double s = 0;
        for (int c = 0; c < m.classes().count(); c++) {
            s += y[m.index(c, i)];
        }
        return s;
    }

    /** @return {@code (1, S_1, S_2, ...)} of the fixed point */
    static double[] overallTail(ClassFixedPoint fp) {
        HeterogeneousModel m = fp.model();
        double[] y = fp.state();
        double[] tail = new double[m.levels() + 1];
        tail[0] = 1;
        for (int i = 1; i <= m.levels(); i++) {
            tail[i] = levelSum(m, y, i);
        }
        return tail;
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    /**
     * The mean jobs per server at several {@code N}: mean field, {@code + V/N}, {@code + V/N + A/N²}
     * against simulations of {@link #TWO} (the checks of {@link RefinedVersusSimulation}), and at the
     * smallest {@code N} whether the refined value closes most of the finite-N gap: {@code |sim −
     * refined|} within {@code |V/N|/2 − h}, so that the true mean, within {@code h} of the simulated one
     * at 95% confidence, leaves less than half of the gap {@code V/N} open (docs/models.md §10: 82–98%
     * of it is closed at N = 20). At the largest {@code N} the description states whether the interval separates the
     * fluid from {@code fluid + V/N} (it needs {@code 3h < |V/N|}).
     */
    private static ScenarioOutcome refinedVersusN(ValidationContext context, String id, Policy policy, double lambda,
            int[] sizes) {
        long start = System.nanoTime();
        LoadBalancingModel model = model(TWO, policy, lambda);
        SteadyStateExpansion expansion = HeterogeneousFluid.of(model).refined(2);
        List<Check> checks = new ArrayList<>();
        MeanVersusN versusN = new MeanVersusN(expansion, sizes.length);
        long events = 0;
        double gap = 0;
        double lastHalfWidth = 0;
        for (int k = 0; k < sizes.length; k++) {
            int n = sizes[k];
            // about the same number of events per size, at least 2000 time units after a warm-up of 500
            double tEnd = 500 + Math.max(2000, context.pick(4e5, 2e6) / n);
            SimulationResult r = Simulator.run(SimulationOf.scenario(model, n).tEnd(tEnd).warmup(500)
                    .replications(context.pick(8, 12)).seed(context.seed() ^ (31L * n + id.hashCode()))
                    .threads(context.threads()).build());
            events += r.events();
            Estimate q = r.meanQueueLength();
            SeriesTerms terms = versusN.add(checks, n, q);
            if (k == 0) {
                // the statistical part is subtracted: the whole interval must lie within |V/N|/2 of the refined value
                checks.add(Check.of("E[Q], N = " + n + ": refined closes most of the gap (|sim - refined| <= |V/N|/2"
                        + " - h)", terms.upTo(1), q.mean(), q.ci95Low(), q.ci95High(), -q.halfWidth(),
                        Math.abs(terms.first()) / 2));
            }
            gap = Math.abs(terms.first());
            lastHalfWidth = q.halfWidth();
        }
        String separation = String.format(Locale.ROOT, " At N = %d the CI half-width %.5f is %s V/N = %.5f: the run"
                + " %s the mean field from the refined value there.", sizes[sizes.length - 1], lastHalfWidth,
                3 * lastHalfWidth < gap ? "below a third of" : "not below a third of", gap,
                3 * lastHalfWidth < gap ? "separates" : "does not separate");
        versusN.figure("Two speed classes, " + name(policy) + ", lambda = " + lambda, "mean jobs per server E[Q]")
                .save(context.figure(id));
        String description = String.format(Locale.ROOT, "Mean jobs per server of a = (1/2, 1/2), s = (1.5, 0.5) under"
                + " %s (samples with replacement: the finite-N chain is the density-dependent process the expansion is"
                + " exact for) at lambda = %s, N = %s: mean field, pi + V/N (V = %.6f) and pi + V/N + A/N^2 against"
                + " the simulation (%,d events, warm-up 500). Tolerances: " + RefinedComparisons.RULE + "; at the smallest N the"
                + " refined value must close most of the gap at the 95%% confidence level: |sim - refined| + h <= |V/N|/2"
                + " (a negative tolerance means the run is too short to show it).%s", name(policy), lambda,
                java.util.Arrays.toString(sizes), sum(expansion.firstOrderTerm()), events, separation) + versusN.table();
        return new ScenarioOutcome(id, "Refined mean field vs N, two speed classes, " + name(policy) + ", lambda = "
                + lambda, description, checks, Optional.of(context.figure(id)), (System.nanoTime() - start) * 1e-9);
    }

    /** One case of the stability scenario: classes, policy and load. */
    private record Case(String name, ServerClasses classes, Policy policy, double lambda) {
    }

    /**
     * Below and beyond {@code λ*}: runs from empty, the per-class time averages over two windows
     * {@code [T, 2T]} and {@code [2T, 3T]} of the same seed; their difference over {@code T} is the
     * growth rate of {@code E[Q_k](t)} (linear growth: a window's average is its midpoint's value). The
     * predicted rates ({@link ClassStability#growthRates()}): 0 below {@code λ*}; beyond it SQ(d) grows
     * the overloaded classes at {@code (λA_m^d − C_m)/A_m} each, SED(d) at {@code s_k(λA_m^d − C_m)/C_m}.
     * Tolerance: 3 times the sum of the two windows' half-widths over {@code T} (conservative whatever
     * their correlation) plus {@link #GROWTH_ALLOWANCE} of the largest predicted rate. Below {@code λ*}
     * the second window's means must also match the fixed point within the refined allowance.
     */
    private static ScenarioOutcome stability(ValidationContext context, boolean full) {
        long start = System.nanoTime();
        String id = "hetero-stability";
        List<Case> cases = new ArrayList<>(List.of(new Case("SQ(2), lambda = 0.6 < lambda* = 0.625", SKEWED, SQ2, 0.6),
                new Case("SQ(2), lambda = 0.7 > lambda* = 0.625", SKEWED, SQ2, 0.7)));
        if (full) {
            cases.add(new Case("SED(2), lambda = 0.7 > lambda* = 0.625", SKEWED, SED2, 0.7));
            cases.add(new Case("SQ(3), lambda = 0.9 > lambda* = 0.78125", SKEWED, Policy.powerOfD(3), 0.9));
            cases.add(new Case("a = (1/4, 1/4, 1/2), s = (2, 1, 0.5), SED(2), lambda = 0.95 > lambda* = 8/9", THREE,
                    SED2, 0.95));
        }
        int n = context.pick(500, 1000);
        double window = context.pick(500.0, 1500.0);
        int reps = context.pick(4, 8);
        List<Check> checks = new ArrayList<>();
        Figure figure = Figure.of("Growth of E[Q_k](t) beyond lambda*, a = (0.2, 0.8), s = (3, 0.5), N = " + n,
                "time t (window midpoints)", "E[Q_k] over the window");
        StringBuilder table = new StringBuilder("\n\n| case | lambda* | class | predicted rate | simulated rate |"
                + " CI half-width |\n|---|---:|---:|---:|---:|---:|\n");
        int group = 0;
        for (Case c : cases) {
            LoadBalancingModel model = model(c.classes(), c.policy(), c.lambda());
            HeterogeneousFluid fluid = HeterogeneousFluid.of(model);
            ClassStability stability = fluid.stability();
            double[] rates = stability.growthRates();
            double largest = 0;
            for (double g : rates) {
                largest = Math.max(largest, g);
            }
            long seed = context.seed() ^ (c.name().hashCode() * 17L);
            SimulationResult first = window(model, n, window, 2 * window, reps, seed, context);
            SimulationResult second = window(model, n, 2 * window, 3 * window, reps, seed, context);
            List<ClassEstimate> a = first.classes();
            List<ClassEstimate> b = second.classes();
            for (int k = 0; k < c.classes().count(); k++) {
                Estimate e1 = a.get(k).meanQueueLength();
                Estimate e2 = b.get(k).meanQueueLength();
                double slope = (e2.mean() - e1.mean()) / window;
                double h = (e1.halfWidth() + e2.halfWidth()) / window;
                checks.add(Check.of(c.name() + ": growth rate of E[Q_" + (k + 1) + "]", rates[k], slope, slope - h,
                        slope + h, 3 * h, GROWTH_ALLOWANCE * Math.max(largest, rates[k] == 0 ? 0.06 : 0)));
                table.append(String.format(Locale.ROOT, "| %s | %.6g | %d | %.5f | %.5f | %.5f |%n", c.name(),
                        stability.lambdaStar(), k + 1, rates[k], slope, h));
                if (c.classes() == SKEWED && c.policy() == SQ2) {
                    figure.points(String.format(Locale.ROOT, "lambda = %s, class %d (speed %s)", c.lambda(), k + 1,
                            c.classes().speed(k)), group, new double[] {1.5 * window, 2.5 * window},
                            new double[] {e1.mean(), e2.mean()}, new double[] {e1.halfWidth(), e2.halfWidth()});
                    if (rates[k] > 0) {
                        figure.line(String.format(Locale.ROOT, "predicted slope %.3g", rates[k]), group,
                                new double[] {1.5 * window, 2.5 * window},
                                new double[] {e1.mean(), e1.mean() + rates[k] * window});
                    }
                    group++;
                }
            }
            if (stability.stable()) {
                ClassFixedPoint fp = fluid.fixedPoint();
                List<Quantity> predicted = classQuantities(fp, firstOrder(fp));
                List<Estimate> sim = classEstimates(second);
                for (int q = 0; q < predicted.size(); q++) {
                    checks.add(predicted.get(q).against(c.name() + ": ", " over [" + (int) (2 * window) + ", "
                            + (int) (3 * window) + "]", sim.get(q), n));
                }
            }
        }
        figure.save(context.figure(id));
        String description = String.format(Locale.ROOT, "Speed-blind sampling loses stability region: with a = (0.2,"
                + " 0.8), s = (3, 0.5) (C = 1) SQ(2) and SED(2) are stable only below lambda* = min_m C_m/A_m^d ="
                + " 0.4/0.64 = 0.625, the slow class receiving lambda 0.8^2 > 0.4 beyond it although rho < 1. N = %d"
                + " servers from empty, %d replications; per-class time averages over [T, 2T] and [2T, 3T], T = %.0f"
                + " (same seed); their difference over T is the growth rate. Tolerance: 3 (h1 + h2)/T + %.0f%% of the"
                + " largest predicted rate (the finite system grows 1-3%% slower than its fluid, docs/models.md §10;"
                + " a zero rate below lambda* gets the allowance of the 0.06 rate beyond it). Below lambda* the second"
                + " window's per-class means also match the fixed point within 3 CI half-widths + 2|delta_1|/N.",
                n, reps, window, 100 * GROWTH_ALLOWANCE) + table;
        return new ScenarioOutcome(id, "Stability boundary lambda* and growth rates beyond it", description, checks,
                Optional.of(context.figure(id)), (System.nanoTime() - start) * 1e-9);
    }

    /** A run from empty whose time averages cover {@code [from, to]}; a grid makes any load admissible. */
    private static SimulationResult window(LoadBalancingModel model, int n, double from, double to, int reps, long seed,
            ValidationContext context) {
        return Simulator.run(SimulationOf.scenario(model, n).tEnd(to).warmup(from).dt(to).replications(reps)
                .seed(seed).threads(context.threads()).build());
    }

    /**
     * Mean response time against {@code ρ = λ/C} for a = (0.2, 0.8), s = (3, 0.5) ({@code C = 1}):
     * SQ(2) and SED(2) with uniform sampling (fluid lines up to their {@code λ* = 0.625}) and SQ(2) with
     * speed-weighted sampling (stable up to {@code C}), simulated points with CIs at {@code N = 1000}.
     */
    private static ScenarioOutcome responseVersusLoad(ValidationContext context) {
        long start = System.nanoTime();
        String id = "hetero-response-vs-load";
        int n = 1000;
        Policy[] policies = {SQ2, SED2, SPEED2};
        String[] names = {"SQ(2)", "SED(2)", "SQ(2), speed-weighted sampling"};
        double[][] simulatedLoads = context.full()
                ? new double[][] {{0.3, 0.5, 0.6}, {0.3, 0.5, 0.6}, {0.3, 0.5, 0.7, 0.8, 0.9}}
                : new double[][] {{0.5}, {0.5}, {0.5, 0.8}};
        Figure figure = Figure.of("Mean response time, a = (0.2, 0.8), s = (3, 0.5), C = 1: lines fluid, points N = "
                + n, "load lambda / C", "mean response time E[R]");
        List<Check> checks = new ArrayList<>();
        StringBuilder runs = new StringBuilder();
        for (int p = 0; p < policies.length; p++) {
            double boundary = SKEWED.stabilityBoundary(policies[p].d(), policies[p].sampling());
            int points = context.pick(6, 16);
            double[] x = new double[points];
            double[] y = new double[points];
            for (int j = 0; j < points; j++) {
                double lambda = 0.05 + (0.97 * boundary - 0.05) * j / (points - 1);
                x[j] = lambda / SKEWED.capacity();
                y[j] = HeterogeneousFluid.of(model(SKEWED, policies[p], lambda)).fixedPoint().meanResponseTime();
            }
            figure.line(names[p] + ", fluid", p, x, y);
            double[] xs = simulatedLoads[p];
            double[] ys = new double[xs.length];
            double[] hs = new double[xs.length];
            for (int j = 0; j < xs.length; j++) {
                double lambda = xs[j] * SKEWED.capacity();
                LoadBalancingModel model = model(SKEWED, policies[p], lambda);
                HeterogeneousFluid fluid = HeterogeneousFluid.of(model);
                ClassFixedPoint fp = fluid.fixedPoint();
                List<Quantity> quantities = classQuantities(fp, firstOrder(fp));
                Quantity meanR = quantities.get(quantities.size() - 1);
                SimulationResult r = Simulator.run(SimulationOf.scenario(model, n).tEnd(context.pick(600.0, 2000.0))
                        .warmup(context.pick(150.0, 500.0)).replications(context.pick(4, 8))
                        .seed(context.seed() ^ (id.hashCode() + 101L * p + j)).threads(context.threads()).build());
                Estimate e = r.meanResponseTime().orElseThrow();
                checks.add(meanR.against(names[p] + ", lambda/C = " + xs[j] + ": ", "", e, n));
                ys[j] = e.mean();
                hs[j] = e.halfWidth();
                runs.append(String.format(Locale.ROOT, " %s at %s: %,d events;", names[p], xs[j], r.events()));
            }
            figure.points(names[p] + ", simulation (95% CI)", p, xs, ys, hs);
        }
        figure.save(context.figure(id));
        String description = "Mean response time of a = (0.2, 0.8), s = (3, 0.5) (C = 1) against the load: SQ(2) and"
                + " SED(2) sampling 2 servers uniformly are unstable beyond lambda* = 0.625 although C = 1 (their fluid"
                + " lines stop there); sampling with probability proportional to speed ([GJWD]) is"
                + " stable up to C. Fluid E[R] = E[Q]/lambda (lines) against simulations of N = " + n + " servers"
                + " (points, 95% CI); tolerance 3 CI half-widths + 2|delta_1|/N (delta_1: the refined 1/N"
                + " coefficient of E[R]). Runs:" + runs;
        return new ScenarioOutcome(id, "Mean response time vs lambda/C: SQ(2), SED(2), speed-weighted SQ(2)",
                description, checks, Optional.of(context.figure(id)), (System.nanoTime() - start) * 1e-9);
    }
}
