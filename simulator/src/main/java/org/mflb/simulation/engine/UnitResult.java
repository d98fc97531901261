package org.mflb.simulation.engine;

import java.util.Map;

/**
 * The estimators of one unit of observation: a batch of a single long run, or the whole measured
 * window {@code [warmup, T]} of one replication. Ratios with an empty denominator are NaN (the
 * aggregation leaves such units out).
 *
 * @param tail time-averaged tail vector {@code x̄_0..x̄_H}
 * @param products time averages {@code M̄_ij} of {@code X_i X_j}, 1 ≤ i, j ≤ K, row-major, or {@code null}
 * @param meanResponse mean response time of the jobs that left in the unit (queues; NaN otherwise)
 * @param meanWaiting mean waiting time (before service) of the same jobs
 * @param blocking fraction of the unit's arrivals that were lost
 * @param idleFraction fraction of the unit's arrivals sent to an idle server (empty pool)
 * @param arrivalRate arrivals per server and unit time in the unit
 * @param arrivals number of arrivals in the unit
 * @param completions number of jobs that left in the unit and entered the per-job estimators
 * @param policy the dispatcher's named statistics for the unit
 * @param responseQuantiles per-job response-time quantiles at the scenario's percentiles, or
 *        {@code null} when the engine does not measure jobs (NaN entries: no job completed)
 * @param conditionalResponseQuantiles quantiles of the conditional (Erlang mixture) estimator, or
 *        {@code null} when it is not exact or not asked for
 * @param classQueueLengths time-averaged jobs per server of each class (servers of different speeds,
 *        docs/models.md §10), or {@code null} for servers of one speed
 * @param classArrivalRates arrivals per server of each class and unit time, or {@code null}
 * @param meanJobs time-averaged number of jobs per server when the engine integrates it directly
 *        (the workload engine, whose tail vector stops at {@code x̄_1}); NaN when it is
 *        {@code Σ_{i≥1} x̄_i}
 */
public record UnitResult(double[] tail, double[] products, double meanResponse, double meanWaiting,
        double blocking, double idleFraction, double arrivalRate, long arrivals, long completions,
        Map<String, Double> policy, double[] responseQuantiles, double[] conditionalResponseQuantiles,
        double[] classQueueLengths, double[] classArrivalRates, double meanJobs) {

    /** @return mean number of jobs per server: {@link #meanJobs()} where measured, else {@code Σ_{i≥1} x̄_i} */
    public double meanQueueLength() {
        if (!Double.isNaN(meanJobs)) {
            return meanJobs;
        }
        double s = 0;
        for (int i = 1; i < tail.length; i++) {
            s += tail[i];
        }
        return s;
    }
}
