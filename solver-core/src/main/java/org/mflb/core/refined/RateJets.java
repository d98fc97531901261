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

    /**
     * @param source supplies the supports
     * @param transitions number of transitions
     * @param order highest derivative order stored, in [1, 4]
     */
    public RateJets(RateDerivatives source, int transitions, int order) {
        this.order = Require.between("order", order, 1, 4);
        Require.atLeast("transitions", transitions, 0);
        supports = new int[transitions][];
        value = new double[transitions];
        gradient = new double[transitions][];
        hessian = new double[transitions][];
        third = new double[transitions][];
        fourth = new double[transitions][];
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
}
