package org.mflb.core.refined;

import org.mflb.core.model.PopulationModel;

/**
 * Local Taylor coefficients ("jets") of the transition rates of a population model: for every
 * transition {@code ℓ}, the value, gradient, Hessian and (for the 1/N² expansion) third and
 * fourth derivatives of {@code β_ℓ(x, t)} with respect to the few coordinates {@code β_ℓ} depends
 * on (its <em>support</em>). Every derivative of the drift {@code f = Σ ℓ β_ℓ}, of the noise
 * matrix {@code Q = Σ ℓℓᵀ β_ℓ} and of {@code R = Σ ℓ⊗ℓ⊗ℓ β_ℓ} follows from these, and storing them
 * per transition keeps the cost linear in the number of transitions instead of {@code K⁵}.
 *
 * <p>A model supplies exact derivatives in one of three ways, chosen by {@link #of}:
 * <ol>
 * <li>it implements this interface itself (closed forms: the fastest path);</li>
 * <li>it implements {@link SmoothPopulationModel}: {@link AutomaticRateDerivatives} differentiates
 *     its field-typed rates exactly with Hipparchus's {@code DerivativeStructure};</li>
 * <li>otherwise {@link FiniteDifferenceRateDerivatives} differences the plain rates (first and
 *     second derivatives only, about 1e-7 accurate: enough for the 1/N term, not for 1/N²).</li>
 * </ol>
 */
public interface RateDerivatives {

    /** @return the highest derivative order this source supplies (2 for the 1/N term, 4 for 1/N²) */
    int maxOrder();

    /**
     * The coordinates rate {@code β_l} depends on, strictly increasing. It is structural: it must
     * not depend on the point of evaluation (a coordinate whose derivative vanishes only at some
     * points belongs to the support).
     *
     * @param transition index {@code l} in {@link PopulationModel#transitions()}
     * @return the support (a copy or an unmodifiable view: callers do not modify it)
     */
    int[] support(int transition);

    /**
     * Whether the rates depend on the system size, {@code β^N = β + β¹/N + β²/N² + O(1/N³)}; if so,
     * {@link #evaluate} also fills the size corrections of the jets (value, gradient and Hessian of
     * {@code β¹}, value of {@code β²}). The default is no dependence.
     *
     * @return whether the rates depend on {@code N}
     */
    default boolean hasSizeCorrections() {
        return false;
    }

    /**
     * Evaluates the rates and their derivatives up to {@code jets.order()} at {@code (t, x)}.
     *
     * @param t time
     * @param x state (not modified)
     * @param jets output, built on this source's supports (modified)
     */
    void evaluate(double t, double[] x, RateJets jets);

    /**
     * The best available derivative source for {@code model}: the model itself if it implements
     * this interface to at least {@code derivativeOrder}, automatic differentiation if it is a
     * {@link SmoothPopulationModel}, otherwise the model's own (insufficient) derivatives or finite
     * differences; a source of too low an order is reported by the solver that needs more.
     *
     * @param model the population model
     * @param derivativeOrder highest derivative order needed (2 for the 1/N term, 4 for 1/N²)
     * @return a derivative source for it
     */
    static RateDerivatives of(PopulationModel model, int derivativeOrder) {
        if (model instanceof RateDerivatives explicit && explicit.maxOrder() >= derivativeOrder) {
            return explicit;
        }
        if (model instanceof SmoothPopulationModel smooth) {
            return new AutomaticRateDerivatives(smooth);
        }
        if (model instanceof RateDerivatives explicit) {
            return explicit;
        }
        return new FiniteDifferenceRateDerivatives(model);
    }

    /** @return {@link #of(PopulationModel, int)} for the 1/N term (second derivatives) */
    static RateDerivatives of(PopulationModel model) {
        return of(model, 2);
    }
}
