package org.mflb.core.refined;

import org.hipparchus.CalculusFieldElement;
import org.hipparchus.util.Binary64;
import org.mflb.core.model.PopulationModel;

/**
 * A population model whose transition rates {@code β_ℓ(x, t)} are written once, generically over
 * Hipparchus's {@link CalculusFieldElement}, so that they can be evaluated on plain numbers and on
 * automatic-differentiation types ({@code DerivativeStructure}, {@code Gradient}) alike. That single
 * method gives exact derivatives of any order: {@link AutomaticRateDerivatives} uses it to supply
 * everything the refined mean field and the 1/N² size expansion need (Jacobian and Hessian of the
 * drift, third and fourth derivatives, derivatives of the noise matrix {@code Q}), for any model.
 *
 * <p>Implementations normally also override {@link #rates(double, double[], double[])} with a
 * plain-double version, because the simulator calls it in its hot loop; the default delegates to
 * {@link #fieldRates} through {@link Binary64} and allocates.
 */
public interface SmoothPopulationModel extends PopulationModel {

    /**
     * Evaluates the transition rates on a field.
     *
     * @param <T> the field element type
     * @param t time
     * @param x state, length {@link #getDimension()} (not modified)
     * @param beta {@code β_ℓ(x, t)} for every transition, in the order of {@link #transitions()} (modified)
     */
    <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta);

    /**
     * Evaluates only the rates listed in {@code transitions} (the others in {@code beta} may be left
     * unset). {@link AutomaticRateDerivatives} calls it once per group of transitions it
     * differentiates together; the default evaluates every rate.
     *
     * @param <T> the field element type
     * @param t time
     * @param x state (not modified)
     * @param beta rates (modified at least at the listed indices)
     * @param transitions the rates needed, increasing
     */
    default <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta, int[] transitions) {
        fieldRates(t, x, beta);
    }

    /** Plain-double rates through {@link #fieldRates} (allocates: override in performance-critical models). */
    @Override
    default void rates(double t, double[] x, double[] beta) {
        Binary64[] xf = new Binary64[x.length];
        for (int i = 0; i < x.length; i++) {
            xf[i] = new Binary64(x[i]);
        }
        Binary64[] bf = new Binary64[beta.length];
        fieldRates(t, xf, bf);
        for (int l = 0; l < beta.length; l++) {
            beta[l] = bf[l].getReal();
        }
    }
}
