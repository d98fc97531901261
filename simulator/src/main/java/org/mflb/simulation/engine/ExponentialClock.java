package org.mflb.simulation.engine;

import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * The pending event of an engine whose next event comes after an exponential time of the current
 * total rate, when the arrival part of that rate changes at a checkpoint (a new thinning window).
 */
final class ExponentialClock {

    private ExponentialClock() {
    }

    /**
     * The residual {@code (pending − t)·before} of an Exp(before) clock is Exp(1) and independent of
     * the past, so {@code t + (pending − t)·before/after} is an Exp(after) time from {@code t}: exact,
     * and it draws nothing (common random numbers). A fresh time is drawn only at the start
     * ({@code previousBound} NaN) or when no event was pending (total rate 0).
     *
     * @param pending the pending event time (NaN before the first)
     * @param t the current time
     * @param previousBound the former arrival-candidate rate {@code N·λ̄}, NaN at the start
     * @param bound the new one
     * @param other the rest of the total rate (departures), unchanged
     * @param exp1 sampler of Exp(1)
     * @return the new pending event time
     */
    static double next(double pending, double t, double previousBound, double bound, double other,
            ContinuousSampler exp1) {
        double after = bound + other;
        if (Double.isNaN(previousBound) || !(pending < Double.POSITIVE_INFINITY)) {
            return t + exp1.sample() / after;
        }
        double before = previousBound + other;
        return t + (pending - t) * (before / after);
    }
}
