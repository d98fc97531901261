package org.mflb.simulation;

/**
 * An estimated quantile of the response time: the mean over the units of observation (replications
 * or batches) of each unit's quantile estimate, with the Student t interval over the units.
 *
 * @param p the percentile, in (0, 100)
 * @param estimate the quantile's estimate and 95% interval
 */
public record QuantileEstimate(double p, Estimate estimate) {
}
