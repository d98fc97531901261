package org.mflb.validation;

import java.util.Optional;

/**
 * One number predicted by a model and measured by the simulator, with the simulator's 95%
 * confidence interval and the tolerance the prediction must meet. The tolerance is stated, not
 * implied: its statistical part (typically a few CI half-widths) plus its model-error part (the
 * model's known finite-N error, e.g. {@code c/N} for a fluid limit, or the first neglected term of
 * a size expansion).
 * <p>
 * A check may be <em>not applicable</em>: the prediction exists but says nothing at this size (a
 * size expansion whose terms have stopped decreasing, {@link org.mflb.core.refined.SeriesTerms}).
 * Such a check is neither a pass nor a failure; it is reported with its reason.
 *
 * @param quantity what is compared, e.g. {@code x_3} or {@code x_2(t = 5)}
 * @param predicted the model's value
 * @param simulated the simulated estimate
 * @param ci95Low lower end of its 95% confidence interval
 * @param ci95High upper end of its 95% confidence interval
 * @param tolerance largest accepted {@code |predicted − simulated|}
 * @param modelError the model-error part of {@code tolerance} (the rest is statistical), or NaN
 *        when the tolerance is not split
 * @param notApplicable why the prediction says nothing at this size, or {@code null} when it does
 */
public record Check(String quantity, double predicted, double simulated, double ci95Low, double ci95High,
        double tolerance, double modelError, String notApplicable) {

    /** A check whose tolerance is not split into its statistical and model-error parts. */
    public Check(String quantity, double predicted, double simulated, double ci95Low, double ci95High,
            double tolerance) {
        this(quantity, predicted, simulated, ci95Low, ci95High, tolerance, Double.NaN, null);
    }

    /**
     * @param statistical the statistical part of the tolerance (e.g. 3 CI half-widths)
     * @param modelError its model-error part
     * @return an applicable check with the tolerance {@code statistical + modelError}
     */
    public static Check of(String quantity, double predicted, double simulated, double ci95Low, double ci95High,
            double statistical, double modelError) {
        return new Check(quantity, predicted, simulated, ci95Low, ci95High, statistical + modelError, modelError, null);
    }

    /**
     * @param statistical the statistical part of the tolerance a usable prediction would have
     * @param reason why the prediction says nothing at this size
     * @return a check reported as not applicable (model-error part 0: none is known)
     */
    public static Check notApplicable(String quantity, double predicted, double simulated, double ci95Low,
            double ci95High, double statistical, String reason) {
        return new Check(quantity, predicted, simulated, ci95Low, ci95High, statistical, 0, reason);
    }

    /**
     * @param reason why the prediction says nothing at this size, if it does not
     * @return this check, or the same comparison reported as not applicable for {@code reason}
     *         (its statistical part kept, no model-error part)
     */
    public Check unless(Optional<String> reason) {
        return reason.map(r -> notApplicable(quantity, predicted, simulated, ci95Low, ci95High, statistical(), r))
                .orElse(this);
    }

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

    /** @return whether the tolerance is split into a statistical and a model-error part */
    public boolean split() {
        return !Double.isNaN(modelError);
    }

    /** @return the statistical part of the tolerance ({@code tolerance − modelError}), NaN when not split */
    public double statistical() {
        return tolerance - modelError;
    }

    /** @return whether the prediction says something at this size (see {@link #reason()}) */
    public boolean applicable() {
        return notApplicable == null;
    }

    /** @return why the check is not applicable, if it is not */
    public Optional<String> reason() {
        return Optional.ofNullable(notApplicable);
    }

    /**
     * @return whether the verdict says something: the check is applicable and its tolerance is below
     *         the larger of {@code |predicted|} and {@code |simulated|}, so that some prediction (0, or
     *         the simulated value's opposite side) would fail. With a tolerance at least both values
     *         (tiny tail levels, or {@code N} so small that the 1/N allowance exceeds every fraction)
     *         the check passes whatever the model predicts, and must be reported as such.
     */
    public boolean informative() {
        return applicable() && tolerance < Math.max(Math.abs(predicted), Math.abs(simulated));
    }

    /** @return whether the check is applicable and its error is within the tolerance */
    public boolean passed() {
        return applicable() && error() <= tolerance;
    }

    /** @return whether the check is applicable and its error exceeds the tolerance (not applicable: neither) */
    public boolean failed() {
        return applicable() && !(error() <= tolerance);
    }
}
