package org.mflb.simulation;

import java.util.Arrays;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * What a simulation measures besides its time averages: the tail vector on a time grid of step
 * {@code dt} (a transient run), the response-time percentiles, the covariance of the first tail
 * coordinates, and the batches of batch means. Immutable and validated at construction; an invalid
 * part raises an {@link MflbException} naming the parameter ({@code dt}, {@code percentiles},
 * {@code covariance-levels}, {@code batches}) and its valid range. That the grid fits the horizon is
 * checked by the {@link SimulationScenario}, which holds both.
 */
public final class Observation {

    /** Largest number of response-time percentiles. */
    public static final int MAX_PERCENTILES = 100;

    private static final Observation DEFAULT = new Observation(0, new double[0], 0, 20);

    private final double dt;
    private final double[] percentiles;
    private final int covarianceLevels;
    private final int batches;

    /**
     * @param dt the step of the time grid {@code 0, dt, 2dt, ... ≤ T} of the transient estimates, 0 for none
     * @param percentiles the response-time percentiles to estimate, each in (0, 100), at most
     *        {@link #MAX_PERCENTILES} (single-server queues; none: no quantile estimates)
     * @param covarianceLevels how many tail coordinates {@code x_1..x_K} enter the estimate of the
     *        stationary {@code N·Cov(X_i, X_j)}, in {@code [0, 256]} (0: none)
     * @param batches the batches of batch means, which give the intervals of a single replication, in
     *        {@code [2, 10000]}
     */
    public Observation(double dt, double[] percentiles, int covarianceLevels, int batches) {
        if (!(dt == 0 || (dt > 0 && dt < Double.POSITIVE_INFINITY))) {
            throw MflbException.invalid("dt", dt, "a finite number > 0 (or 0: no time grid)");
        }
        this.dt = dt;
        this.batches = Require.between("batches", batches, 2, 10_000);
        this.covarianceLevels = Require.between("covariance-levels", covarianceLevels, 0, 256);
        this.percentiles = percentiles.clone();
        if (this.percentiles.length > MAX_PERCENTILES) {
            throw MflbException.invalid("percentiles", this.percentiles.length + " values", "at most "
                    + MAX_PERCENTILES + " percentiles");
        }
        for (double p : this.percentiles) {
            if (!(p > 0 && p < 100)) {
                throw MflbException.invalid("percentiles", p, "in (0, 100)");
            }
        }
    }

    /** @return the defaults: no time grid, no percentiles, no covariance, 20 batches */
    public static Observation defaults() {
        return DEFAULT;
    }

    /** @return the step of the time grid of the transient estimates, 0 for none */
    public double dt() {
        return dt;
    }

    /** @return whether the run records the tail vector on a time grid (a transient run) */
    public boolean hasGrid() {
        return dt > 0;
    }

    /** @return the response-time percentiles to estimate, each in (0, 100) (empty: none) */
    public double[] percentiles() {
        return percentiles.clone();
    }

    /** @return how many tail coordinates {@code x_1..x_K} enter the covariance estimate (0: none) */
    public int covarianceLevels() {
        return covarianceLevels;
    }

    /** @return the number of batches for batch means (used with one replication) */
    public int batches() {
        return batches;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Observation other && dt == other.dt && covarianceLevels == other.covarianceLevels
                && batches == other.batches && Arrays.equals(percentiles, other.percentiles);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(dt) + 31 * (covarianceLevels + 31 * (batches + 31 * Arrays.hashCode(percentiles)));
    }

    @Override
    public String toString() {
        return "Observation[dt=" + dt + ", percentiles=" + Arrays.toString(percentiles) + ", covarianceLevels="
                + covarianceLevels + ", batches=" + batches + "]";
    }
}
