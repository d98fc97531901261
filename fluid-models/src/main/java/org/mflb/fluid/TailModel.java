package org.mflb.fluid;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.ejml.data.DMatrixRMaj;
import org.mflb.core.Require;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/**
 * The mean-field model of a smooth dispatching policy on the tail vector
 * {@code x = (x_1, ..., x_K)}, {@code x_i} = fraction of servers (pools) with at least {@code i}
 * jobs (MODELS.md §1–2):
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
 */
public final class TailModel implements PopulationModel {

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

    @Override
    public int[] jacobianBandwidth() {
        return new int[] {1, 1};
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
}
