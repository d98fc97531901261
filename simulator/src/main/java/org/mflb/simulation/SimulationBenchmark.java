package org.mflb.simulation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.LongSupplier;

import org.mflb.core.Require;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;

/**
 * Measures the simulator's speed (simulated events per second on one core) on the two reference
 * scenarios of issue 3, after a JIT warm-up, as the median over several repetitions, and against N
 * for both engines ({@link #measureScaling}):
 * <ol>
 * <li>exponential service, SQ(2) with replacement, single-server queues, N = 1000, λ = 0.9
 *     (target ≥ 25·10⁶ events/s);</li>
 * <li>general service through the event calendar, SQ(2), N = 10⁴, λ = 0.9 (target ≥ 5·10⁶
 *     events/s with log-normal service).</li>
 * </ol>
 * Each measured run is one replication on one thread. The figures depend on the load of the machine:
 * run it on an otherwise idle core.
 */
public final class SimulationBenchmark {

    /** The model of every benchmark: SQ(2) with replacement, single-server queues, λ = 0.9. */
    private static final LoadBalancingModel SQ2 =
            LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.powerOfD(2), 0.9);

    /**
     * Events per second of one scenario, per wall-clock second and per second of CPU time of the
     * simulating thread (the latter is what one core delivers when the machine is shared).
     *
     * @param name scenario
     * @param medianEventsPerSecond median over the runs, wall clock
     * @param medianEventsPerCpuSecond median over the runs, thread CPU time
     * @param eventsPerSecond every run, wall clock
     * @param eventsPerRun events simulated in each run
     */
    public record Measurement(String name, double medianEventsPerSecond, double medianEventsPerCpuSecond,
            double[] eventsPerSecond, long eventsPerRun) {
        /** @return the fastest run, wall clock: the least disturbed by other work on the machine */
        public double bestEventsPerSecond() {
            return Arrays.stream(eventsPerSecond).max().orElse(Double.NaN);
        }

        /** @return one line for a report */
        public String line() {
            return String.format("%-52s median %6.2f M events/s wall (best %6.2f), %6.2f M events/s CPU  (wall runs: %s; %d events each)",
                    name, medianEventsPerSecond / 1e6, bestEventsPerSecond() / 1e6, medianEventsPerCpuSecond / 1e6,
                    Arrays.toString(Arrays.stream(eventsPerSecond).map(v -> Math.round(v / 1e4) / 1e2).toArray()),
                    eventsPerRun);
        }
    }

    private SimulationBenchmark() {
    }

    /**
     * @return the exponential reference scenario simulated up to {@code tEnd}, on the agent engine
     *         (the figure of issue 3; {@link #measureScaling} measures both engines)
     */
    public static SimulationScenario exponentialScenario(double tEnd) {
        return SimulationScenario.builder().model(SQ2).servers(1000).engine(Engine.AGENT).tEnd(tEnd).threads(1)
                .seed(2024).build();
    }

    /** @return the general-service reference scenario simulated up to {@code tEnd} */
    public static SimulationScenario generalScenario(ServiceDistribution service, double tEnd) {
        return SimulationScenario.builder().model(SQ2.withService(service)).servers(10_000).eventCalendar(true)
                .tEnd(tEnd).threads(1).seed(2024).build();
    }

    /**
     * Warms up on a short run of {@code scenario}, then runs it {@code repetitions} times.
     *
     * @return the median events per second
     */
    public static Measurement measure(String name, SimulationScenario scenario, int repetitions) {
        return measureInterleaved(new String[] {name}, new SimulationScenario[] {scenario}, repetitions)[0];
    }

    /**
     * Warms up on a short run of each scenario, then runs them in turn, {@code repetitions} rounds:
     * paired, interleaved runs, so that a drift of the machine's speed affects all alike.
     *
     * @return one measurement per scenario
     */
    public static Measurement[] measureInterleaved(String[] names, SimulationScenario[] scenarios, int repetitions) {
        for (SimulationScenario scenario : scenarios) {
            SimulationScenario warm = scenario.toBuilder().tEnd(scenario.run().tEnd() / 4).warmup(Double.NaN).build();
            for (int i = 0; i < 2; i++) {
                Simulator.run(warm);
            }
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        int m = scenarios.length;
        double[][] rates = new double[m][repetitions];
        double[][] cpuRates = new double[m][repetitions];
        long[] events = new long[m];
        for (int i = 0; i < repetitions; i++) {
            for (int k = 0; k < m; k++) {
                long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
                SimulationResult r = Simulator.run(scenarios[k]); // one thread: runs in this thread
                long c1 = cpu ? mx.getCurrentThreadCpuTime() : 0;
                rates[k][i] = r.eventsPerSecond();
                cpuRates[k][i] = cpu ? r.events() / ((c1 - c0) * 1e-9) : Double.NaN;
                events[k] = r.events();
            }
        }
        Measurement[] out = new Measurement[m];
        for (int k = 0; k < m; k++) {
            out[k] = new Measurement(names[k], median(rates[k]), median(cpuRates[k]), rates[k], events[k]);
        }
        return out;
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        int m = s.length;
        return m % 2 == 1 ? s[m / 2] : 0.5 * (s[m / 2 - 1] + s[m / 2]);
    }

    /** Service law of the general-service reference benchmark. */
    public static final String GENERAL_SERVICE = "lognormal:scv=4";

    /**
     * Measures both reference benchmarks (the general one with {@link #GENERAL_SERVICE}), each run
     * about 9 million events long.
     *
     * @param repetitions measured runs per scenario ({@code ≥ 1})
     * @return the exponential and the general-service measurements
     */
    public static Measurement[] measureReference(int repetitions) {
        Require.atLeast("repetitions", repetitions, 1);
        ServiceDistribution general = ServiceDistributions.parse(GENERAL_SERVICE);
        // ~ N(λ + λ) = 1 800 events per unit time: 5 000 time units ≈ 9 million events (0.3–0.4 s)
        Measurement exponential = measure("SQ(2) exponential queues, N = 1000, lambda 0.9, agent engine",
                exponentialScenario(5_000), repetitions);
        // ~ 18 000 events per unit time: 500 time units ≈ 9 million events (about 1.2 s)
        Measurement lognormal = measure("SQ(2) " + general.spec() + " queues, N = 10^4, lambda 0.9",
                generalScenario(general, 500), repetitions);
        return new Measurement[] {exponential, lognormal};
    }

    /** The system sizes of the scaling benchmark. */
    public static final int[] SCALING_SIZES = {1_000, 10_000, 100_000, 1_000_000, 10_000_000};

    /** Events simulated per run of the scaling benchmark (about a second on the occupancy engine). */
    public static final long SCALING_EVENTS = 20_000_000;

    /**
     * The near-stationary start of the scaling benchmark: the tail {@code x_i = λ^(2^i − 1)} of SQ(2)
     * at λ = 0.9 (docs/models.md §1), written out, so that a run of a few time units at N = 10⁷ measures
     * the stationary regime and not the filling of an empty system.
     */
    static final String SQ2_STATIONARY_START = "tail:1,0.9,0.729,0.4783,0.2059,0.03815,0.001311,1.5e-6";

    /**
     * @return SQ(2) (with replacement), exponential queues, λ = 0.9, on {@code engine}, {@code n}
     *         servers, simulated for about {@code events} events from the near-stationary start
     */
    public static SimulationScenario scalingScenario(Engine engine, int n, long events) {
        double tEnd = events / (1.8 * n); // N(λ + λ) events per unit time in the stationary regime
        return SimulationScenario.builder().model(SQ2).servers(n)
                .initialState(org.mflb.core.model.InitialState.parse(SQ2_STATIONARY_START))
                .engine(engine).tEnd(tEnd).threads(1).seed(2024).build();
    }

    /**
     * Events per second against N for both engines (issue 16): SQ(2), λ = 0.9, exponential, one
     * thread, N = 10³ … 10⁷ ({@link #SCALING_SIZES}), each run about {@link #SCALING_EVENTS} events;
     * and the agent engine with log-normal service of SCV 4 at N = 10⁶. The two engines are measured
     * alternately at each N (paired runs: a drift of the machine's speed hits both alike).
     *
     * @param repetitions measured runs per case ({@code ≥ 1})
     * @return the measurements, engine by engine at each N, then the log-normal case
     */
    public static Measurement[] measureScaling(int repetitions) {
        Require.atLeast("repetitions", repetitions, 1);
        java.util.List<Measurement> out = new java.util.ArrayList<>();
        for (int n : SCALING_SIZES) {
            Engine[] engines = {Engine.AGENT, Engine.OCCUPANCY};
            String[] names = new String[engines.length];
            SimulationScenario[] scenarios = new SimulationScenario[engines.length];
            for (int k = 0; k < engines.length; k++) {
                names[k] = String.format(java.util.Locale.ROOT, "SQ(2) exp queues, N = %.0e, %s engine", (double) n,
                        engines[k].cliName());
                scenarios[k] = scalingScenario(engines[k], n, SCALING_EVENTS);
            }
            out.addAll(java.util.List.of(measureInterleaved(names, scenarios, repetitions)));
        }
        ServiceDistribution general = ServiceDistributions.parse(GENERAL_SERVICE);
        int n = 1_000_000;
        out.add(measure("SQ(2) " + general.spec() + " queues, N = 1e+06, agent engine",
                SimulationScenario.builder().model(SQ2.withService(general)).servers(n).initialState(org.mflb.core.model.InitialState.parse(
                                SQ2_STATIONARY_START)).tEnd(SCALING_EVENTS / (1.8 * n)).threads(1).seed(2024).build(),
                repetitions));
        return out.toArray(new Measurement[0]);
    }

    /** Servers of the LL(d) workload-engine benchmark (issue 26). */
    public static final int LEAST_LOADED_SERVERS = 1_000_000;

    /** Jobs simulated per run of the LL(d) benchmark (about two seconds at the target speed). */
    public static final long LEAST_LOADED_JOBS = 20_000_000;

    /** Service laws of the LL(d) benchmark. */
    public static final String[] LEAST_LOADED_SERVICE = {"exp", GENERAL_SERVICE};

    /**
     * The three classes of the server-class benchmark (issue 25): a = (0.3, 0.3, 0.4), s = (1.5, 1,
     * 0.625), capacity C = 1 and stability boundary λ* = 1 for SQ(2), so that λ = 0.9 compares with the
     * homogeneous SQ(2) at the same load.
     */
    public static final String THREE_CLASSES = "0.3:1.5,0.3:1,0.4:0.625";

    /** Events simulated per run of the server-class benchmark. */
    public static final long CLASS_EVENTS = 10_000_000;

    /** The cases of the server-class benchmark, in their order. */
    private static final String[] CLASS_CASES = {"SQ(2) one speed", "SQ(2) 3 classes", "SED(2) 3 classes"};

    /** Class loaders of its own each case of the server-class benchmark is measured in. */
    public static final int CLASS_LOADERS = 4;

    /**
     * Whole runs each loader makes before it is measured: the hot loop is compiled, then compiled again a
     * few times over the first runs (paths first taken late, a checkpoint, a rare draw), and a loader
     * measured after shorter warm-ups was at times still running its first compilations.
     */
    public static final int CLASS_WARMUP_RUNS = 3;

    /**
     * A case of the server-class benchmark: its {@link Measurement} (medians over the loaders) and each
     * loader's median rate per second of thread CPU time. The JIT compiles a loader's hot loop in one of
     * a few ways, some up to 25% slower than others (which way is luck: the same code, the same input);
     * the fastest loader's figure is the cost of the code when it is compiled well.
     *
     * @param measurement the case's measurement
     * @param loaderEventsPerCpuSecond each loader's median, events per second of thread CPU time
     */
    public record ClassMeasurement(Measurement measurement, double[] loaderEventsPerCpuSecond) {
        /** @return the fastest loader's median, events per second of thread CPU time */
        public double bestLoaderEventsPerCpuSecond() {
            return Arrays.stream(loaderEventsPerCpuSecond).max().orElse(Double.NaN);
        }
    }

    /**
     * One run of a case of the server-class benchmark, built and run inside whatever class loader loaded
     * this class: {@link #measureClasses} loads it in a fresh loader per case, so that no two cases share
     * compiled code or profiles (the JIT compiles the shared classes — the engines, the statistics — for
     * the first case it sees, and the others then run code shaped for it). Public for that reflective
     * construction only.
     */
    public static final class ClassCase implements LongSupplier {
        private final SimulationScenario scenario;

        /**
         * @param engine {@link Engine#cliName()}
         * @param kind index in {@link #CLASS_CASES}
         * @param tEnd horizon of a run
         */
        public ClassCase(String engine, int kind, double tEnd) {
            org.mflb.core.system.ServerClasses three = org.mflb.core.system.ServerClasses.parse(THREE_CLASSES);
            LoadBalancingModel model = kind == 0 ? SQ2 : kind == 1 ? SQ2.withClasses(three)
                    : SQ2.withPolicy(new Policy.ShortestExpectedDelay(2, org.mflb.core.system.Sampling.REPLACEMENT))
                            .withClasses(three);
            scenario = SimulationScenario.builder().model(model).servers(1000).engine(Engine.parse(engine)).tEnd(tEnd)
                    .threads(1).seed(2024).build();
        }

        /** @return the events of one run (one thread: it runs in the calling thread) */
        @Override
        public long getAsLong() {
            return Simulator.run(scenario).events();
        }
    }

    /**
     * Events per second with three server classes ({@link #THREE_CLASSES}) against servers of one
     * speed (issue 25: within 20%), SQ(2) and SED(2) with replacement, exponential queues, λ = 0.9,
     * N = 1000, one thread, on both engines; each run about {@link #CLASS_EVENTS} events.
     *
     * <p>The figure of one JVM depends on how the JIT happened to compile the hot loop (two processes
     * running the same code differ by up to 20%), and cases run in one class loader share compiled code
     * shaped by whichever ran first. So each case runs in {@link #CLASS_LOADERS} class loaders of its
     * own ({@link ClassCase}), each warmed up by {@link #CLASS_WARMUP_RUNS} runs; then every loader of every
     * case runs once per round, in turn, {@code repetitions} rounds (a drift of the machine's speed hits
     * all alike). A case's figure is the median over its loaders of each loader's median run; the
     * loaders' own medians come with it ({@link ClassMeasurement}).
     *
     * @param repetitions measured rounds ({@code ≥ 1})
     * @return per engine (agent, then occupancy): homogeneous SQ(2), three-class SQ(2), three-class SED(2)
     */
    public static ClassMeasurement[] measureClasses(int repetitions) {
        Require.atLeast("repetitions", repetitions, 1);
        double tEnd = CLASS_EVENTS / (1.8 * 1000);
        java.util.List<ClassMeasurement> out = new java.util.ArrayList<>();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        for (Engine engine : new Engine[] {Engine.AGENT, Engine.OCCUPANCY}) {
            int m = CLASS_CASES.length;
            LongSupplier[][] runs = new LongSupplier[m][CLASS_LOADERS];
            java.util.List<java.net.URLClassLoader> loaders = new java.util.ArrayList<>();
            try {
                for (int k = 0; k < m; k++) {
                    for (int l = 0; l < CLASS_LOADERS; l++) {
                        java.net.URLClassLoader loader = isolatedLoader();
                        loaders.add(loader);
                        runs[k][l] = classCase(loader, engine, k, tEnd);
                        for (int w = 0; w < CLASS_WARMUP_RUNS; w++) {
                            runs[k][l].getAsLong();
                        }
                    }
                }
                double[][][] wall = new double[m][CLASS_LOADERS][repetitions];
                double[][][] perCpu = new double[m][CLASS_LOADERS][repetitions];
                long[] events = new long[m];
                for (int i = 0; i < repetitions; i++) {
                    for (int l = 0; l < CLASS_LOADERS; l++) {
                        for (int j = 0; j < m; j++) {
                            int k = (j + i) % m; // each case first in turn
                            long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
                            long w0 = System.nanoTime();
                            long e = runs[k][l].getAsLong();
                            long w1 = System.nanoTime();
                            long c1 = cpu ? mx.getCurrentThreadCpuTime() : 0;
                            wall[k][l][i] = e / ((w1 - w0) * 1e-9);
                            perCpu[k][l][i] = cpu ? e / ((c1 - c0) * 1e-9) : Double.NaN;
                            events[k] = e;
                        }
                    }
                }
                for (int k = 0; k < m; k++) {
                    double[] wallMedians = new double[CLASS_LOADERS];
                    double[] cpuMedians = new double[CLASS_LOADERS];
                    double[] all = new double[CLASS_LOADERS * repetitions];
                    for (int l = 0; l < CLASS_LOADERS; l++) {
                        wallMedians[l] = median(wall[k][l]);
                        cpuMedians[l] = median(perCpu[k][l]);
                        System.arraycopy(wall[k][l], 0, all, l * repetitions, repetitions);
                    }
                    out.add(new ClassMeasurement(new Measurement(CLASS_CASES[k] + ", exp queues, N = 1000, lambda 0.9, "
                            + engine.cliName() + " engine", median(wallMedians), median(cpuMedians), all, events[k]),
                            cpuMedians));
                }
            } finally {
                for (java.net.URLClassLoader loader : loaders) {
                    try {
                        loader.close();
                    } catch (java.io.IOException e) {
                        // nothing was written through it: closing only releases the jar files
                    }
                }
            }
        }
        return out.toArray(new ClassMeasurement[0]);
    }

    /** @return a class loader over this JVM's class path that loads mflb's classes anew (its parent: the platform loader) */
    private static java.net.URLClassLoader isolatedLoader() {
        String[] entries = System.getProperty("java.class.path").split(java.io.File.pathSeparator);
        java.net.URL[] urls = new java.net.URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            try {
                urls[i] = java.nio.file.Paths.get(entries[i]).toUri().toURL();
            } catch (java.net.MalformedURLException e) {
                throw new IllegalStateException("class path entry " + entries[i], e);
            }
        }
        return new java.net.URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    }

    /** @return {@link ClassCase} loaded by {@code loader} (not this class's loader: checked) */
    private static LongSupplier classCase(ClassLoader loader, Engine engine, int kind, double tEnd) {
        try {
            Class<?> type = Class.forName(ClassCase.class.getName(), true, loader);
            if (type == ClassCase.class) {
                throw new IllegalStateException("the benchmark's class loader did not load its own copy of " + type);
            }
            return (LongSupplier) type.getConstructor(String.class, int.class, double.class)
                    .newInstance(engine.cliName(), kind, tEnd);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load the server-class benchmark in a class loader of its own", e);
        }
    }

    /**
     * @return LL(2) with replacement, λ = 0.9, {@link #LEAST_LOADED_SERVERS} single-server queues with
     *         job sizes {@code service}, one thread, about {@code jobs} jobs from an empty start (the
     *         default warm-up, a tenth of the run); {@code percentiles} adds the per-job histogram
     */
    public static SimulationScenario leastLoadedScenario(ServiceDistribution service, long jobs, boolean percentiles) {
        double lambda = 0.9;
        LoadBalancingModel model = new LoadBalancingModel(ServerSystem.singleServerQueues(),
                new Policy.LeastLoaded(2, org.mflb.core.system.Sampling.REPLACEMENT),
                org.mflb.core.model.ArrivalRate.constant(lambda), service);
        ScenarioBuilder b = SimulationScenario.builder().model(model).servers(LEAST_LOADED_SERVERS)
                .tEnd(jobs / (lambda * LEAST_LOADED_SERVERS)).threads(1).seed(2024);
        return percentiles ? b.percentiles(50, 90, 99).build() : b.build();
    }

    /**
     * Jobs per second of the workload engine of LL(d) (issue 26; target ≥ 10⁷ jobs/s per core): LL(2),
     * λ = 0.9, N = 10⁶, exponential and log-normal (SCV 4) sizes, each without and with the per-job
     * response-time histogram (percentiles 50, 90, 99), one thread, about {@link #LEAST_LOADED_JOBS}
     * jobs per run, interleaved. The engine has no departure events, so its events are its jobs.
     *
     * @param repetitions measured runs per case ({@code ≥ 1})
     * @return the measurements (events per second = jobs per second)
     */
    public static Measurement[] measureLeastLoaded(int repetitions) {
        Require.atLeast("repetitions", repetitions, 1);
        int m = 2 * LEAST_LOADED_SERVICE.length;
        String[] names = new String[m];
        SimulationScenario[] scenarios = new SimulationScenario[m];
        int k = 0;
        for (String spec : LEAST_LOADED_SERVICE) {
            ServiceDistribution law = ServiceDistributions.parse(spec);
            for (boolean percentiles : new boolean[] {false, true}) {
                names[k] = "LL(2) " + law.spec() + " jobs, N = 1e+06, workload engine" + (percentiles ? ", histogram" : "");
                scenarios[k++] = leastLoadedScenario(law, LEAST_LOADED_JOBS, percentiles);
            }
        }
        return measureInterleaved(names, scenarios, repetitions);
    }

    /**
     * Command-line entry: {@code SimulationBenchmark [repetitions] [scaling|classes|ll]} (default 5);
     * prints one line per reference benchmark, or per case of the scaling, the server-class or the
     * LL(d) benchmark.
     *
     * @param args optional number of repetitions, then optionally {@code scaling}, {@code classes} or {@code ll}
     */
    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String which = args.length > 1 ? args[1] : "";
        if (which.equals("classes")) {
            ClassMeasurement[] cs = measureClasses(reps);
            for (ClassMeasurement c : cs) {
                System.out.println(c.measurement().line() + String.format(java.util.Locale.ROOT,
                        "; loaders (CPU): %s", Arrays.toString(Arrays.stream(c.loaderEventsPerCpuSecond())
                                .map(v -> Math.round(v / 1e4) / 1e2).toArray())));
            }
            for (int e = 0; e + 2 < cs.length; e += 3) {
                Measurement one = cs[e].measurement();
                System.out.printf(java.util.Locale.ROOT,
                        "3 classes / one speed, %s: CPU medians SQ(2) %.3f, SED(2) %.3f; fastest loaders SQ(2) %.3f, SED(2) %.3f%n",
                        one.name().substring(one.name().lastIndexOf(", ") + 2),
                        cs[e + 1].measurement().medianEventsPerCpuSecond() / one.medianEventsPerCpuSecond(),
                        cs[e + 2].measurement().medianEventsPerCpuSecond() / one.medianEventsPerCpuSecond(),
                        cs[e + 1].bestLoaderEventsPerCpuSecond() / cs[e].bestLoaderEventsPerCpuSecond(),
                        cs[e + 2].bestLoaderEventsPerCpuSecond() / cs[e].bestLoaderEventsPerCpuSecond());
            }
            return;
        }
        Measurement[] ms = which.equals("scaling") ? measureScaling(reps)
                : which.equals("ll") ? measureLeastLoaded(reps) : measureReference(reps);
        for (Measurement m : ms) {
            System.out.println(m.line());
        }
    }
}
