package org.mflb.simulation.population;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.commons.rng.UniformRandomProvider;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.VectorEstimate;
import org.mflb.simulation.engine.ReplicationStreams;
import org.mflb.simulation.stat.StudentT;

/**
 * Exact stochastic simulation of the N-object chain of a model file ({@link PopulationChain}) by
 * Gillespie's direct method on a sum tree with a dependency graph: the time to the next event is
 * exponential with the total rate, the event is chosen in proportion to its rate by one descent of
 * the tree, and only the rates that read a changed coordinate are recomputed, so an event costs
 * {@code O(d log L)} for {@code d} dependent rates out of {@code L}, not {@code O(L)}.
 *
 * <p>Estimates: the time average of {@code x = n/N} over {@code [warmup, tEnd]} (95% Student-t
 * intervals over replications, or over batch means for one replication), and, with a time step,
 * {@code x} at {@code 0, dt, 2dt, … ≤ tEnd} (intervals over replications). Replication {@code r}
 * draws from {@link ReplicationStreams#create}{@code (seed, r)} and results are combined in
 * replication order: the same seed gives the same numbers on any number of threads.
 */
public final class PopulationSimulation {

    /**
     * What to simulate.
     *
     * @param objects {@code N ≥ 1}
     * @param tEnd horizon {@code > 0}
     * @param warmup time discarded before the time average, in {@code [0, tEnd)}
     * @param dt spacing of the recorded trajectory, {@code > 0}, or {@code NaN} for none
     * @param replications {@code ≥ 1}
     * @param batches batch means with one replication, {@code ≥ 2}
     * @param seed the seed
     * @param threads worker threads {@code ≥ 1}
     */
    public record Settings(int objects, double tEnd, double warmup, double dt, int replications, int batches,
            long seed, int threads) {

        /** Validates. */
        public Settings {
            Require.atLeast("n", objects, 1);
            Require.positive("t-end", tEnd);
            if (!(warmup >= 0 && warmup < tEnd)) {
                throw MflbException.invalid("warmup", warmup, "in [0, t-end) = [0, " + tEnd + ")");
            }
            if (!Double.isNaN(dt)) {
                Require.positive("dt", dt);
                if (tEnd / dt > 1e6) {
                    throw MflbException.invalid("dt", dt, "at least t-end / 1e6 (at most a million grid points)");
                }
            }
            Require.atLeast("replications", replications, 1);
            Require.atLeast("batches", batches, 2);
            Require.atLeast("threads", threads, 1);
        }
    }

    /**
     * The estimates.
     *
     * @param timeAverage time average of {@code x} over {@code [warmup, tEnd]}, per coordinate
     * @param times the grid ({@code dt}), empty without one
     * @param trajectory {@code x} at each grid time (intervals over replications), empty without a grid
     * @param events events simulated over all replications
     * @param wallSeconds wall-clock time of the run
     */
    public record Result(VectorEstimate timeAverage, double[] times, VectorEstimate[] trajectory, long events,
            double wallSeconds) {

        /** @return events per second of wall-clock time */
        public double eventsPerSecond() {
            return wallSeconds > 0 ? events / wallSeconds : Double.NaN;
        }
    }

    /** One replication's observations. */
    private record Run(double[][] units, double[][] snapshots, long events) { }

    private PopulationSimulation() {
    }

    /**
     * @param file the model
     * @param settings what to simulate
     * @return the estimates
     */
    public static Result run(ModelFile file, Settings settings) {
        PopulationChain chain = new PopulationChain(file, settings.objects());
        double[] grid = grid(settings);
        long start = System.nanoTime();
        List<Run> runs = replications(chain, settings, grid);
        double wall = (System.nanoTime() - start) * 1e-9;
        int k = file.dimension();
        List<double[]> units = new ArrayList<>();
        long events = 0;
        for (Run r : runs) {
            java.util.Collections.addAll(units, r.units());
            events += r.events();
        }
        VectorEstimate average = estimate(units, k);
        VectorEstimate[] trajectory = new VectorEstimate[grid.length];
        for (int g = 0; g < grid.length; g++) {
            List<double[]> at = new ArrayList<>();
            for (Run r : runs) {
                at.add(r.snapshots()[g]);
            }
            trajectory[g] = estimate(at, k);
        }
        return new Result(average, grid, trajectory, events, wall);
    }

    /**
     * The stationary scaled covariance {@code N·Cov(x_i, x_j)}: in each replication, the sample
     * covariance of the state read every {@code spacing} time units over {@code [warmup, tEnd]}
     * (times {@code N}); 95% Student-t intervals over the replications ({@code ≥ 2}). The
     * settings' {@code dt} is ignored.
     *
     * @param file the model
     * @param settings run lengths, replications, seed and threads
     * @param spacing time between readings, {@code > 0}
     * @return the estimate, {@code K×K}
     */
    public static org.mflb.simulation.MatrixEstimate covariance(ModelFile file, Settings settings, double spacing) {
        Require.positive("spacing", spacing);
        Require.atLeast("replications", settings.replications(), 2);
        int readings = (int) Math.floor((settings.tEnd() - settings.warmup()) / spacing);
        if (readings < 2 || readings > 10_000_000) {
            throw MflbException.invalid("spacing", spacing, "giving between 2 and 1e7 readings in [warmup, t-end]");
        }
        double[] grid = new double[readings];
        for (int g = 0; g < readings; g++) {
            grid[g] = settings.warmup() + (g + 1) * spacing;
        }
        PopulationChain chain = new PopulationChain(file, settings.objects());
        List<Run> runs = replications(chain, settings, grid);
        int k = file.dimension();
        double[][][] perRun = new double[runs.size()][][];
        for (int r = 0; r < runs.size(); r++) {
            double[][] snaps = runs.get(r).snapshots();
            double[] mean = new double[k];
            for (double[] x : snaps) {
                for (int i = 0; i < k; i++) {
                    mean[i] += x[i] / snaps.length;
                }
            }
            double[][] cov = new double[k][k];
            for (double[] x : snaps) {
                for (int i = 0; i < k; i++) {
                    for (int j = 0; j < k; j++) {
                        cov[i][j] += (x[i] - mean[i]) * (x[j] - mean[j]);
                    }
                }
            }
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < k; j++) {
                    cov[i][j] *= settings.objects() / (snaps.length - 1.0);
                }
            }
            perRun[r] = cov;
        }
        double[][] mean = new double[k][k];
        double[][] half = new double[k][k];
        double[] column = new double[runs.size()];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                for (int r = 0; r < column.length; r++) {
                    column[r] = perRun[r][i][j];
                }
                Estimate e = StudentT.estimate(column);
                mean[i][j] = e.mean();
                half[i][j] = e.halfWidth();
            }
        }
        return new org.mflb.simulation.MatrixEstimate(mean, half, runs.size());
    }

    private static double[] grid(Settings s) {
        if (Double.isNaN(s.dt())) {
            return new double[0];
        }
        int steps = (int) Math.floor(s.tEnd() / s.dt() * (1 + 1e-12));
        double[] g = new double[steps + 1];
        for (int i = 0; i <= steps; i++) {
            g[i] = i * s.dt();
        }
        return g;
    }

    private static VectorEstimate estimate(List<double[]> observations, int k) {
        double[] mean = new double[k];
        double[] low = new double[k];
        double[] high = new double[k];
        double[] column = new double[observations.size()];
        int samples = 0;
        for (int i = 0; i < k; i++) {
            for (int u = 0; u < column.length; u++) {
                column[u] = observations.get(u)[i];
            }
            Estimate e = StudentT.estimate(column);
            mean[i] = e.mean();
            low[i] = e.ci95Low();
            high[i] = e.ci95High();
            samples = e.samples();
        }
        return new VectorEstimate(mean, low, high, samples);
    }

    private static List<Run> replications(PopulationChain chain, Settings s, double[] grid) {
        int reps = s.replications();
        int threads = Math.min(s.threads(), reps);
        List<Run> runs = new ArrayList<>(reps);
        if (threads == 1) {
            for (int r = 0; r < reps; r++) {
                runs.add(replicate(chain, s, grid, ReplicationStreams.create(s.seed(), r)));
            }
            return runs;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread th = new Thread(runnable, "mflb-population-simulation");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Future<Run>> futures = new ArrayList<>(reps);
            for (int r = 0; r < reps; r++) {
                final int index = r;
                futures.add(pool.submit(() -> replicate(chain, s, grid, ReplicationStreams.create(s.seed(), index))));
            }
            for (Future<Run> f : futures) {
                runs.add(f.get());
            }
            return runs;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MflbException(ErrorKind.INPUT, null, "simulation interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One replication: steady-state units (the whole window, or the batches of one replication)
     * and the snapshots at the grid times.
     */
    static Run replicate(PopulationChain chain, Settings s, double[] grid, UniformRandomProvider rng) {
        PopulationChain.Path path = chain.start();
        int k = chain.file().dimension();
        boolean batchMeans = s.replications() == 1;
        int units = batchMeans ? s.batches() : 1;
        double window = (s.tEnd() - s.warmup()) / units;
        // Boundaries at which the integrals are read: warmup, then the end of each unit.
        double[] boundary = new double[units + 1];
        for (int b = 0; b <= units; b++) {
            boundary[b] = b == units ? s.tEnd() : s.warmup() + b * window;
        }
        double[][] observed = new double[units][];
        double[][] snapshots = new double[grid.length][];
        int nextBoundary = 0;
        int nextGrid = 0;
        double t = 0;
        while (true) {
            double total = path.totalRate();
            double next = total > 0 ? t - Math.log1p(-rng.nextDouble()) / total : Double.POSITIVE_INFINITY;
            // Observations due before the next event see the current state.
            while (nextGrid < grid.length && grid[nextGrid] < Math.min(next, Double.MAX_VALUE) && grid[nextGrid] <= s.tEnd()) {
                snapshots[nextGrid++] = path.x.clone();
            }
            while (nextBoundary <= units && boundary[nextBoundary] <= next) {
                double at = boundary[nextBoundary];
                if (nextBoundary > 0) {
                    double[] integral = path.integrals(at);
                    for (int i = 0; i < k; i++) {
                        integral[i] /= window;
                    }
                    observed[nextBoundary - 1] = integral;
                }
                path.resetIntegrals(at);
                nextBoundary++;
            }
            if (next >= s.tEnd() || nextBoundary > units) {
                break;
            }
            double target = rng.nextDouble() * total;
            int l = path.select(target);
            while (path.rateOf(l) <= 0) { // rounding at a boundary of the cumulative sums
                l = path.select(rng.nextDouble() * total);
            }
            t = next;
            path.fire(l, t);
        }
        while (nextGrid < grid.length) {
            snapshots[nextGrid++] = path.x.clone();
        }
        return new Run(observed, snapshots, path.events);
    }
}
