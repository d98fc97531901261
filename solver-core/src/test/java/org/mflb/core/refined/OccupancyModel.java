package org.mflb.core.refined;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.CalculusFieldElement;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;

/**
 * Test-only SQ(d) queues in occupancy coordinates: {@code y_j} = fraction of servers with exactly
 * {@code j} jobs, {@code j = 0..K}. The jumps {@code e_{j+1} − e_j} (arrival) and
 * {@code e_{j−1} − e_j} (departure) conserve {@code Σ y_j = 1}, so the Jacobian is singular and
 * the expansions must be computed on the span of the jumps. The tail vector is
 * {@code x_i = Σ_{j≥i} y_j}: the results must agree with {@link TailModel} through that map.
 */
final class OccupancyModel implements SmoothPopulationModel {

    final int k;
    final double lambda;
    final int d;
    private final List<Transition> transitions = new ArrayList<>();

    OccupancyModel(int k, double lambda, int d) {
        this.k = k;
        this.lambda = lambda;
        this.d = d;
        for (int j = 0; j < k; j++) {
            transitions.add(new Transition(new int[] {j, j + 1}, new double[] {-1, +1}));
        }
        for (int j = 1; j <= k; j++) {
            transitions.add(new Transition(new int[] {j - 1, j}, new double[] {+1, -1}));
        }
    }

    @Override
    public int getDimension() {
        return k + 1;
    }

    @Override
    public List<Transition> transitions() {
        return transitions;
    }

    @Override
    public ArrivalRate arrivalRate() {
        return ArrivalRate.constant(lambda);
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] y, T[] beta) {
        // tail[j] = Σ_{m ≥ j} y_m
        T zero = y[0].getField().getZero();
        @SuppressWarnings("unchecked")
        T[] tail = (T[]) java.lang.reflect.Array.newInstance(y[0].getClass(), k + 2);
        tail[k + 1] = zero;
        for (int j = k; j >= 0; j--) {
            tail[j] = tail[j + 1].add(y[j]);
        }
        for (int j = 0; j < k; j++) {
            beta[j] = tail[j].pow(d).subtract(tail[j + 1].pow(d)).multiply(lambda);
        }
        for (int j = 1; j <= k; j++) {
            beta[k + j - 1] = y[j];
        }
    }

    /** Occupancy vector of a tail vector {@code x_1..x_K}. */
    static double[] fromTail(double[] x) {
        int k = x.length;
        double[] y = new double[k + 1];
        y[0] = 1 - x[0];
        for (int j = 1; j <= k; j++) {
            y[j] = x[j - 1] - (j < k ? x[j] : 0);
        }
        return y;
    }
}
