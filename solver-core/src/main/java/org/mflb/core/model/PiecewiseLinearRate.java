package org.mflb.core.model;

import java.util.Arrays;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * A per-server arrival rate that interpolates linearly between knots {@code (t_i, λ_i)},
 * {@code t_0 < t_1 < … < t_{n−1}}, and is constant outside them:
 * <pre>
 *   λ(t) = λ_0                                              t ≤ t_0
 *   λ(t) = λ_i + (λ_{i+1} − λ_i)(t − t_i)/(t_{i+1} − t_i)    t_i ≤ t ≤ t_{i+1}
 *   λ(t) = λ_{n−1}                                          t ≥ t_{n−1}
 * </pre>
 * Its supremum over an interval is attained at an end or at a knot, and its integral is a sum of
 * trapezoids, so both are exact; {@link #inverseIntegral} solves {@code Λ(t0, t) = mass} exactly
 * (a quadratic on one piece), for sampling arrival times by inversion. Read from a CSV file by
 * {@link ArrivalProfiles#read}.
 */
public final class PiecewiseLinearRate implements ArrivalRate {

    private final double[] times;
    private final double[] rates;
    /** {@code cumulative[i] = ∫_{t_0}^{t_i} λ}. */
    private final double[] cumulative;
    private final boolean constant;

    /**
     * @param times knot times, finite and strictly increasing (not modified; copied)
     * @param rates rates at the knots, finite and {@code >= 0} (not modified; copied)
     * @throws MflbException (INVALID_PARAMETER) when the knots are empty, of different lengths,
     *         unsorted, repeated or not finite, or a rate is negative or not finite
     */
    public PiecewiseLinearRate(double[] times, double[] rates) {
        if (times == null || rates == null || times.length == 0 || times.length != rates.length) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "knots",
                    "knots are invalid: need at least one (t, lambda) pair and as many times as rates");
        }
        int n = times.length;
        this.times = times.clone();
        this.rates = rates.clone();
        for (int i = 0; i < n; i++) {
            double t = this.times[i];
            double r = this.rates[i];
            if (!Double.isFinite(t)) {
                throw MflbException.invalid("t[" + i + "]", t, "a finite number");
            }
            if (i > 0 && !(t > this.times[i - 1])) {
                throw MflbException.invalid("t[" + i + "]", t,
                        "> t[" + (i - 1) + "] = " + this.times[i - 1] + " (times strictly increasing)");
            }
            if (!(r >= 0) || !Double.isFinite(r)) {
                throw MflbException.invalid("lambda[" + i + "]", r, "a finite number >= 0");
            }
        }
        this.cumulative = new double[n];
        boolean same = true;
        for (int i = 1; i < n; i++) {
            cumulative[i] = cumulative[i - 1] + 0.5 * (this.times[i] - this.times[i - 1]) * (this.rates[i] + this.rates[i - 1]);
            same &= this.rates[i] == this.rates[0];
        }
        this.constant = same;
    }

    /** @return a copy of the knot times */
    public double[] times() {
        return times.clone();
    }

    /** @return a copy of the knot rates */
    public double[] rates() {
        return rates.clone();
    }

    /** @return the index {@code i} of the piece {@code [t_i, t_{i+1})} holding {@code t}; −1 before {@code t_0}, {@code n−1} from {@code t_{n−1}} */
    private int piece(double t) {
        int k = Arrays.binarySearch(times, t);
        return k >= 0 ? k : -k - 2;
    }

    /** @return {@code λ(t)} on piece {@code i} */
    private double rateOn(int i, double t) {
        if (i < 0) {
            return rates[0];
        }
        if (i >= times.length - 1) {
            return rates[times.length - 1];
        }
        double w = (t - times[i]) / (times[i + 1] - times[i]);
        return rates[i] + (rates[i + 1] - rates[i]) * w;
    }

    /** @return the slope of {@code λ} on piece {@code i} (0 outside the knots) */
    private double slopeOn(int i) {
        if (i < 0 || i >= times.length - 1) {
            return 0.0;
        }
        return (rates[i + 1] - rates[i]) / (times[i + 1] - times[i]);
    }

    /** @return the end of piece {@code i} */
    private double endOf(int i) {
        return i >= times.length - 1 ? Double.POSITIVE_INFINITY : times[i + 1];
    }

    @Override
    public double at(double t) {
        if (Double.isNaN(t)) {
            return Double.NaN;
        }
        return rateOn(piece(t), t);
    }

    @Override
    public boolean isConstant() {
        return constant;
    }

    /** Exact: the maximum of {@code λ} at the ends of the interval and at the knots inside it. */
    @Override
    public double supremum(double t0, double t1) {
        double lo = Math.min(t0, t1);
        double hi = Math.max(t0, t1);
        double max = Math.max(at(lo), at(hi));
        int first = piece(lo) + 1;
        for (int i = Math.max(first, 0); i < times.length && times[i] < hi; i++) {
            max = Math.max(max, rates[i]);
        }
        return max;
    }

    /** Exact: a sum of trapezoids (linear pieces) and rectangles (constant extrapolation). */
    @Override
    public double integral(double t0, double t1) {
        if (t1 < t0) {
            return -integral(t1, t0);
        }
        if (t0 == t1) {
            return 0.0;
        }
        int i = piece(t0);
        int j = piece(t1);
        if (i == j) {
            return 0.5 * (t1 - t0) * (rateOn(i, t0) + rateOn(i, t1));
        }
        // t0 in piece i, t1 in piece j > i: [t0, t_{i+1}] + [t_{i+1}, t_j] + [t_j, t1]
        double head = 0.5 * (times[i + 1] - t0) * (rateOn(i, t0) + rates[i + 1]);
        double middle = cumulative[j] - cumulative[i + 1];
        double tail = 0.5 * (t1 - times[j]) * (rates[j] + rateOn(j, t1));
        return head + middle + tail;
    }

    /**
     * The inverse of the cumulative rate: the smallest {@code t ≥ t0} with
     * {@code Λ(t0, t) = mass}. Arrival times of a Poisson process of rate {@code N·λ} are
     * {@code inverseIntegral(t, E/N)} with {@code E} a unit exponential.
     *
     * @param t0 start time
     * @param mass {@code >= 0}
     * @return the time, or {@code +∞} when the total rate after {@code t0} is less than {@code mass}
     */
    public double inverseIntegral(double t0, double mass) {
        if (!(mass >= 0)) {
            throw MflbException.invalid("mass", mass, ">= 0");
        }
        int i = piece(t0);
        double start = t0;
        double rate = rateOn(i, t0);
        double remaining = mass;
        double end = endOf(i);
        double pieceMass = end == Double.POSITIVE_INFINITY
                ? (rate > 0 ? Double.POSITIVE_INFINITY : 0.0)
                : 0.5 * (end - t0) * (rate + rateOn(i, end));
        if (remaining > pieceMass && end == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY; // zero rate forever after t0
        }
        if (remaining > pieceMass) {
            // Not in the first piece: locate the piece by the cumulative rate at the knots.
            remaining -= pieceMass;
            double target = cumulative[i + 1] + remaining;
            int k = Arrays.binarySearch(cumulative, i + 1, cumulative.length, target);
            int j = k >= 0 ? k : -k - 2;
            // the smallest knot at which the target is reached: step back over flat (λ = 0) stretches
            while (j > i + 1 && cumulative[j - 1] >= target) {
                j--;
            }
            if (k >= 0) {
                return times[j];
            }
            i = j;
            start = times[j];
            rate = rates[j];
            remaining = target - cumulative[j];
            if (j == times.length - 1 && rate == 0) {
                return Double.POSITIVE_INFINITY;
            }
        }
        // λ(start) x + s x²/2 = remaining on this piece; the root written without cancellation
        double s = slopeOn(i);
        double x = 2.0 * remaining / (rate + Math.sqrt(Math.max(0.0, rate * rate + 2.0 * s * remaining)));
        if (Double.isNaN(x)) {
            // remaining = 0 with zero rate at start
            return start;
        }
        return Math.min(start + x, endOf(i));
    }

    @Override
    public String toString() {
        return "PiecewiseLinearRate" + Arrays.toString(times) + "->" + Arrays.toString(rates);
    }
}
