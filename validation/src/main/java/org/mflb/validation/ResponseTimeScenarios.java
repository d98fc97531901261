package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.sojourn.SojournLaw;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidResponseTime;
import org.mflb.pde.HydrodynamicPde;
import org.mflb.pde.PdeSojournTimes;
import org.mflb.simulation.Engine;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.QuantileEstimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.ScenarioBuilder;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;
import org.mflb.validation.plot.Figure;

/**
 * Response-time laws (docs/models.md §7): the fluid limit's Erlang mixture and the hydrodynamic
 * PDE's grid convolution on the same exponential SQ(2) system (two independent computations of one
 * law: their quantiles and tail probabilities must agree to the PDE's accuracy), the PDE's law under
 * log-normal service, and the simulated system's mean response time and quantiles (conditional and
 * per-job estimators) against both. Figures: the response time's survival function on a log scale,
 * the simulated quantiles as points.
 */
public final class ResponseTimeScenarios {

    /** Percentiles compared. */
    static final Percentiles PERCENTILES = Percentiles.DEFAULT;
    /** Agreement of two computations of the same exponential law: the PDE grid's accuracy (about 1e-4) with margin. */
    static final double LAW_TOLERANCE = 1e-3;
    /** Relative agreement of the integral of the PDE's survival function (over its grid) with E[T]. */
    static final double MEAN_TOLERANCE = 2e-3;
    /**
     * Allowance for the finite-N bias of a simulated mean response time ({@code c/N}): the fluid's mean
     * queue length is off by about 2.5/N at λ = 0.9, its mean response time by that over λ.
     */
    static final double BIAS_CONSTANT = 10;

    private ResponseTimeScenarios() {
    }

    /** @return the scenarios, in report order */
    public static List<ValidationScenario> scenarios() {
        return List.of(
                ValidationScenario.of("response-sq2-exp", "Response time of SQ(2), lambda = 0.9, exponential service:"
                        + " fluid vs PDE vs simulation", ResponseTimeScenarios::exponential),
                ValidationScenario.of("response-sq2-lognormal-4", "Response time of SQ(2), lambda = 0.9, log-normal"
                        + " SCV 4 service: PDE vs simulation", c -> heavy(c, "lognormal:scv=4")),
                ValidationScenario.of("response-sq2-pareto-shape-2.5", "Response time of SQ(2), lambda = 0.9,"
                        + " Pareto 2.5 service: PDE vs simulation", c -> heavy(c, "pareto:shape=2.5")));
    }

    /** @return SQ(2) over single-server queues at load {@code λ}, sampling 2 distinct servers (the real algorithm) */
    private static LoadBalancingModel sq2(double lambda) {
        return LoadBalancingModel.of(ServerSystem.singleServerQueues(), new Policy.PowerOfD(2, Sampling.DISTINCT), lambda);
    }

    private static ScenarioOutcome exponential(ValidationContext context) {
        long start = System.nanoTime();
        double lambda = 0.9;
        int servers = context.pick(1000, 10_000);
        LoadBalancingModel model = sq2(lambda);
        FluidModel fluidModel = FluidModel.of(model, servers).limit();
        FluidResponseTime fluid = fluidModel.responseTime(fluidModel.fixedPoint());
        HydrodynamicPde pde = HydrodynamicPde.of(2, lambda, ServiceDistributions.parse("exp"));
        PdeSojournTimes law = pde.sojournTimes(pde.equilibrium(), PERCENTILES);
        List<Check> checks = new ArrayList<>();
        for (Percentiles.Quantile q : PERCENTILES.quantiles(fluid)) {
            double p = q.p() / 100;
            checks.add(exact("p" + label(q.p()) + " of T: PDE vs fluid", law.response().quantile(p), q.value(),
                    LAW_TOLERANCE * Math.max(1, q.value())));
        }
        for (double t : new double[] {1, 5, 10}) {
            checks.add(exact("P(T > " + (int) t + "): PDE vs fluid", law.response().survival(t), fluid.survival(t),
                    LAW_TOLERANCE * 0.1));
        }
        checks.add(exact("E[T]: integral of the PDE's P(T > t) vs fluid", integral(law.response()), fluid.mean(),
                MEAN_TOLERANCE * fluid.mean()));
        // the agent engine measures every job, so both estimators of the quantiles are available; 16
        // shorter replications rather than 6-8 long ones (the same work): the control variate's slope
        // and residual variance are estimated from the replications, and with 6-8 its interval ratio to
        // the per-job one falls below 3 in a fifth to a third of the runs at a given percentile
        SimulationResult sim = steadyState(SimulationOf.scenario(model, servers).engine(Engine.AGENT), context, context.pick(300.0, 500.0), context.pick(100.0, 150.0), 16);
        Check mean = simulatedMean("E[T]: fluid vs simulation", fluid.mean(), sim, servers);
        checks.add(mean);
        List<QuantileEstimate> conditional = sim.conditionalResponseTimeQuantiles().orElse(List.of());
        List<QuantileEstimate> perJob = sim.perJobResponseTimeQuantiles().orElse(List.of());
        List<QuantileEstimate> controlled = sim.controlVariateResponseTimeQuantiles().orElse(List.of());
        checks.addAll(simulatedQuantiles("fluid vs simulation (conditional)", fluid, conditional, servers));
        checks.addAll(simulatedQuantiles("fluid vs simulation (conditional, x_1 control variate)", fluid, controlled,
                servers));
        checks.addAll(simulatedQuantiles("fluid vs simulation (per job)", fluid, perJob, servers));
        Figure figure = survivalFigure("SQ(2), lambda = 0.9, exponential service: P(T > t)", fluid.quantile(0.9999),
                List.of(new Curve("fluid (Erlang mixture)", fluid), new Curve("PDE (grid convolution)",
                        law.response())));
        addQuantilePoints(figure, "simulation, conditional estimator", 2, conditional);
        addQuantilePoints(figure, "simulation, per-job estimator", 3, perJob);
        figure.save(context.figure("response-sq2-exp"));
        String description = String.format(Locale.ROOT, "The stationary response time of SQ(2) with exponential"
                + " service computed twice, independently: the fluid limit's Erlang mixture e^{-t} sum_j x_j^2 t^j/j!"
                + " and the hydrodynamic PDE's convolution of residual and full services over its age profiles"
                + " (grid step %.3g); they must agree to %.0e. The simulated mean response time (N = %d, %d"
                + " replications, %,d events) must lie within 3 CI half-widths + %.0f/N of the fluid's"
                + " E[T] = sum_j x_j^2, and the simulated quantiles (the conditional estimator: the Erlang mixture"
                + " over the queue lengths arrivals join, also with the busy fraction x_1 as control variate, whose"
                + " stationary mean lambda is exact; the per-job estimator: HdrHistogram quantiles of the jobs'"
                + " response times) within 3 CI half-widths + %.0f/N times the quantile; the integral of the PDE's"
                + " survival function must give E[T] to a relative %.0e.%s%s", law.response().step(), LAW_TOLERANCE,
                servers, sim.scenario().run().replications(), sim.events(), BIAS_CONSTANT, BIAS_CONSTANT, MEAN_TOLERANCE,
                widthRatio("conditional", conditional, perJob), widthRatio("conditional with x_1 control",
                        controlled, perJob));
        return new ScenarioOutcome("response-sq2-exp", "Response time of SQ(2), lambda = 0.9, exponential service",
                description, checks, Optional.of(context.figure("response-sq2-exp")),
                (System.nanoTime() - start) * 1e-9);
    }

    private static ScenarioOutcome heavy(ValidationContext context, String spec) {
        long start = System.nanoTime();
        String id = "response-sq2-" + spec.replace("lognormal:scv=", "lognormal-").replace(':', '-').replace('=', '-');
        double lambda = 0.9;
        ServiceDistribution service = ServiceDistributions.parse(spec);
        HydrodynamicPde pde = HydrodynamicPde.of(2, lambda, service);
        PdeSojournTimes law = pde.sojournTimes(pde.equilibrium(), PERCENTILES);
        int servers = context.pick(1000, 10_000);
        SimulationResult sim = steadyState(SimulationOf.scenario(sq2(lambda).withService(service), servers), context);
        List<Check> checks = new ArrayList<>();
        checks.add(simulatedMean("E[T]: PDE vs simulation", law.meanResponseTime(), sim, servers));
        List<QuantileEstimate> perJob = sim.perJobResponseTimeQuantiles().orElse(List.of());
        checks.addAll(simulatedQuantiles("PDE vs simulation (per job)", law.response(), perJob, servers));
        // the law's integral against the mean from the PDE's mean-wait formula (two computations of E[T])
        checks.add(exact("E[T]: integral of the PDE's P(T > t) vs its mean-wait formula", integral(law.response()),
                law.meanResponseTime(), MEAN_TOLERANCE * law.meanResponseTime()));
        SojournLaw serviceLaw = new SojournLaw() {
            @Override
            public double survival(double t) {
                return service.survival(t);
            }

            @Override
            public double mean() {
                return service.mean();
            }
        };
        Figure figure = survivalFigure("SQ(2), lambda = 0.9, " + spec + " service: P(T > t)",
                law.response().quantile(0.999), List.of(new Curve("PDE response time", law.response()),
                        new Curve("PDE waiting time", law.waiting()), new Curve("service time", serviceLaw)));
        addQuantilePoints(figure, "simulation, per-job estimator", 3, perJob);
        figure.save(context.figure(id));
        StringBuilder table = new StringBuilder();
        for (Percentiles.Quantile q : PERCENTILES.quantiles(law.response())) {
            table.append(String.format(Locale.ROOT, " p%s = %.4g;", label(q.p()), q.value()));
        }
        String description = String.format(Locale.ROOT, "The PDE's stationary response-time law of SQ(2) with %s"
                + " service (quantiles:%s E[T] = %.5g). Its mean against the simulated mean response time (N = %d,"
                + " %d replications, %,d events) within 3 CI half-widths + %.0f/N, and against the integral of the"
                + " law's survival function (relative %.0e); the simulated per-job quantiles (HdrHistogram) against"
                + " the PDE's within 3 CI half-widths + 10/N times the quantile.", spec,
                table, law.meanResponseTime(), servers, sim.scenario().run().replications(), sim.events(), BIAS_CONSTANT,
                MEAN_TOLERANCE);
        return new ScenarioOutcome(id, "Response time of SQ(2), lambda = 0.9, " + spec + " service", description,
                checks, Optional.of(context.figure(id)), (System.nanoTime() - start) * 1e-9);
    }

    /** {@code ∫_0^end P(T > t) dt} by the trapezoid rule on the law's grid (the tail beyond is below its target). */
    private static double integral(org.mflb.pde.GridLaw law) {
        double h = law.step();
        int n = (int) Math.floor(law.end() / h);
        double sum = 0.5 * (law.survival(0) + law.survival(n * h));
        for (int i = 1; i < n; i++) {
            sum += law.survival(i * h);
        }
        return sum * h;
    }

    private static SimulationResult steadyState(ScenarioBuilder builder, ValidationContext context) {
        return steadyState(builder, context, context.pick(600.0, 1000.0), context.pick(150.0, 200.0), context.pick(6, 8));
    }

    private static SimulationResult steadyState(ScenarioBuilder builder, ValidationContext context,
            double tEnd, double warmup, int replications) {
        return Simulator.run(builder.percentiles(PERCENTILES.values()).tEnd(tEnd).warmup(warmup)
                .replications(replications).seed(context.seed() ^ 15L).threads(context.threads()).build());
    }

    /**
     * The simulated quantiles against a law's: tolerance 3 CI half-widths plus {@code c/N} times the
     * quantile (the finite-N bias of the tail, relative; {@code c = }{@value #BIAS_CONSTANT}).
     */
    private static List<Check> simulatedQuantiles(String what, SojournLaw law, List<QuantileEstimate> simulated,
            int servers) {
        List<Check> out = new ArrayList<>();
        for (QuantileEstimate q : simulated) {
            double predicted = law.quantile(q.p() / 100);
            Estimate e = q.estimate();
            out.add(Check.of("p" + label(q.p()) + " of T: " + what, predicted, e.mean(), e.ci95Low(), e.ci95High(),
                    3 * e.halfWidth(), BIAS_CONSTANT / servers * predicted));
        }
        return out;
    }

    /** @return a sentence on how much narrower an estimator's intervals are than the per-job ones, or "" */
    private static String widthRatio(String name, List<QuantileEstimate> conditional, List<QuantileEstimate> perJob) {
        if (conditional.isEmpty() || perJob.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(" CI half-width, per job / " + name + ":");
        for (int i = 0; i < Math.min(conditional.size(), perJob.size()); i++) {
            double c = conditional.get(i).estimate().halfWidth();
            double j = perJob.get(i).estimate().halfWidth();
            b.append(String.format(Locale.ROOT, " p%s %.1f;", label(perJob.get(i).p()), c > 0 ? j / c : Double.NaN));
        }
        return b.toString();
    }

    /** Simulated quantiles as points {@code (q, 1 − p)} of the survival figure. */
    private static void addQuantilePoints(Figure figure, String name, int group, List<QuantileEstimate> simulated) {
        if (simulated.isEmpty()) {
            return;
        }
        double[] x = new double[simulated.size()];
        double[] y = new double[simulated.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = simulated.get(i).estimate().mean();
            y[i] = 1 - simulated.get(i).p() / 100;
        }
        figure.points(name, group, x, y, null);
    }

    private static Check simulatedMean(String quantity, double predicted, SimulationResult sim, int servers) {
        Estimate e = sim.meanResponseTime().orElseThrow();
        return Check.of(quantity, predicted, e.mean(), e.ci95Low(), e.ci95High(), 3 * e.halfWidth(),
                BIAS_CONSTANT / servers);
    }

    /** A deterministic comparison: the reference has no interval. */
    private static Check exact(String quantity, double predicted, double reference, double tolerance) {
        return Check.of(quantity, predicted, reference, reference, reference, 0, tolerance);
    }

    private record Curve(String name, SojournLaw law) {
    }

    private static Figure survivalFigure(String title, double tMax, List<Curve> curves) {
        Figure figure = Figure.of(title, "t (mean service times)", "P(T > t)").logY();
        double step = tMax > 20 ? 10 : tMax > 5 ? 2 : 1;
        tMax = step * Math.ceil(tMax / step);
        int points = 300;
        int group = 0;
        for (Curve c : curves) {
            double[] x = new double[points];
            double[] y = new double[points];
            for (int i = 0; i < points; i++) {
                x[i] = tMax * i / (points - 1);
                y[i] = c.law().survival(x[i]);
            }
            figure.line(c.name(), group++, x, y);
        }
        return figure;
    }

    private static String label(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
