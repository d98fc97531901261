package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.Require;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;
import org.mflb.core.refined.RateDerivatives;
import org.mflb.core.refined.RateJets;

/**
 * The mean-field model of a smooth dispatching policy on the tail vector
 * {@code x = (x_1, ..., x_K)}, {@code x_i} = fraction of servers (pools) with at least {@code i}
 * jobs (docs/models.md §1–2):
 * <pre>
 *   dx_i/dt = λ(t)·(h(x_{i−1}) − h(x_i)) − μ_i·(x_i − x_{i+1}),   i = 1..K,   x_0 = 1, x_{K+1} = 0,
 * </pre>
 * with {@code h} the policy's selection function ({@link SmoothRouting}) and {@code μ_i} the
 * system's departure rate ({@link ServerSystem#departureRate}). Its transitions are arrivals
 * {@code +e_i} at rate {@code λ(h(x_{i−1}) − h(x_i))} and departures {@code −e_i} at rate
 * {@code μ_i(x_i − x_{i+1})}. With random routing and single-server queues this is the M/M/1
 * tail equation; with SQ(d) the supermarket model of Mitzenmacher (2001) and Vvedenskaya,
 * Dobrushin and Karpelevich (1996); with pools that of Mukherjee et al.
 * <p>
 * An arrival that would be the {@code (K+1)}-th job of its server is lost: for loss pools with
 * {@code K = C} this is the blocking, otherwise it is the truncation, which {@link FluidModel}
 * keeps below a tolerance.
 * <p>
 * The rates' derivatives are closed forms of {@code h}'s ({@link SmoothRouting#selectionDerivative},
 * up to order 4), which the refined mean field and the 1/N² expansion use ({@link RateDerivatives}).
 */
public final class TailModel implements PopulationModel, RateDerivatives {

    private final ServerSystem system;
    private final SmoothRouting policy;
    private final ArrivalRate lambda;
    private final int levels;
    private final double[] mu;
    private final List<Transition> transitions;

    /**
     * @param system the servers
     * @param policy the dispatching policy
     * @param lambda per-server arrival rate
     * @param levels number of levels {@code K} kept, {@code ≥ 1}; at most {@code C} for loss pools
     */
    public TailModel(ServerSystem system, SmoothRouting policy, ArrivalRate lambda, int levels) {
        this.system = system;
        this.policy = policy;
        this.lambda = lambda;
        this.levels = Require.between("levels", levels, 1, system.capacity());
        this.mu = new double[levels];
        List<Transition> jumps = new ArrayList<>(2 * levels);
        for (int i = 0; i < levels; i++) {
            mu[i] = system.departureRate(i + 1);
            jumps.add(Transition.unit(i, +1.0));
        }
        for (int i = 0; i < levels; i++) {
            jumps.add(Transition.unit(i, -1.0));
        }
        this.transitions = Collections.unmodifiableList(jumps);
    }

    /** @return the servers */
    public ServerSystem system() {
        return system;
    }

    /** @return the dispatching policy */
    public SmoothRouting policy() {
        return policy;
    }

    @Override
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    @Override
    public int getDimension() {
        return levels;
    }

    /** Transitions {@code 0..K−1} are arrivals to levels {@code 1..K}, then departures from levels {@code 1..K}. */
    @Override
    public List<Transition> transitions() {
        return transitions;
    }

    @Override
    public void rates(double t, double[] x, double[] beta) {
        double rate = lambda.at(t);
        double hPrevious = 1.0;
        for (int i = 0; i < levels; i++) {
            double hi = policy.selection(x[i]);
            double next = i + 1 < levels ? x[i + 1] : 0.0;
            beta[i] = rate * (hPrevious - hi);
            beta[levels + i] = mu[i] * (x[i] - next);
            hPrevious = hi;
        }
    }

    @Override
    public void drift(double t, double[] x, double[] f) {
        double rate = lambda.at(t);
        double hPrevious = 1.0;
        for (int i = 0; i < levels; i++) {
            double hi = policy.selection(x[i]);
            double next = i + 1 < levels ? x[i + 1] : 0.0;
            f[i] = rate * (hPrevious - hi) - mu[i] * (x[i] - next);
            hPrevious = hi;
        }
    }

    /** The closed-form Jacobian: tridiagonal, {@code ∂f_i/∂x_{i−1} = λh'(x_{i−1})}, {@code ∂f_i/∂x_i = −λh'(x_i) − μ_i}, {@code ∂f_i/∂x_{i+1} = μ_i}. */
    @Override
    public void jacobian(double t, double[] x, DMatrixRMaj jacobian) {
        jacobian.reshape(levels, levels);
        jacobian.zero();
        double rate = lambda.at(t);
        for (int i = 0; i < levels; i++) {
            double slope = rate * policy.selectionDerivative(1, x[i]);
            jacobian.unsafe_set(i, i, -slope - mu[i]);
            if (i + 1 < levels) {
                jacobian.unsafe_set(i + 1, i, slope);
                jacobian.unsafe_set(i, i + 1, mu[i]);
            }
        }
    }

    /**
     * Projects onto the tail vectors: {@code 1 ≥ x_1 ≥ x_2 ≥ … ≥ x_K ≥ 0} (each entry clamped to
     * {@code [0, x_{i−1}]}), the set the fluid flow leaves invariant.
     */
    @Override
    public boolean project(double[] x) {
        return TailVectors.project(x);
    }

    @Override
    public int[] jacobianBandwidth() {
        return new int[] {1, 1};
    }

    /** The tridiagonal Jacobian of {@link #jacobian} in band storage (row {@code i}: sub-, main, super-diagonal). */
    @Override
    public void bandedJacobian(double t, double[] x, double[][] band) {
        double rate = lambda.at(t);
        double previousSlope = 0.0;
        for (int i = 0; i < levels; i++) {
            double slope = rate * policy.selectionDerivative(1, x[i]);
            band[i][0] = i > 0 ? previousSlope : 0.0;
            band[i][1] = -slope - mu[i];
            band[i][2] = i + 1 < levels ? mu[i] : 0.0;
            previousSlope = slope;
        }
    }

    /**
     * @param t time
     * @param x state
     * @return the fraction of arrivals lost at level {@code K}, {@code h(x_K)}: the blocking
     *         probability of loss pools (with {@code K = C}), otherwise the truncation leak
     */
    public double lossProbability(double t, double[] x) {
        return policy.selection(x[levels - 1]);
    }

    /** Derivatives of {@code h} up to order 4 give exact rate jets for the 1/N and 1/N² expansions. */
    @Override
    public int maxOrder() {
        return 4;
    }

    /**
     * Arrival to level {@code i} ({@code i = 1..K}) depends on {@code x_{i−1}} (when {@code i ≥ 2})
     * and {@code x_i}; departure from level {@code i} on {@code x_i} and {@code x_{i+1}} (when {@code i < K}).
     */
    @Override
    public int[] support(int transition) {
        if (transition < levels) {
            return transition == 0 ? new int[] {0} : new int[] {transition - 1, transition};
        }
        int i = transition - levels;
        return i + 1 < levels ? new int[] {i, i + 1} : new int[] {i};
    }

    /**
     * Whether the policy's selection depends on the number of servers (SQ(d) with distinct
     * servers): the jets are then those of the {@code N → ∞} limit, {@link SmoothRouting#limit()},
     * with the 1/N and 1/N² corrections of the rates ({@link SmoothRouting#sizeCorrectionDerivative}).
     */
    @Override
    public boolean hasSizeCorrections() {
        return policy.dependsOnSize();
    }

    @Override
    public void evaluate(double t, double[] x, RateJets jets) {
        int order = jets.order();
        double rate = lambda.at(t);
        // The size expansion is about the limit N → ∞ (the policy itself unless h depends on N).
        SmoothRouting h = policy.limit();
        boolean corrections = jets.hasSizeCorrections();
        for (int i = 0; i < levels; i++) {
            // Arrival λ(h(x_{i−1}) − h(x_i)): every derivative is diagonal, +λh^(k)(x_{i−1}) on the
            // first variable and −λh^(k)(x_i) on the last.
            int m = i == 0 ? 1 : 2;
            double hPrevious = i == 0 ? 1.0 : h.selection(x[i - 1]);
            jets.setValue(i, rate * (hPrevious - h.selection(x[i])));
            for (int k = 1; k <= order; k++) {
                double[] tensor = jetTensor(jets, i, k);
                java.util.Arrays.fill(tensor, 0.0);
                if (i > 0) {
                    tensor[0] = rate * h.selectionDerivative(k, x[i - 1]);
                }
                tensor[diagonalIndex(m, k, m - 1)] -= rate * h.selectionDerivative(k, x[i]);
            }
            if (corrections) {
                // β¹ = λ(h¹(x_{i−1}) − h¹(x_i)) and β² likewise; h¹(1) = h²(1) = 0 at level 0.
                double[] g1 = jets.correctionGradient(i);
                double[] h1 = jets.correctionHessian(i);
                java.util.Arrays.fill(g1, 0.0);
                java.util.Arrays.fill(h1, 0.0);
                double c1 = -policy.sizeCorrectionDerivative(1, 0, x[i]);
                double c2 = -policy.sizeCorrectionDerivative(2, 0, x[i]);
                if (i > 0) {
                    c1 += policy.sizeCorrectionDerivative(1, 0, x[i - 1]);
                    c2 += policy.sizeCorrectionDerivative(2, 0, x[i - 1]);
                    g1[0] = rate * policy.sizeCorrectionDerivative(1, 1, x[i - 1]);
                    h1[0] = rate * policy.sizeCorrectionDerivative(1, 2, x[i - 1]);
                }
                g1[m - 1] -= rate * policy.sizeCorrectionDerivative(1, 1, x[i]);
                h1[(m - 1) * m + m - 1] -= rate * policy.sizeCorrectionDerivative(1, 2, x[i]);
                jets.setCorrectionValue(i, rate * c1);
                jets.setSecondCorrectionValue(i, rate * c2);
            }
            // Departure μ_i(x_i − x_{i+1}): linear.
            int l = levels + i;
            double next = i + 1 < levels ? x[i + 1] : 0.0;
            jets.setValue(l, mu[i] * (x[i] - next));
            for (int k = 1; k <= order; k++) {
                java.util.Arrays.fill(jetTensor(jets, l, k), 0.0);
            }
            double[] gradient = jets.gradient(l);
            gradient[0] = mu[i];
            if (i + 1 < levels) {
                gradient[1] = -mu[i];
            }
            if (corrections) {
                jets.setCorrectionValue(l, 0.0);
                jets.setSecondCorrectionValue(l, 0.0);
                java.util.Arrays.fill(jets.correctionGradient(l), 0.0);
                java.util.Arrays.fill(jets.correctionHessian(l), 0.0);
            }
        }
    }

    private static double[] jetTensor(RateJets jets, int l, int k) {
        return switch (k) {
            case 1 -> jets.gradient(l);
            case 2 -> jets.hessian(l);
            case 3 -> jets.third(l);
            default -> jets.fourth(l);
        };
    }

    /** Flat index of {@code (a, a, …, a)} ({@code k} times) in an {@code m^k} row-major tensor. */
    private static int diagonalIndex(int m, int k, int a) {
        int index = 0;
        for (int r = 0; r < k; r++) {
            index = index * m + a;
        }
        return index;
    }
}
