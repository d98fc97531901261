package org.mflb.fluid;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.PiecewiseLinearRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

/**
 * The long-horizon transients of issue 28, timed: time units of the fluid integrated per second and
 * switches between smooth pieces per second, for
 * <ul>
 * <li>the threshold policy ({@code ℓ = 2}) in infinite-server pools under the periodic load
 * {@code λ(t) = 2.5 + sin(2πt/40)} ({@link #periodicLoad}), {@code t ∈ [0, 10^5]}, output every 1000;</li>
 * <li>the self-learning threshold ({@code α = 0.5}, {@code ℓ(0) = 2}) under the same load,
 * {@code t ∈ [0, 2·10^4]}, output every 100;</li>
 * <li>SQ(2) with memory in single-server queues at {@code λ = 0.9}, {@code t ∈ [0, 10^5]}, output every 1000.</li>
 * </ul>
 * Each from the empty state, one thread; the median of the runs, in CPU time of the thread and in
 * wall time.
 */
public final class NonSmoothBenchmark {

    private NonSmoothBenchmark() {
    }

    /** One case, measured. */
    public record Measurement(String name, double horizon, int switches, double medianCpuSeconds,
            double medianWallSeconds) {

        /** @return time units integrated per CPU second */
        public double timeUnitsPerCpuSecond() {
            return horizon / medianCpuSeconds;
        }

        /** @return switches per CPU second */
        public double switchesPerCpuSecond() {
            return switches / medianCpuSeconds;
        }
    }

    /**
     * {@code λ(t) = 2.5 + sin(2πt/40)} sampled every 2 time units on {@code [0, horizon]} and
     * interpolated linearly: the profile of issue 28 (as a {@code --lambda-profile} CSV of rows {@code t,lambda}).
     *
     * @param horizon the last sample time
     * @return the piecewise-linear rate
     */
    public static PiecewiseLinearRate periodicLoad(double horizon) {
        int samples = (int) Math.ceil(horizon / 2) + 1;
        double[] t = new double[samples];
        double[] rate = new double[samples];
        for (int i = 0; i < samples; i++) {
            t[i] = 2.0 * i;
            rate[i] = 2.5 + Math.sin(2 * Math.PI * t[i] / 40);
        }
        return new PiecewiseLinearRate(t, rate);
    }

    /** A case: its name, horizon and the run (returns the number of switches). */
    private record Case(String name, double horizon, Supplier<Integer> run) {
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        ArrivalRate periodic = periodicLoad(1e5);
        FluidModel threshold = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(2), periodic);
        cases.add(new Case("threshold 2, pools, periodic load, t-end 1e5, dt 1000", 1e5,
                () -> switches(threshold.transientFrom(InitialState.empty(), TimeGrid.uniform(1e5, 1000)))));
        FluidModel adaptive = FluidModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.adaptiveThreshold(0.5, 2),
                periodicLoad(2e4));
        cases.add(new Case("self-learning threshold alpha 0.5, l(0) 2, pools, periodic load, t-end 2e4, dt 100", 2e4,
                () -> switches(adaptive.transientFrom(InitialState.empty(), TimeGrid.uniform(2e4, 100)))));
        FluidModel memory = FluidModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(2), 0.9);
        cases.add(new Case("SQ(2) with memory, queues, lambda 0.9, t-end 1e5, dt 1000", 1e5,
                () -> switches(memory.transientFrom(InitialState.empty(), TimeGrid.uniform(1e5, 1000)))));
        return cases;
    }

    private static int switches(FluidTransient run) {
        return run.regimes().map(r -> r.switches().size()).orElseGet(
                () -> run.memory().map(m -> m.switches().size()).orElse(0));
    }

    /**
     * @param repetitions measured runs per case (after one warm-up run), {@code ≥ 1}
     * @return the cases, measured
     */
    public static List<Measurement> measure(int repetitions) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<Measurement> out = new ArrayList<>();
        for (Case c : cases()) {
            c.run().get(); // warm-up: the JIT compiles the solver
            double[] cpu = new double[repetitions];
            double[] wall = new double[repetitions];
            int switches = 0;
            for (int r = 0; r < repetitions; r++) {
                long cpu0 = mx.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                switches = c.run().get();
                cpu[r] = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
                wall[r] = (System.nanoTime() - wall0) / 1e9;
            }
            Arrays.sort(cpu);
            Arrays.sort(wall);
            out.add(new Measurement(c.name(), c.horizon(), switches, cpu[repetitions / 2], wall[repetitions / 2]));
        }
        return out;
    }

    /**
     * Prints the measurements (for a run outside the command line).
     *
     * @param args the number of repetitions (default 3)
     */
    public static void main(String[] args) {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (Measurement m : measure(repetitions)) {
            System.out.printf("%s: %.3f s CPU (%.3f s wall), %.0f time units/s, %d switches, %.0f switches/s%n", m.name(),
                    m.medianCpuSeconds(), m.medianWallSeconds(), m.timeUnitsPerCpuSecond(), m.switches(),
                    m.switchesPerCpuSecond());
        }
    }
}
