package org.mflb.core.refined;

import java.util.ArrayList;
import java.util.List;

import org.hipparchus.CalculusFieldElement;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/**
 * Test-only SQ(d) with {@code d} distinct servers out of {@code N} (single-server queues, K levels):
 * the arrival joins a server with at least {@code k} jobs with probability
 * {@code h_N(y) = Π_{j<d} (y − jε)/(1 − jε)}, {@code ε = 1/N}, a smooth function of {@code ε}
 * ({@link SizeDependentPopulationModel}). {@link #atSize} is the N-server chain itself, with the
 * hypergeometric probability computed from integer counts: the independent truth.
 */
final class DistinctSamplingModel implements SizeDependentPopulationModel {

    final int k;
    final double lambda;
    final int d;
    private final List<Transition> transitions = new ArrayList<>();

    DistinctSamplingModel(int k, double lambda, int d) {
        this.k = k;
        this.lambda = lambda;
        this.d = d;
        for (int i = 0; i < k; i++) {
            transitions.add(Transition.unit(i, +1));
            transitions.add(Transition.unit(i, -1));
        }
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
        return ArrivalRate.constant(lambda);
    }

    private <T extends CalculusFieldElement<T>> T h(T y, T epsilon) {
        T product = y.getField().getOne();
        for (int j = 0; j < d; j++) {
            product = product.multiply(y.subtract(epsilon.multiply(j))).divide(epsilon.multiply(-j).add(1.0));
        }
        return product;
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T epsilon, T[] beta) {
        T one = x[0].getField().getOne();
        for (int i = 0; i < k; i++) {
            T previous = i == 0 ? one : x[i - 1];
            beta[2 * i] = h(previous, epsilon).subtract(h(x[i], epsilon)).multiply(lambda);
            T next = i == k - 1 ? x[i].getField().getZero() : x[i + 1];
            beta[2 * i + 1] = x[i].subtract(next);
        }
    }

    /** The N-server chain: rates from integer counts, {@code h = Π (n_k − j)/(N − j)}. */
    PopulationModel atSize(int n) {
        DistinctSamplingModel self = this;
        return new PopulationModel() {
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
                return self.arrivalRate();
            }

            private double hypergeometric(double y) {
                long count = Math.round(y * n);
                double product = 1;
                for (int j = 0; j < d; j++) {
                    product *= Math.max(0, count - j) / (double) (n - j);
                }
                return product;
            }

            @Override
            public void rates(double t, double[] x, double[] beta) {
                for (int i = 0; i < k; i++) {
                    double previous = i == 0 ? 1.0 : x[i - 1];
                    beta[2 * i] = lambda * (hypergeometric(previous) - hypergeometric(x[i]));
                    beta[2 * i + 1] = x[i] - (i == k - 1 ? 0.0 : x[i + 1]);
                }
            }
        };
    }
}
