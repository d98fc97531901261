package org.mflb.simulation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.system.ServerSystem;
import org.mflb.simulation.dispatch.LevelJump;
import org.mflb.simulation.engine.Replication;
import org.mflb.simulation.engine.ReplicationResult;
import org.mflb.simulation.engine.ReplicationStreams;
import org.mflb.simulation.engine.UnitResult;
import org.mflb.simulation.stat.ControlVariate;
import org.mflb.simulation.stat.StudentT;

/**
 * The Monte Carlo simulator of the real {@code N}-server system: individual servers (pools), the
 * dispatcher's actual algorithm and the job-level FIFO bookkeeping, with no use of any fluid
 * model's rates. It is the independent truth the fluid, refined and PDE results are checked against.
 *
 * <pre>
 *   LoadBalancingModel sq2 = LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.powerOfD(2), 0.9);
 *   SimulationResult r = Simulator.run(SimulationScenario.builder().model(sq2)
 *           .servers(1000).tEnd(10_000).replications(8).seed(42).build());
 *   r.tail().mean();   // x_0 = 1, x_1, x_2, ...
 * </pre>
 *
 * Replications run in parallel on {@link RunControl#threads()} threads; replication r
 * draws from its own stream derived from {@code (seed, r)} ({@link ReplicationStreams}) and results
 * are combined in replication order, so the numbers do not depend on the number of threads.
 */
public final class Simulator {

    private Simulator() {
    }

    /** Runs {@code scenario} and returns its estimates. */
    public static SimulationResult run(SimulationScenario scenario) {
        return run(scenario, finished -> { });
    }

    /**
     * Runs {@code scenario} and returns its estimates, telling {@code progress} after each replication
     * how many have been folded into the estimates (1, 2, ..., in replication order, on the calling
     * thread): the boundary the command line's progress reports hang on.
     */
    public static SimulationResult run(SimulationScenario scenario, IntConsumer progress) {
        long start = System.nanoTime();
        Aggregator aggregator = new Aggregator(scenario);
        runReplications(scenario, aggregator, progress);
        double wall = (System.nanoTime() - start) * 1e-9;
        return aggregator.result(wall);
    }

    private static ReplicationResult runOne(SimulationScenario scenario, int r) {
        return Replication.create(scenario, r, ReplicationStreams.create(scenario.run().seed(), r)).run();
    }

    /**
     * Runs the replications and hands each result to {@code sink} in replication order (results
     * that finish early wait for their predecessors), so the aggregation does not depend on the
     * threads and the per-replication trajectories need not all be held at once.
     */
    private static void runReplications(SimulationScenario scenario, Aggregator sink, IntConsumer progress) {
        int reps = scenario.run().replications();
        int threads = Math.min(scenario.run().threads(), reps);
        if (threads == 1) {
            for (int r = 0; r < reps; r++) {
                sink.add(runOne(scenario, r));
                progress.accept(r + 1);
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread th = new Thread(runnable, "mflb-simulation");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Future<ReplicationResult>> futures = new ArrayList<>(reps);
            for (int r = 0; r < reps; r++) {
                final int index = r;
                futures.add(pool.submit(() -> runOne(scenario, index)));
            }
            for (int r = 0; r < reps; r++) {
                sink.add(futures.get(r).get());
                futures.set(r, null); // let the finished replication be collected
                progress.accept(r + 1);
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MflbException(ErrorKind.INPUT, null, "simulation interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Folds the replications, in replication order, into the estimates: the units of observation
     * are kept (a few numbers each); the grid trajectories are folded at once into running means and
     * sums of squared deviations (Welford), level by level, a level a replication never reached
     * counting as 0.
     */
    private static final class Aggregator {
        private final SimulationScenario sc;
        private final List<UnitResult> units = new ArrayList<>();
        private long events;
        private List<LevelJump> jumps = List.of();
        private Engine engine = Engine.AUTO;
        private int count;
        private final double[][] trajMean;
        private final double[][] trajM2;

        Aggregator(SimulationScenario sc) {
            this.sc = sc;
            int g = sc.gridTimes().length;
            trajMean = new double[g][0];
            trajM2 = new double[g][0];
        }

        void add(ReplicationResult r) {
            if (r.index() == 0) {
                jumps = r.jumps();
                engine = r.engine();
            }
            units.addAll(r.units());
            events += r.events();
            count++;
            double[][] snaps = r.snapshots();
            for (int k = 0; k < trajMean.length; k++) {
                double[] x = snaps[k];
                if (x.length > trajMean[k].length) {
                    trajMean[k] = java.util.Arrays.copyOf(trajMean[k], x.length);
                    trajM2[k] = java.util.Arrays.copyOf(trajM2[k], x.length);
                }
                double[] mean = trajMean[k];
                double[] m2 = trajM2[k];
                for (int i = 0; i < mean.length; i++) {
                    double xi = i < x.length ? x[i] : 0;
                    double delta = xi - mean[i];
                    mean[i] += delta / count;
                    m2[i] += delta * (xi - mean[i]);
                }
            }
        }

        SimulationResult result(double wall) {
            int m = units.size();
            String method = sc.run().replications() > 1 ? "replications" : "batch-means";

            // tail vector, up to the highest level with a positive average in some unit
            int len = 1;
            for (UnitResult u : units) {
                for (int i = u.tail().length - 1; i >= len; i--) {
                    if (u.tail()[i] > 0) {
                        len = i + 1;
                        break;
                    }
                }
            }
            double[] mean = new double[len];
            double[] lo = new double[len];
            double[] hi = new double[len];
            double[] obs = new double[m];
            for (int i = 0; i < len; i++) {
                for (int k = 0; k < m; k++) {
                    double[] x = units.get(k).tail();
                    obs[k] = i < x.length ? x[i] : 0;
                }
                Estimate e = StudentT.estimate(obs);
                mean[i] = e.mean();
                lo[i] = e.ci95Low();
                hi[i] = e.ci95High();
            }
            VectorEstimate tail = new VectorEstimate(mean, lo, hi, m);

            Estimate queueLength = over(units, UnitResult::meanQueueLength);
            boolean queue = sc.isQueue();
            Estimate response = queue ? over(units, UnitResult::meanResponse) : null;
            Estimate waiting = queue ? over(units, UnitResult::meanWaiting) : null;
            Estimate blocking = sc.model().system().kind() == ServerSystem.Kind.LOSS ? over(units, UnitResult::blocking) : null;
            Estimate idle = over(units, UnitResult::idleFraction);
            Estimate rate = over(units, UnitResult::arrivalRate);

            Map<String, Estimate> policy = new LinkedHashMap<>();
            for (UnitResult u : units) {
                for (String name : u.policy().keySet()) {
                    policy.computeIfAbsent(name, key -> over(units, v -> v.policy().getOrDefault(key, Double.NaN)));
                }
            }
            int covarianceLevels = sc.observation().covarianceLevels();
            MatrixEstimate covariance = covarianceLevels > 0 ? covariance(units, covarianceLevels, sc.run().servers()) : null;
            return new SimulationResult(sc, method, queueLength, tail, response, waiting, blocking, idle, rate,
                    sc.gridTimes(), trajectory(), covariance, policy, jumps, events, wall, engine,
                    quantiles(UnitResult::responseQuantiles), quantiles(UnitResult::conditionalResponseQuantiles),
                    controlledQuantiles(), classes());
        }

        /** The per-class estimates (servers of different speeds), empty for servers of one speed. */
        private List<ClassEstimate> classes() {
            org.mflb.simulation.state.ServerClassLayout layout = sc.classLayout();
            if (layout == null || units.isEmpty()) {
                return List.of();
            }
            List<ClassEstimate> out = new ArrayList<>(layout.count());
            for (int k = 0; k < layout.count(); k++) {
                final int c = k;
                out.add(new ClassEstimate(layout.classes().fraction(k), layout.speed(k), layout.size(k),
                        over(units, u -> u.classQueueLengths()[c]),
                        over(units, u -> u.classQueueLengths()[c] / u.classArrivalRates()[c]),
                        over(units, u -> u.classArrivalRates()[c])));
            }
            return out;
        }

        /**
         * The conditional estimator's quantiles with the busy fraction as control variate
         * ({@link ControlVariate}): each unit's quantile θ_k regressed on its time-averaged
         * {@code x̄_1}, whose stationary mean {@code λ·E[S]} is exact
         * ({@link SimulationScenario#stationaryBusyFraction()}). The slow fluctuations of the
         * occupancy over a run move both together and dominate the variance of θ_k; the regression
         * removes them. Null without the conditional estimator, outside steady-state runs or with
         * fewer than {@value ControlVariate#MIN_UNITS} units.
         */
        private List<QuantileEstimate> controlledQuantiles() {
            OptionalDouble busy = sc.stationaryBusyFraction();
            if (busy.isEmpty() || units.size() < ControlVariate.MIN_UNITS
                    || units.get(0).conditionalResponseQuantiles() == null) {
                return null;
            }
            int m = units.size();
            double[] control = new double[m];
            for (int k = 0; k < m; k++) {
                double[] x = units.get(k).tail();
                control[k] = x.length > 1 ? x[1] : 0;
            }
            double[] ps = sc.observation().percentiles();
            List<QuantileEstimate> out = new ArrayList<>(ps.length);
            double[] theta = new double[m];
            for (int j = 0; j < ps.length; j++) {
                for (int k = 0; k < m; k++) {
                    theta[k] = units.get(k).conditionalResponseQuantiles()[j];
                }
                out.add(new QuantileEstimate(ps[j], ControlVariate.estimate(theta, control, busy.getAsDouble())));
            }
            return out;
        }

        /** Student t over the units of each unit's quantile estimates, or null when the units have none. */
        private List<QuantileEstimate> quantiles(java.util.function.Function<UnitResult, double[]> of) {
            double[] ps = sc.observation().percentiles();
            if (units.isEmpty() || of.apply(units.get(0)) == null) {
                return null;
            }
            List<QuantileEstimate> out = new ArrayList<>(ps.length);
            for (int j = 0; j < ps.length; j++) {
                final int col = j;
                out.add(new QuantileEstimate(ps[j], over(units, u -> of.apply(u)[col])));
            }
            return out;
        }

        /** Mean and Student t interval over the replications at each grid time, rows of one width. */
        private List<VectorEstimate> trajectory() {
            int width = 1;
            for (double[] mean : trajMean) {
                for (int i = mean.length - 1; i >= width; i--) {
                    if (mean[i] > 0) {
                        width = i + 1;
                        break;
                    }
                }
            }
            double q = count > 1 ? StudentT.quantile975(count - 1) : Double.NaN;
            List<VectorEstimate> rows = new ArrayList<>(trajMean.length);
            for (int k = 0; k < trajMean.length; k++) {
                double[] tm = new double[width];
                double[] tl = new double[width];
                double[] th = new double[width];
                for (int i = 0; i < width; i++) {
                    double mu = i < trajMean[k].length ? trajMean[k][i] : 0;
                    double m2 = i < trajM2[k].length ? trajM2[k][i] : 0;
                    double half = count > 1 ? q * Math.sqrt(Math.max(m2, 0) / (count - 1) / count) : Double.NaN;
                    tm[i] = mu;
                    tl[i] = mu - half;
                    th[i] = mu + half;
                }
                rows.add(new VectorEstimate(tm, tl, th, count));
            }
            return rows;
        }
    }

    /**
     * {@code N·Cov(X_i, X_j) = N·(E[X_i X_j] − E[X_i]E[X_j])} from the units' time averages, with the
     * means of all units (a unit's own mean would bias the estimate down by the variance of unit
     * means, O(relaxation time / unit length)). The interval is the jackknife's: leave-one-unit-out
     * estimates {@code C_(−k)} give pseudo-values {@code m·C − (m−1)·C_(−k)}, whose mean (the
     * bias-corrected estimate) and Student t interval are reported.
     */
    private static MatrixEstimate covariance(List<UnitResult> units, int kc, int n) {
        int m = units.size();
        double[] sumX = new double[kc];
        double[] sumM = new double[kc * kc];
        for (UnitResult u : units) {
            for (int i = 0; i < kc; i++) {
                sumX[i] += i + 1 < u.tail().length ? u.tail()[i + 1] : 0;
            }
            for (int a = 0; a < kc * kc; a++) {
                sumM[a] += u.products()[a];
            }
        }
        double[][] mean = new double[kc][kc];
        double[][] half = new double[kc][kc];
        double[] pseudo = new double[m];
        for (int i = 0; i < kc; i++) {
            for (int j = 0; j < kc; j++) {
                int a = i * kc + j;
                double full = n * (sumM[a] / m - (sumX[i] / m) * (sumX[j] / m));
                for (int k = 0; k < m; k++) {
                    UnitResult u = units.get(k);
                    double xi = i + 1 < u.tail().length ? u.tail()[i + 1] : 0;
                    double xj = j + 1 < u.tail().length ? u.tail()[j + 1] : 0;
                    double loo = m > 1
                            ? n * ((sumM[a] - u.products()[a]) / (m - 1)
                                    - ((sumX[i] - xi) / (m - 1)) * ((sumX[j] - xj) / (m - 1)))
                            : full;
                    pseudo[k] = m * full - (m - 1) * loo;
                }
                Estimate e = StudentT.estimate(pseudo);
                mean[i][j] = e.mean();
                half[i][j] = e.halfWidth();
            }
        }
        return new MatrixEstimate(mean, half, m);
    }

    private static Estimate over(List<UnitResult> units, java.util.function.ToDoubleFunction<UnitResult> f) {
        double[] obs = new double[units.size()];
        for (int k = 0; k < obs.length; k++) {
            obs[k] = f.applyAsDouble(units.get(k));
        }
        return StudentT.estimate(obs);
    }
}
