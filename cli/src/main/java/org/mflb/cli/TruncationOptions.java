package org.mflb.cli;

import org.mflb.fluid.Truncation;

import picocli.CommandLine.Option;

/** {@code --truncation} and {@code --tail-tolerance}: the levels the fluid commands keep (fixed-point, transient, compare, diffusion). */
public final class TruncationOptions {

    @Option(names = "--truncation", paramLabel = "K", description = "Keep exactly K levels (default: chosen automatically).")
    Integer truncation;

    @Option(names = "--tail-tolerance", paramLabel = "EPS", defaultValue = "1e-12",
            description = "Largest tail mass an automatic truncation may cut off (default: ${DEFAULT-VALUE}).")
    double tailTolerance;

    /**
     * An automatic truncation cuts off at most this share of the smallest tail probability
     * {@code 1 − p/100} of a percentile asked for, so the quantile lies inside the levels kept.
     */
    static final double QUANTILE_MARGIN = 1e-3;

    /** The smallest tail probability {@code 1 − p/100} of the percentiles reported (1: none). */
    private double quantileTail = 1;

    /**
     * Makes an automatic truncation keep the levels these percentiles reach: {@code p = 99.9999999999999}
     * needs a tail of 1e-15, far below the default tolerance 1e-12.
     *
     * @param percentiles the percentiles the command reports, in (0, 100)
     */
    void holdQuantiles(double[] percentiles) {
        for (double p : percentiles) {
            quantileTail = Math.min(quantileTail, 1 - p / 100);
        }
    }

    /** @return the tail mass the rule may cut off: --tail-tolerance, tightened by {@link #holdQuantiles} */
    double tolerance() {
        return Math.min(tailTolerance, QUANTILE_MARGIN * quantileTail);
    }

    /** @return whether --truncation K fixed the levels */
    boolean fixed() {
        return truncation != null;
    }

    /** @return the truncation rule */
    Truncation rule() {
        return truncation == null ? Truncation.automatic(tolerance()) : Truncation.fixed(truncation);
    }
}
