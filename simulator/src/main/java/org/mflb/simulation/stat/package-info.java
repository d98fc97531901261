/**
 * The simulator's interval estimators over independent units of observation (replications or batch means).
 * {@link StudentT} gives {@code x̄ ± t_{0.975, m−1} s/√m}; {@link ControlVariate} the regression estimator
 * of a mean whose control has an exactly known mean (Lavenberg and Welch 1981; docs/models.md §7), used
 * with the busy fraction {@code x_1}, whose steady-state mean is {@code λE[S]} at every {@code N}, to take
 * the slow occupancy fluctuation out of response-time quantiles. Observations are summed in the order
 * given, so results do not depend on thread scheduling.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.simulation} (the {@code Estimate} it returns) and Hipparchus's t
 * distribution only. It must not depend on the engines, nor on any fluid or PDE model.
 */
package org.mflb.simulation.stat;
