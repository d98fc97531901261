package org.mflb.simulation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.mflb.simulation.dispatch.LevelJump;

/**
 * What a simulation run measured, every estimate with its 95% confidence interval (Student t over
 * replications, or over batch means for a single replication; see {@link SimulationScenario}).
 * Immutable. Index {@code i} of a tail vector is the fraction of servers with at least {@code i}
 * jobs ({@code x_0 = 1}), as everywhere in mflb (docs/models.md §0).
 */
public final class SimulationResult {

    private final SimulationScenario scenario;
    private final String confidenceMethod;
    private final Estimate meanQueueLength;
    private final VectorEstimate tail;
    private final Estimate meanResponseTime;
    private final Estimate meanWaitingTime;
    private final Estimate blocking;
    private final Estimate idleArrivalFraction;
    private final Estimate arrivalRate;
    private final double[] times;
    private final List<VectorEstimate> tailTrajectory;
    private final MatrixEstimate covariance;
    private final Map<String, Estimate> policyStatistics;
    private final List<LevelJump> jumps;
    private final long events;
    private final double wallSeconds;
    private final Engine engine;
    private final List<QuantileEstimate> perJobQuantiles;
    private final List<QuantileEstimate> conditionalQuantiles;
    private final List<QuantileEstimate> controlVariateQuantiles;
    private final List<ClassEstimate> classes;

    SimulationResult(SimulationScenario scenario, String confidenceMethod, Estimate meanQueueLength,
            VectorEstimate tail, Estimate meanResponseTime, Estimate meanWaitingTime, Estimate blocking,
            Estimate idleArrivalFraction, Estimate arrivalRate, double[] times, List<VectorEstimate> tailTrajectory,
            MatrixEstimate covariance, Map<String, Estimate> policyStatistics, List<LevelJump> jumps, long events,
            double wallSeconds, Engine engine, List<QuantileEstimate> perJobQuantiles,
            List<QuantileEstimate> conditionalQuantiles, List<QuantileEstimate> controlVariateQuantiles,
            List<ClassEstimate> classes) {
        this.scenario = scenario;
        this.confidenceMethod = confidenceMethod;
        this.meanQueueLength = meanQueueLength;
        this.tail = tail;
        this.meanResponseTime = meanResponseTime;
        this.meanWaitingTime = meanWaitingTime;
        this.blocking = blocking;
        this.idleArrivalFraction = idleArrivalFraction;
        this.arrivalRate = arrivalRate;
        this.times = times.clone();
        this.tailTrajectory = List.copyOf(tailTrajectory);
        this.covariance = covariance;
        // insertion order (the dispatcher's), not Map.copyOf's order, which changes from one JVM run to the next
        this.policyStatistics = Collections.unmodifiableMap(new LinkedHashMap<>(policyStatistics));
        this.jumps = List.copyOf(jumps);
        this.events = events;
        this.wallSeconds = wallSeconds;
        this.engine = engine;
        this.perJobQuantiles = perJobQuantiles == null ? null : List.copyOf(perJobQuantiles);
        this.conditionalQuantiles = conditionalQuantiles == null ? null : List.copyOf(conditionalQuantiles);
        this.controlVariateQuantiles = controlVariateQuantiles == null ? null : List.copyOf(controlVariateQuantiles);
        this.classes = List.copyOf(classes);
    }

    /**
     * @return for servers of different speeds (docs/models.md §10), one entry per class in the order of
     *         the model's classes: its fraction, speed, mean queue length per server and mean response
     *         time; empty for servers of one speed ({@link #meanQueueLength()} is the mean over all
     *         servers either way)
     */
    public List<ClassEstimate> classes() {
        return classes;
    }

    /** @return the engine that ran the scenario ({@link Engine#AUTO} resolved) */
    public Engine engine() {
        return engine;
    }

    /**
     * @return the response-time quantiles at the scenario's percentiles (single-server queues): the
     *         conditional estimator's where it is exact (exponential FIFO service: both engines), else
     *         the per-job estimator's; empty when no percentile was asked for or for pools
     */
    public List<QuantileEstimate> responseTimeQuantiles() {
        if (conditionalQuantiles != null) {
            return conditionalQuantiles;
        }
        return perJobQuantiles != null ? perJobQuantiles : List.of();
    }

    /**
     * @return {@code "conditional"} or {@code "per-job"}: the estimator behind
     *         {@link #responseTimeQuantiles()}, or {@code "none"}
     */
    public String responseTimeQuantileMethod() {
        return conditionalQuantiles != null ? "conditional" : perJobQuantiles != null ? "per-job" : "none";
    }

    /**
     * @return the per-job estimator (each job's measured response time, HdrHistogram quantiles per
     *         unit), when the engine measures jobs (the agent engine)
     */
    public Optional<List<QuantileEstimate>> perJobResponseTimeQuantiles() {
        return Optional.ofNullable(perJobQuantiles);
    }

    /**
     * @return the conditional estimator (quantiles of the Erlang mixture over the levels arrivals
     *         joined), for exponential FIFO service
     */
    public Optional<List<QuantileEstimate>> conditionalResponseTimeQuantiles() {
        return Optional.ofNullable(conditionalQuantiles);
    }

    /**
     * @return the conditional estimator with the busy fraction as control variate: each unit's
     *         conditional quantile regressed on the unit's time-averaged {@code x̄_1}, whose
     *         stationary mean {@code λ·E[S]} is exact (regression estimator and interval with
     *         {@code m − 2} degrees of freedom, see {@link org.mflb.simulation.stat.ControlVariate}).
     *         The same quantity as {@link #conditionalResponseTimeQuantiles()}, with a several times
     *         narrower interval. Present with the conditional estimator in a steady-state run
     *         ({@link SimulationScenario#stationaryBusyFraction()}) with at least 3 units; valid only
     *         if the window {@code [warmup, tEnd]} is stationary (the warm-up long enough), which the
     *         other time averages assume too.
     */
    public Optional<List<QuantileEstimate>> controlVariateResponseTimeQuantiles() {
        return Optional.ofNullable(controlVariateQuantiles);
    }

    /** @return the scenario that was run */
    public SimulationScenario scenario() {
        return scenario;
    }

    /** @return {@code "replications"} or {@code "batch-means"} */
    public String confidenceMethod() {
        return confidenceMethod;
    }

    /**
     * @return time-averaged mean number of jobs per server (pool), {@code Σ_{i≥1} x_i}, after the warm-up
     *         (on the workload engine, whose tail stops at {@code x_1}, the time average of the jobs present)
     */
    public Estimate meanQueueLength() {
        return meanQueueLength;
    }

    /**
     * @return time-averaged tail vector after the warm-up, {@code x_0 = 1} up to the highest level seen
     *         ({@code x_0, x_1} only on the workload engine, which knows busy or idle but not queue lengths)
     */
    public VectorEstimate tail() {
        return tail;
    }

    /**
     * @return mean response (sojourn) time of the jobs leaving after the warm-up (single-server
     *         queues only; jobs present at time 0 excluded)
     */
    public Optional<Estimate> meanResponseTime() {
        return Optional.ofNullable(meanResponseTime);
    }

    /** @return mean waiting time before service, same jobs as {@link #meanResponseTime()} */
    public Optional<Estimate> meanWaitingTime() {
        return Optional.ofNullable(meanWaitingTime);
    }

    /** @return fraction of arrivals lost (loss pools only) */
    public Optional<Estimate> blocking() {
        return Optional.ofNullable(blocking);
    }

    /** @return fraction of arrivals sent to an idle server (a pool without tasks) */
    public Estimate idleArrivalFraction() {
        return idleArrivalFraction;
    }

    /** @return measured arrivals per server and unit time after the warm-up */
    public Estimate arrivalRate() {
        return arrivalRate;
    }

    /** @return the grid times of the transient estimates (empty without a grid) */
    public double[] times() {
        return times.clone();
    }

    /**
     * @return the tail vector at each grid time, averaged over the replications (intervals over
     *         replications; NaN ends with a single replication); every row has the same length
     */
    public List<VectorEstimate> tailTrajectory() {
        return tailTrajectory;
    }

    /** @return the time-averaged {@code N·Cov(X_i, X_j)}, 1 ≤ i, j ≤ K, when requested */
    public Optional<MatrixEstimate> covariance() {
        return Optional.ofNullable(covariance);
    }

    /** @return the dispatcher's named statistics (e.g. messages per task), empty for most policies */
    public Map<String, Estimate> policyStatistics() {
        return policyStatistics;
    }

    /** @return the dispatcher's level trace in replication 0 (e.g. the jumps of ℓ(t)) */
    public List<LevelJump> jumps() {
        return jumps;
    }

    /** @return number of simulated events (arrivals, lost ones included, and departures), all replications */
    public long events() {
        return events;
    }

    /** @return wall-clock time of the run in seconds */
    public double wallSeconds() {
        return wallSeconds;
    }

    /** @return simulated events per wall-clock second */
    public double eventsPerSecond() {
        return wallSeconds > 0 ? events / wallSeconds : Double.NaN;
    }

    /** @return the random generator and seeding scheme */
    public String generator() {
        return org.mflb.simulation.engine.ReplicationStreams.GENERATOR;
    }
}
