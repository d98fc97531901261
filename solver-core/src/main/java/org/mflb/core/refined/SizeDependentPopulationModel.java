package org.mflb.core.refined;

import org.hipparchus.CalculusFieldElement;

/**
 * A population model whose rates depend on the system size {@code N}, smoothly in
 * {@code ε = 1/N}: transition {@code ℓ} fires at rate {@code N β_ℓ(x, t, 1/N)}. Example: SQ(d) with
 * {@code d} distinct servers out of {@code N}, whose selection probability
 * {@code h_N(y) = Π_{j<d} (y − j/N)/(1 − j/N)} is {@code y^d + O(1/N)} (docs/models.md §1). The mean field
 * is the limit {@code ε = 0}; the size expansions gain the terms of
 * <pre>
 *   β_ℓ(x, t, ε) = β_ℓ(x, t) + ε β¹_ℓ(x, t) + ε² β²_ℓ(x, t) + O(ε³),
 * </pre>
 * which change the 1/N term: {@code F V + ½F'':W + f¹ = 0} in steady state ({@link MomentEquations}).
 * {@link AutomaticRateDerivatives} differentiates in {@code ε} as in {@code x}.
 */
public interface SizeDependentPopulationModel extends SmoothPopulationModel {

    /**
     * Evaluates the rates of the system of size {@code N = 1/inverseSize}.
     *
     * @param <T> the field element type
     * @param t time
     * @param x state (not modified)
     * @param inverseSize {@code ε = 1/N}; 0 gives the mean-field limit
     * @param beta rates (modified)
     */
    <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T inverseSize, T[] beta);

    /** The limit rates, {@code ε = 0}. */
    @Override
    default <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta) {
        fieldRates(t, x, x[0].getField().getZero(), beta);
    }
}
