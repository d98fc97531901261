package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.NonSmoothBenchmark;
import org.mflb.fluid.PowerOfD;
import org.mflb.core.system.ServerClasses;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.Truncation;
import org.mflb.fluid.diffusion.HalfinWhittJsq;
import org.mflb.fluid.diffusion.HalfinWhittLimit;
import org.mflb.fluid.heterogeneous.ClassRule;
import org.mflb.fluid.heterogeneous.HeterogeneousFluid;
import org.mflb.pde.HydrodynamicPde;
import org.mflb.pde.PdeInitialState;
import org.mflb.pde.workload.WorkloadBenchmark;
import org.mflb.simulation.SimulationBenchmark;
import org.mflb.validation.Stopwatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb bench}: speed figures of every solver, measured after warm-up (median of repetitions). */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Benchmarks, measured after JIT warm-up (median of repetitions): fluid fixed points and"
                + " transients, refined mean field (orders 1 and 2), simulator events per second (one thread;"
                + " median and best run; three server classes next to one speed on both engines and the LL(2) workload"
                + " engine's jobs per second at N = 10^6, at most 5 interleaved repetitions; against N for both"
                + " engines), the hydrodynamic PDE and the LL(2) workload equilibrium with quantiles, model files, the Halfin-Whitt JSQ diffusion (limit to 1e-6, exact N-server"
                + " chains), and long non-smooth fluid transients (time units and switches per second).",
            "Run it on an otherwise idle machine: the figures are wall-clock times."})
public final class BenchCommand implements Callable<Integer> {

    /** The groups of benchmarks. */
    public enum Suite { fluid, refined, simulation, engines, pde, modelfile, diffusion, nonsmooth }

    @Option(names = "--suite", split = ",", paramLabel = "fluid,refined,simulation,engines,pde,modelfile,diffusion,nonsmooth",
            description = "Which benchmarks (default: all). engines: simulator events/s against N = 10^3 ... 10^7 for"
                    + " the agent and the occupancy engine (SQ(2), lambda 0.9, one thread; a few minutes). nonsmooth:"
                    + " time units and switches per CPU second of the long non-smooth transients of issue 28 (threshold"
                    + " and self-learning threshold under a periodic load, SQ(2) with memory; at most 3 repetitions).")
    Set<Suite> suites;

    @Option(names = "--repetitions", defaultValue = "11", paramLabel = "R",
            description = "Measured runs per case (default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--warmup", defaultValue = "1.0", paramLabel = "SECONDS",
            description = "Warm-up time per case (default: ${DEFAULT-VALUE} s).")
    double warmup;

    @Option(names = "--format", paramLabel = "json|csv|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    /** One measured figure. */
    record Figure(String suite, String name, double value, String unit) {
    }

    record Case(String name, Runnable task) {
    }

    static List<Case> fluidCases() {
        List<Case> cases = new ArrayList<>();
        FluidModel sq2 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9);
        cases.add(new Case("fixed point, SQ(2) queues, lambda 0.9 (auto K)", sq2::fixedPoint));
        FluidModel random99 = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(1), 0.99);
        cases.add(new Case("fixed point, random queues, lambda 0.99 (auto K ~ 3200)", random99::fixedPoint));
        FluidModel sq2k100 = sq2.withTruncation(Truncation.fixed(100));
        TimeGrid grid = TimeGrid.uniform(50, 0.5);
        cases.add(new Case("transient, SQ(2) queues, K = 100, t in [0, 50], 101 outputs",
                () -> sq2k100.transientFrom(InitialState.empty(), grid)));
        FluidModel pools = FluidModel.of(ServerSystem.infiniteServerPools(), PowerOfD.withReplacement(2), 50)
                .withTruncation(Truncation.fixed(100));
        cases.add(new Case("transient, SQ(2) pools, lambda 50, K = 100, t in [0, 50]",
                () -> pools.transientFrom(InitialState.empty(), grid)));
        ServerClasses three = ServerClasses.of(new double[] {0.25, 0.25, 0.5}, new double[] {2, 1, 0.5});
        HeterogeneousFluid threeClasses = new HeterogeneousFluid(three, ClassRule.SHORTEST_QUEUE, 2, false, 0.85);
        cases.add(new Case("fixed point, SQ(2), 3 classes of speeds 2, 1, 0.5, lambda 0.85 (auto L)",
                threeClasses::fixedPoint));
        return cases;
    }

    static List<Case> refinedCases() {
        List<Case> cases = new ArrayList<>();
        for (int[] config : new int[][] {{1, 20}, {1, 60}, {2, 20}}) {
            int order = config[0];
            int levels = config[1];
            FluidFixedPoint fp = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), 0.9)
                    .withTruncation(Truncation.fixed(levels)).fixedPoint();
            RefinedMeanField rmf = new RefinedMeanField(order);
            cases.add(new Case("refined mean field order " + order + ", SQ(2), lambda 0.9, K = " + levels,
                    () -> rmf.steadyState(fp.smoothDrift().orElseThrow(), fp.levels())));
        }
        return cases;
    }

    static List<Case> pdeCases() {
        HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, ServiceDistributions.parse("lognormal:scv=4"));
        TimeGrid grid = TimeGrid.uniform(50, 1);
        return List.of(new Case("PDE transient, SQ(2), lambda 0.9, lognormal SCV 4, t in [0, 50] (defaults)",
                () -> pde.transientFrom(PdeInitialState.empty(), grid)),
                new Case("PDE equilibrium, SQ(2), lambda 0.9, lognormal SCV 4", pde::equilibrium),
                new Case("PDE equilibrium with response/waiting quantiles 50-99.9, SQ(2), lambda 0.9, lognormal SCV 4",
                        () -> pde.sojournTimes(pde.equilibrium()).responseQuantiles(Percentiles.DEFAULT)),
                new Case(WorkloadBenchmark.EQUILIBRIUM_CASE, WorkloadBenchmark::equilibrium));
    }

    static List<Case> diffusionCases() {
        HalfinWhittJsq beta1 = new HalfinWhittJsq(1);
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("Halfin-Whitt JSQ limit, beta 1, moments to 1e-6 (lattices + Richardson)",
                () -> HalfinWhittLimit.stationary(beta1, 1e-6, new double[0], null)));
        cases.add(new Case("Halfin-Whitt JSQ exact chain, beta 1, N = 1e5",
                () -> beta1.prelimit(100_000).stationary(new double[0])));
        cases.add(new Case("Halfin-Whitt JSQ exact chain, beta 1, N = 4e5",
                () -> beta1.prelimit(400_000).stationary(new double[0])));
        return cases;
    }

    /**
     * Model files: the shipped RANDOM cache file (n = 10 items, 20 coordinates, 90 transitions) read,
     * solved for its fixed point and expanded to order 1 and 2 (rmf_tool needs about 1.9 s for order
     * 1 on this model).
     */
    static List<Case> modelFileCases() {
        String source = org.mflb.core.modelfile.ShippedModels.list().stream().filter(e -> e.name().equals("cache"))
                .findFirst().orElseThrow().source();
        List<Case> cases = new ArrayList<>();
        for (int order = 1; order <= 2; order++) {
            RefinedMeanField rmf = new RefinedMeanField(order);
            cases.add(new Case("model file cache (20 variables, 90 transitions): parse + fixed point + refined order "
                    + order, () -> {
                        org.mflb.core.modelfile.ModelFile file = org.mflb.core.modelfile.ModelFile.parse("cache.model",
                                source, java.util.Map.of());
                        double[] pi = new org.mflb.core.fixedpoint.FixedPointSolver()
                                .solveConserving(file.model(), file.initialState()).state();
                        rmf.steadyState(file.model(), pi);
                    }));
        }
        return cases;
    }

    /** Events per second of the N-object simulator (one thread, N = 1000) on the SIR and cache files. */
    private void modelFileSimulation(List<Figure> figures) {
        for (String name : new String[] {"sir", "cache"}) {
            org.mflb.core.modelfile.ModelFile file = org.mflb.core.modelfile.ShippedModels.load(name, java.util.Map.of());
            // About two million events per run: the SIR chain fires ~2.1 N per time unit, the cache ~0.6 N.
            double horizon = name.equals("sir") ? 1000 : 3500;
            org.mflb.simulation.population.PopulationSimulation.Settings settings =
                    new org.mflb.simulation.population.PopulationSimulation.Settings(1000, horizon, 0, Double.NaN, 1, 20,
                            1, 1);
            org.mflb.simulation.population.PopulationSimulation.run(file, settings); // warm-up
            int runs = Math.max(1, Math.min(repetitions, 5));
            double[] rates = new double[runs];
            for (int r = 0; r < runs; r++) {
                rates[r] = org.mflb.simulation.population.PopulationSimulation.run(file, settings).eventsPerSecond();
            }
            java.util.Arrays.sort(rates);
            figures.add(new Figure("modelfile", "N-object simulator, " + name + " file (" + file.transitionCount()
                    + " transitions), N = 1000 (median)", rates[runs / 2] / 1e6, "M events/s"));
        }
    }

    @Override
    public Integer call() {
        org.mflb.core.Require.between("repetitions", repetitions, 1, 1_000_000);
        if (!(warmup >= 0 && warmup <= 3600)) {
            throw org.mflb.core.MflbException.invalid("warmup", warmup, "seconds in [0, 3600]");
        }
        Set<Suite> chosen = suites == null || suites.isEmpty() ? EnumSet.allOf(Suite.class) : EnumSet.copyOf(suites);
        List<Figure> figures = new ArrayList<>();
        timeCases(chosen, Suite.fluid, fluidCases(), figures);
        timeCases(chosen, Suite.refined, refinedCases(), figures);
        if (chosen.contains(Suite.simulation)) {
            for (SimulationBenchmark.Measurement m : SimulationBenchmark.measureReference(repetitions)) {
                String name = "simulator, " + m.name();
                figures.add(new Figure("simulation", name + " (wall, median)", m.medianEventsPerSecond() / 1e6, "M events/s"));
                figures.add(new Figure("simulation", name + " (wall, best run)", m.bestEventsPerSecond() / 1e6, "M events/s"));
                figures.add(new Figure("simulation", name + " (CPU of the thread, median)",
                        m.medianEventsPerCpuSecond() / 1e6, "M events/s"));
            }
        }
        if (chosen.contains(Suite.simulation)) {
            // issue 25: three server classes next to one speed, both engines, each case in class loaders of its own
            SimulationBenchmark.ClassMeasurement[] classes = SimulationBenchmark.measureClasses(Math.min(repetitions, 5));
            for (SimulationBenchmark.ClassMeasurement c : classes) {
                figures.add(new Figure("simulation", "simulator, " + c.measurement().name() + " (CPU of the thread, median)",
                        c.measurement().medianEventsPerCpuSecond() / 1e6, "M events/s"));
                figures.add(new Figure("simulation", "simulator, " + c.measurement().name()
                        + " (CPU of the thread, fastest loader)", c.bestLoaderEventsPerCpuSecond() / 1e6, "M events/s"));
            }
            for (int engine = 0; engine + 2 < classes.length; engine += 3) {
                SimulationBenchmark.ClassMeasurement one = classes[engine];
                for (int k = 1; k <= 2; k++) {
                    SimulationBenchmark.ClassMeasurement c = classes[engine + k];
                    String name = "simulator, " + (k == 1 ? "SQ(2)" : "SED(2)") + " 3 classes / SQ(2) one speed, "
                            + engineName(one.measurement());
                    figures.add(new Figure("simulation", name + " (CPU medians; target >= 80%)",
                            100 * c.measurement().medianEventsPerCpuSecond() / one.measurement().medianEventsPerCpuSecond(), "%"));
                    figures.add(new Figure("simulation", name + " (fastest loaders; target >= 80%)",
                            100 * c.bestLoaderEventsPerCpuSecond() / one.bestLoaderEventsPerCpuSecond(), "%"));
                }
            }
            // issue 26: the workload engine of LL(d), whose events are its jobs
            for (SimulationBenchmark.Measurement m : SimulationBenchmark.measureLeastLoaded(Math.min(repetitions, 5))) {
                figures.add(new Figure("simulation", "simulator, " + m.name() + " (wall, median)",
                        m.medianEventsPerSecond() / 1e6, "M jobs/s"));
                figures.add(new Figure("simulation", "simulator, " + m.name() + " (CPU of the thread, median)",
                        m.medianEventsPerCpuSecond() / 1e6, "M jobs/s"));
            }
        }
        if (chosen.contains(Suite.engines)) {
            for (SimulationBenchmark.Measurement m : SimulationBenchmark.measureScaling(Math.min(repetitions, 5))) {
                figures.add(new Figure("engines", m.name() + " (wall, median)", m.medianEventsPerSecond() / 1e6,
                        "M events/s"));
                figures.add(new Figure("engines", m.name() + " (CPU of the thread, median)",
                        m.medianEventsPerCpuSecond() / 1e6, "M events/s"));
            }
        }
        timeCases(chosen, Suite.pde, chosen.contains(Suite.pde) ? pdeCases() : List.of(), figures);
        timeCases(chosen, Suite.modelfile, modelFileCases(), figures);
        if (chosen.contains(Suite.modelfile)) {
            modelFileSimulation(figures);
        }
        timeCases(chosen, Suite.diffusion, chosen.contains(Suite.diffusion) ? diffusionCases() : List.of(), figures);
        if (chosen.contains(Suite.nonsmooth)) {
            for (NonSmoothBenchmark.Measurement m : NonSmoothBenchmark.measure(Math.min(repetitions, 3))) {
                figures.add(new Figure("nonsmooth", m.name() + " (CPU of the thread, median)", m.medianCpuSeconds(), "s"));
                figures.add(new Figure("nonsmooth", m.name() + " (wall, median)", m.medianWallSeconds(), "s"));
                figures.add(new Figure("nonsmooth", m.name() + ": time units per CPU second", m.timeUnitsPerCpuSecond(),
                        "time units/s"));
                figures.add(new Figure("nonsmooth", m.name() + ": switches per CPU second (" + m.switches() + " switches)",
                        m.switchesPerCpuSecond(), "switches/s"));
            }
        }
        print(figures);
        return 0;
    }

    /** @return the engine named at the end of a server-class measurement's name ({@code agent engine}) */
    private static String engineName(SimulationBenchmark.Measurement m) {
        return m.name().substring(m.name().lastIndexOf(", ") + 2);
    }

    private void timeCases(Set<Suite> chosen, Suite suite, List<Case> cases, List<Figure> figures) {
        if (!chosen.contains(suite)) {
            return;
        }
        for (Case c : cases) {
            Stopwatch.Timing t = Stopwatch.time(c.task(), warmup, repetitions);
            figures.add(new Figure(suite.name(), c.name(), t.medianSeconds() * 1e3, "ms"));
        }
    }

    private void print(List<Figure> figures) {
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                ArrayNode rows = json.putArray("benchmarks");
                for (Figure f : figures) {
                    ObjectNode row = rows.addObject();
                    row.put("suite", f.suite());
                    row.put("name", f.name());
                    row.put("value", f.value());
                    row.put("unit", f.unit());
                }
                json.put("repetitions", repetitions);
                Printer.printJson(out, json);
            }
            case csv -> {
                out.println("suite,name,value,unit");
                figures.forEach(f -> out.println(f.suite() + ",\"" + f.name() + "\"," + f.value() + "," + f.unit()));
            }
            case table -> {
                Printer.Table table = new Printer.Table("suite", "benchmark", "value", "unit");
                figures.forEach(f -> table.row(f.suite(), f.name(), String.format(Locale.ROOT, "%.3f", f.value()),
                        f.unit()));
                table.print(out);
            }
        }
    }
}
