package org.mflb.simulation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

import org.mflb.core.Require;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;

/**
 * Measures the simulator's speed (simulated events per second on one core) on the two reference
 * scenarios of issue 3, after a JIT warm-up, as the median over several repetitions:
 * <ol>
 * <li>exponential service, SQ(2) with distinct samples, single-server queues, N = 1000, λ = 0.9
 *     (target ≥ 25·10⁶ events/s);</li>
 * <li>general service through the event calendar, SQ(2), N = 10⁴, λ = 0.9 (target ≥ 5·10⁶
 *     events/s with log-normal service).</li>
 * </ol>
 * Each measured run is one replication on one thread. The figures depend on the load of the machine:
 * run it on an otherwise idle core.
 */
public final class SimulationBenchmark {

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

    /** @return the exponential reference scenario simulated up to {@code tEnd} */
    public static SimulationScenario exponentialScenario(double tEnd) {
        return SimulationScenario.builder().system(SystemKind.SUPERMARKET).policy(Policy.SQD).d(2)
                .servers(1000).lambda(0.9).tEnd(tEnd).threads(1).seed(2024).build();
    }

    /** @return the general-service reference scenario simulated up to {@code tEnd} */
    public static SimulationScenario generalScenario(ServiceDistribution service, double tEnd) {
        return SimulationScenario.builder().system(SystemKind.SUPERMARKET).policy(Policy.SQD).d(2)
                .servers(10_000).lambda(0.9).service(service).eventCalendar(true).tEnd(tEnd).threads(1)
                .seed(2024).build();
    }

    /**
     * Warms up on a short run of {@code scenario}, then runs it {@code repetitions} times.
     *
     * @return the median events per second
     */
    public static Measurement measure(String name, SimulationScenario scenario, int repetitions) {
        SimulationScenario warm = scenario.toBuilder().tEnd(scenario.tEnd() / 4).warmup(Double.NaN).build();
        for (int i = 0; i < 2; i++) {
            Simulator.run(warm);
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        double[] rates = new double[repetitions];
        double[] cpuRates = new double[repetitions];
        long events = 0;
        for (int i = 0; i < repetitions; i++) {
            long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
            SimulationResult r = Simulator.run(scenario); // one thread: runs in this thread
            long c1 = cpu ? mx.getCurrentThreadCpuTime() : 0;
            rates[i] = r.eventsPerSecond();
            cpuRates[i] = cpu ? r.events() / ((c1 - c0) * 1e-9) : Double.NaN;
            events = r.events();
        }
        return new Measurement(name, median(rates), median(cpuRates), rates, events);
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
        Measurement exponential = measure("SQ(2) exponential queues, N = 1000, lambda 0.9",
                exponentialScenario(5_000), repetitions);
        // ~ 18 000 events per unit time: 500 time units ≈ 9 million events (about 1.2 s)
        Measurement lognormal = measure("SQ(2) " + general.spec() + " queues, N = 10^4, lambda 0.9",
                generalScenario(general, 500), repetitions);
        return new Measurement[] {exponential, lognormal};
    }

    /**
     * Command-line entry: {@code SimulationBenchmark [repetitions]} (default 5); prints one line per
     * reference benchmark.
     *
     * @param args optional number of repetitions
     */
    public static void main(String[] args) {
        for (Measurement m : measureReference(args.length > 0 ? Integer.parseInt(args[0]) : 5)) {
            System.out.println(m.line());
        }
    }
}
