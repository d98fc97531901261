package org.mflb.core.modelfile;

import java.util.List;

import org.ejml.data.DMatrixRMaj;
import org.hipparchus.CalculusFieldElement;
import org.hipparchus.analysis.differentiation.Gradient;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;
import org.mflb.core.refined.AutomaticRateDerivatives;
import org.mflb.core.refined.RateDerivatives;
import org.mflb.core.refined.RateJets;
import org.mflb.core.refined.SmoothPopulationModel;

/**
 * A {@link ModelFile} as a population model: drift {@code f(x) = Σ_ℓ ℓ β_ℓ(x)} from the compiled
 * rates, its exact Jacobian (forward-mode differentiation of each rate in the few coordinates it
 * reads), and exact derivatives up to order 4 for the refined mean field
 * ({@link AutomaticRateDerivatives} on the rates' structural supports). The rates do not depend on
 * time; {@link #arrivalRate()} is the constant 0 (a model file has no distinguished arrival stream).
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class FileModel implements SmoothPopulationModel, RateDerivatives {

    private final ModelFile file;
    private final RateProgram program;
    private final int dimension;
    private final int[][] jumpIndex;
    private final double[][] jumpValue;
    private final int[] bandwidth;
    private final AutomaticRateDerivatives derivatives;

    FileModel(ModelFile file) {
        this.file = file;
        this.program = file.rates();
        this.dimension = file.dimension();
        int count = file.transitionCount();
        jumpIndex = new int[count][];
        jumpValue = new double[count][];
        int lower = 0;
        int upper = 0;
        int[][] supports = new int[count][];
        for (int l = 0; l < count; l++) {
            jumpIndex[l] = file.jumpCoordinates(l);
            int[] changes = file.jumpChanges(l);
            jumpValue[l] = new double[changes.length];
            for (int k = 0; k < changes.length; k++) {
                jumpValue[l][k] = changes[k];
            }
            supports[l] = program.support(l).clone();
            for (int i : jumpIndex[l]) {
                for (int j : supports[l]) {
                    lower = Math.max(lower, i - j);
                    upper = Math.max(upper, j - i);
                }
            }
        }
        bandwidth = new int[] {lower, upper};
        derivatives = new AutomaticRateDerivatives(this, supports);
    }

    /** @return the model file this model was read from */
    public ModelFile file() {
        return file;
    }

    @Override
    public int getDimension() {
        return dimension;
    }

    @Override
    public List<Transition> transitions() {
        return file.transitions();
    }

    @Override
    public void rates(double t, double[] x, double[] beta) {
        double[] stack = new double[program.stackDepth()];
        for (int l = 0; l < beta.length; l++) {
            beta[l] = program.evaluate(l, x, stack);
        }
    }

    @Override
    public void drift(double t, double[] x, double[] f) {
        double[] stack = new double[program.stackDepth()];
        java.util.Arrays.fill(f, 0.0);
        for (int l = 0; l < jumpIndex.length; l++) {
            double beta = program.evaluate(l, x, stack);
            int[] idx = jumpIndex[l];
            double[] val = jumpValue[l];
            for (int k = 0; k < idx.length; k++) {
                f[idx[k]] += val[k] * beta;
            }
        }
    }

    /** The exact Jacobian {@code Σ_ℓ ℓ ∇β_ℓ(x)ᵀ}, each gradient by forward-mode differentiation on its support. */
    @Override
    public void jacobian(double t, double[] x, DMatrixRMaj jacobian) {
        jacobian.reshape(dimension, dimension);
        jacobian.zero();
        Gradient[] stack = new Gradient[program.stackDepth()];
        for (int l = 0; l < jumpIndex.length; l++) {
            int[] support = program.support(l);
            int m = support.length;
            if (m == 0) {
                continue;
            }
            Gradient[] local = new Gradient[m];
            for (int a = 0; a < m; a++) {
                local[a] = Gradient.variable(m, a, x[support[a]]);
            }
            double[] g = program.evaluate(l, local, true, stack).getGradient();
            int[] idx = jumpIndex[l];
            double[] val = jumpValue[l];
            for (int k = 0; k < idx.length; k++) {
                for (int a = 0; a < m; a++) {
                    jacobian.unsafe_set(idx[k], support[a], jacobian.unsafe_get(idx[k], support[a]) + val[k] * g[a]);
                }
            }
        }
    }

    @Override
    public int[] jacobianBandwidth() {
        return bandwidth.clone();
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta) {
        @SuppressWarnings("unchecked")
        T[] stack = (T[]) java.lang.reflect.Array.newInstance(x.getClass().getComponentType(), program.stackDepth());
        for (int l = 0; l < beta.length; l++) {
            beta[l] = program.evaluate(l, x, false, stack);
        }
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta, int[] transitions) {
        @SuppressWarnings("unchecked")
        T[] stack = (T[]) java.lang.reflect.Array.newInstance(x.getClass().getComponentType(), program.stackDepth());
        for (int l : transitions) {
            beta[l] = program.evaluate(l, x, false, stack);
        }
    }

    @Override
    public ArrivalRate arrivalRate() {
        return ArrivalRate.constant(0.0);
    }

    @Override
    public int maxOrder() {
        return derivatives.maxOrder();
    }

    @Override
    public int[] support(int transition) {
        return program.support(transition).clone();
    }

    @Override
    public void evaluate(double t, double[] x, RateJets jets) {
        derivatives.evaluate(t, x, jets);
    }
}
