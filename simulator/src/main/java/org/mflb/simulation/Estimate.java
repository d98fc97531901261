package org.mflb.simulation;

/**
 * A point estimate with its 95% confidence interval {@code [ci95Low, ci95High]}, from {@code samples}
 * independent (replications) or approximately independent (batch means) observations. With fewer
 * than two observations the interval is undefined and both ends are NaN.
 *
 * @param mean the estimate
 * @param ci95Low lower end of the 95% confidence interval
 * @param ci95High upper end of the 95% confidence interval
 * @param samples number of observations behind the interval
 */
public record Estimate(double mean, double ci95Low, double ci95High, int samples) {

    /** @return half the width of the confidence interval */
    public double halfWidth() {
        return 0.5 * (ci95High - ci95Low);
    }

    /**
     * @return this estimate of a fraction with its interval cut to {@code [0, 1]}, where every
     *         fraction lies (the normal approximation can reach past either end near 0 or 1)
     */
    public Estimate asFraction() {
        return new Estimate(mean, Math.max(0.0, ci95Low), Math.min(1.0, ci95High), samples);
    }

    /** @return whether {@code value} lies in the confidence interval */
    public boolean covers(double value) {
        return value >= ci95Low && value <= ci95High;
    }
}
