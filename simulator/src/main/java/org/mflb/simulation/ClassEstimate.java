package org.mflb.simulation;

/**
 * What a simulation measured for one class of servers of different speeds (docs/models.md §10), each
 * estimate with its 95% confidence interval (the same units of observation as the other estimates).
 *
 * @param fraction {@code a_k}
 * @param speed {@code s_k}
 * @param servers {@code N_k = N·a_k}
 * @param meanQueueLength time-averaged jobs per class-k server, {@code E[Q_k]}
 * @param meanResponseTime mean response time of the jobs sent to class k, by Little's law per class and
 *        unit: {@code E[Q_k]/λ_k}
 * @param arrivalRate arrivals per class-k server and unit time, {@code λ_k}
 */
public record ClassEstimate(double fraction, double speed, int servers, Estimate meanQueueLength,
        Estimate meanResponseTime, Estimate arrivalRate) {
}
