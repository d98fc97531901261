/**
 * Figures: {@link Figure}, a headless XChart plot that draws predictions as lines and simulated estimates
 * as markers with 95% confidence bars, series that belong together sharing a colour, on linear or log
 * axes, written as PNG. The validation report, {@code compare} and the sweeps draw with it.
 *
 * <p>No mathematics lives here, so nothing is cited. <b>Dependencies:</b> {@code org.mflb.core} and XChart
 * only. A figure draws the numbers it is given: this package must not depend on the models, the simulator,
 * the catalogue or the command line.
 */
package org.mflb.validation.plot;
