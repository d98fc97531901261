package org.mflb.core.refined;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Workspace holding, for every transition {@code l} with support {@code s = s_l} of size
 * {@code m}, the Taylor coefficients of its rate at one point:
 * <pre>
 *   value     β_l
 *   gradient  g[a]          = ∂β_l/∂x_{s_a}                       (m entries)
 *   hessian   H[a,b]        = ∂²β_l/∂x_{s_a}∂x_{s_b}              (m², full symmetric, row-major)
 *   third     T3[a,b,c]     = ∂³β_l/∂x_{s_a}∂x_{s_b}∂x_{s_c}       (m³, when order ≥ 3)
 *   fourth    T4[a,b,c,d]   (m⁴, when order = 4)
 * </pre>
 * and, when the rates depend on the system size ({@link RateDerivatives#hasSizeCorrections()}),
 * the value, gradient and Hessian of the 1/N correction {@code β¹_l} and the value of the 1/N²
 * correction {@code β²_l}.
 * Sources ({@link RateDerivatives}) fill the arrays returned by the accessors in place; the
 * refined-mean-field solvers read them. Allocated once per solve: nothing is allocated per
 * evaluation.
 */
public final class RateJets {

    private final int order;
    private final int[][] supports;
    private final double[] value;
    private final double[][] gradient;
    private final double[][] hessian;
    private final double[][] third;
    private final double[][] fourth;
    private final boolean sizeCorrections;
    private final double[] correctionValue;
    private final double[][] correctionGradient;
    private final double[][] correctionHessian;
    private final double[] secondCorrectionValue;

    /**
     * @param source supplies the supports
     * @param transitions number of transitions
     * @param order highest derivative order stored, in [1, 4]
     */
    public RateJets(RateDerivatives source, int transitions, int order) {
        this.order = Require.between("order", order, 1, 4);
        this.sizeCorrections = source.hasSizeCorrections();
        Require.atLeast("transitions", transitions, 0);
        supports = new int[transitions][];
        value = new double[transitions];
        gradient = new double[transitions][];
        hessian = new double[transitions][];
        third = new double[transitions][];
        fourth = new double[transitions][];
        correctionValue = sizeCorrections ? new double[transitions] : null;
        correctionGradient = sizeCorrections ? new double[transitions][] : null;
        correctionHessian = sizeCorrections ? new double[transitions][] : null;
        secondCorrectionValue = sizeCorrections ? new double[transitions] : null;
        for (int l = 0; l < transitions; l++) {
            int[] s = source.support(l).clone();
            for (int k = 1; k < s.length; k++) {
                if (s[k] <= s[k - 1]) {
                    throw MflbException.invalid("support(" + l + ")", java.util.Arrays.toString(s),
                            "strictly increasing coordinates");
                }
            }
            supports[l] = s;
            int m = s.length;
            gradient[l] = new double[m];
            hessian[l] = order >= 2 ? new double[m * m] : null;
            third[l] = order >= 3 ? new double[m * m * m] : null;
            fourth[l] = order >= 4 ? new double[m * m * m * m] : null;
            if (sizeCorrections) {
                correctionGradient[l] = new double[m];
                correctionHessian[l] = new double[m * m];
            }
        }
    }

    /** @return highest derivative order stored */
    public int order() {
        return order;
    }

    /** @return number of transitions */
    public int transitionCount() {
        return value.length;
    }

    /** @return the support of transition {@code l} (internal array: not modified by callers) */
    public int[] support(int l) {
        return supports[l];
    }

    /** @return {@code β_l} */
    public double value(int l) {
        return value[l];
    }

    /** Sets {@code β_l}. */
    public void setValue(int l, double beta) {
        value[l] = beta;
    }

    /** @return gradient of {@code β_l} over its support (internal array: sources fill it) */
    public double[] gradient(int l) {
        return gradient[l];
    }

    /** @return Hessian of {@code β_l}, {@code m×m} row-major (internal array), or null if order &lt; 2 */
    public double[] hessian(int l) {
        return hessian[l];
    }

    /** @return third derivatives of {@code β_l}, {@code m³} row-major (internal array), or null if order &lt; 3 */
    public double[] third(int l) {
        return third[l];
    }

    /** @return fourth derivatives of {@code β_l}, {@code m⁴} row-major (internal array), or null if order &lt; 4 */
    public double[] fourth(int l) {
        return fourth[l];
    }

    /** @return whether the jets carry size corrections ({@link RateDerivatives#hasSizeCorrections()}) */
    public boolean hasSizeCorrections() {
        return sizeCorrections;
    }

    /** @return {@code β¹_l}, the 1/N correction of the rate */
    public double correctionValue(int l) {
        return correctionValue[l];
    }

    /** Sets {@code β¹_l}. */
    public void setCorrectionValue(int l, double value) {
        correctionValue[l] = value;
    }

    /** @return gradient of {@code β¹_l} over the support (internal array: sources fill it) */
    public double[] correctionGradient(int l) {
        return correctionGradient[l];
    }

    /** @return Hessian of {@code β¹_l}, {@code m×m} row-major (internal array: sources fill it) */
    public double[] correctionHessian(int l) {
        return correctionHessian[l];
    }

    /** @return {@code β²_l}, the 1/N² correction of the rate */
    public double secondCorrectionValue(int l) {
        return secondCorrectionValue[l];
    }

    /** Sets {@code β²_l}. */
    public void setSecondCorrectionValue(int l, double value) {
        secondCorrectionValue[l] = value;
    }
}
