package org.mflb.validation;

/**
 * One number predicted by a model and measured by the simulator, with the simulator's 95%
 * confidence interval and the tolerance the prediction must meet. The tolerance is stated, not
 * implied: typically a few CI half-widths plus the model's known finite-N bias.
 *
 * @param quantity what is compared, e.g. {@code x_3} or {@code x_2(t = 5)}
 * @param predicted the model's value
 * @param simulated the simulated estimate
 * @param ci95Low lower end of its 95% confidence interval
 * @param ci95High upper end of its 95% confidence interval
 * @param tolerance largest accepted {@code |predicted − simulated|}
 */
public record Check(String quantity, double predicted, double simulated, double ci95Low, double ci95High,
        double tolerance) {

    /** @return {@code |predicted − simulated|} */
    public double error() {
        return Math.abs(predicted - simulated);
    }

    /** @return half-width of the confidence interval */
    public double halfWidth() {
        return (ci95High - ci95Low) / 2;
    }

    /** @return the error in units of the CI half-width ({@code +∞} for a zero-width interval and a non-zero error) */
    public double errorInHalfWidths() {
        double h = halfWidth();
        return h > 0 ? error() / h : error() == 0 ? 0 : Double.POSITIVE_INFINITY;
    }

    /** @return whether the prediction lies inside the confidence interval */
    public boolean withinCi() {
        return predicted >= ci95Low && predicted <= ci95High;
    }

    /**
     * @return whether the verdict says something: the tolerance is below {@code |predicted|}, so a
     *         prediction of 0 would fail. With a tolerance at least the predicted value (tiny tail
     *         levels, or {@code N} so small that the 1/N allowance exceeds every fraction) the check
     *         passes whatever the model predicts, and must be reported as such.
     */
    public boolean informative() {
        return tolerance < Math.abs(predicted);
    }

    /** @return whether the error is within the tolerance */
    public boolean passed() {
        return error() <= tolerance;
    }
}
