package org.mflb.core.ode;

import java.util.Arrays;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PiecewiseLinearRate;

/**
 * {@code λ} as a function of the time elapsed since an origin, {@code τ = t − origin}. The
 * piecewise-smooth solvers integrate each stretch between knots of {@code λ(t)} on a clock started at
 * its beginning: at {@code t = 10^5} a time itself is only known to {@code 1.5e-11}, so a stage time
 * {@code t + c·h} formed in absolute time moves {@code λ} by up to {@code 1.5e-11} times its slope,
 * noise which the error estimate of a coordinate integrated to relative accuracy near 0 (the
 * distance to a switching surface) reads as error, and shrinks the steps towards nothing (the
 * "minimal step size" failures of issue 28). On the clock, {@code τ} is exact to {@code ulp(τ)} and
 * {@code λ = λ(origin) + slope·τ} on a piecewise-linear rate (never evaluated past the next knot).
 * Not thread-safe.
 */
public final class LocalRate {

    private final ArrivalRate rate;
    private final double[] times;
    private final double[] rates;
    private double origin;
    private double start;
    private double slope;
    private boolean affine;

    /** @param rate the rate {@code λ(t)}; the clock starts at 0 */
    public LocalRate(ArrivalRate rate) {
        this.rate = rate;
        if (rate instanceof PiecewiseLinearRate p) {
            this.times = p.times();
            this.rates = p.rates();
        } else {
            this.times = null;
            this.rates = null;
        }
        restart(0);
    }

    /** @return the rate in absolute time */
    public ArrivalRate rate() {
        return rate;
    }

    /** @return the origin of the clock */
    public double origin() {
        return origin;
    }

    /**
     * Starts the clock at {@code t}: from there on {@code λ} is the rate's piece to the right of {@code t}
     * (valid up to its next knot).
     *
     * @param t the new origin
     */
    public void restart(double t) {
        origin = t;
        start = rate.at(t);
        if (rate.isConstant()) {
            slope = 0;
            affine = true;
        } else if (times != null) {
            int k = Arrays.binarySearch(times, t);
            int i = k >= 0 ? k : -k - 2;
            slope = i < 0 || i >= times.length - 1 ? 0.0 : (rates[i + 1] - rates[i]) / (times[i + 1] - times[i]);
            affine = true;
        } else {
            affine = false;
        }
    }

    /**
     * Moves the origin of the clock forward by {@code tau} within the same piece of {@code λ} (to where
     * a switch was located): {@code λ} at the new origin is exactly the value the clock gave at
     * {@code tau}, so that what is decided there agrees with the switching function that found it.
     *
     * @param tau the time since the origin, up to the next knot
     */
    public void advance(double tau) {
        if (affine) {
            start = start + slope * tau;
        }
        origin = origin + tau;
    }

    /**
     * @return whether {@code λ} is constant from the origin on: a constant rate, or a piecewise-linear one
     *         past its last knot (it is constant outside its times)
     */
    public boolean constantFromOrigin() {
        return rate.isConstant() || times != null && times.length > 0 && origin >= times[times.length - 1];
    }

    /**
     * @param tau time since the origin ({@code ≥ 0}, up to the next knot)
     * @return {@code λ(origin + τ)}
     */
    public double at(double tau) {
        return affine ? start + slope * tau : rate.at(origin + tau);
    }
}
