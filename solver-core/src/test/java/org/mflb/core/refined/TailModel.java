package org.mflb.core.refined;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.CalculusFieldElement;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;

/**
 * Test-only SQ(d) family in tail coordinates (docs/models.md §1–2), truncated at level K:
 * coordinate {@code i−1} holds {@code x_i}, {@code i = 1..K}, with {@code x_0 = 1},
 * {@code x_{K+1} = 0}; transitions {@code +e_i} at rate {@code λ(x_{i−1}^d − x_i^d)} and
 * {@code −e_i} at rate {@code μ_i(x_i − x_{i+1})} with {@code μ_i = 1} (single-server queues) or
 * {@code μ_i = i} (pools). An arrival to a full server (K jobs) is lost, so {@code d = 1} is exactly
 * N independent M/M/1/K (queues) or M/M/K/K (pools) systems.
 */
class TailModel implements SmoothPopulationModel {

    final int k;
    final double lambda;
    final ArrivalRate arrivals;
    final int d;
    final boolean pools;
    private final List<Transition> transitions = new ArrayList<>();

    TailModel(int k, double lambda, int d, boolean pools) {
        this(k, ArrivalRate.constant(lambda), d, pools);
    }

    TailModel(int k, ArrivalRate arrivals, int d, boolean pools) {
        this.k = k;
        this.arrivals = arrivals;
        this.lambda = arrivals.at(0);
        this.d = d;
        this.pools = pools;
        for (int i = 0; i < k; i++) {
            transitions.add(Transition.unit(i, +1));
            transitions.add(Transition.unit(i, -1));
        }
    }

    double mu(int level) {
        return pools ? level : 1.0;
    }

    @Override
    public int getDimension() {
        return k;
    }

    @Override
    public List<Transition> transitions() {
        return transitions;
    }

    @Override
    public ArrivalRate arrivalRate() {
        return arrivals;
    }

    @Override
    public void rates(double t, double[] x, double[] beta) {
        double lambda = arrivals.at(t);
        for (int i = 0; i < k; i++) {
            double prev = i == 0 ? 1.0 : x[i - 1];
            double next = i == k - 1 ? 0.0 : x[i + 1];
            beta[2 * i] = lambda * (Math.pow(prev, d) - Math.pow(x[i], d));
            beta[2 * i + 1] = mu(i + 1) * (x[i] - next);
        }
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta) {
        double lambda = arrivals.at(t);
        T one = x[0].getField().getOne();
        for (int i = 0; i < k; i++) {
            T prev = i == 0 ? one : x[i - 1];
            T current = x[i];
            beta[2 * i] = prev.pow(d).subtract(current.pow(d)).multiply(lambda);
            T next = i == k - 1 ? current.getField().getZero() : x[i + 1];
            beta[2 * i + 1] = current.subtract(next).multiply(mu(i + 1));
        }
    }

    /** Truncated fixed point for single-server queues: x_i = λ(x_{i−1}^d − x_K^d), solved for x_K by bisection. */
    double[] queueFixedPoint() {
        if (pools) {
            throw new IllegalStateException("closed form only for single-server queues");
        }
        double lo = 0;
        double hi = 1;
        for (int it = 0; it < 200; it++) {
            double c = 0.5 * (lo + hi);
            double xk = 1;
            for (int i = 1; i <= k; i++) {
                xk = lambda * (Math.pow(xk, d) - Math.pow(c, d));
            }
            // x_K(c) − c is decreasing in c.
            if (xk > c) {
                lo = c;
            } else {
                hi = c;
            }
        }
        double c = 0.5 * (lo + hi);
        double[] x = new double[k];
        double prev = 1;
        for (int i = 0; i < k; i++) {
            x[i] = lambda * (Math.pow(prev, d) - Math.pow(c, d));
            prev = x[i];
        }
        x[k - 1] = c;
        return x;
    }
}
