package org.mflb.core.refined;

import java.util.List;

import org.hipparchus.CalculusFieldElement;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;

/**
 * Test-only one-dimensional model with genuinely non-polynomial-free rates: a logistic
 * birth–death process with immigration on {@code [0, 1]},
 * <pre>
 *   x → x + 1/N  at rate  N (a x (1 − x) + b (1 − x)),      x → x − 1/N  at rate  N x.
 * </pre>
 * Its exact stationary law (a birth–death chain on {@code {0, 1/N, …, 1}}) is the independent
 * truth for the 1/N and 1/N² expansions, which here exercise every term of the equations (third
 * and fourth derivatives vanish, {@code Q'}, {@code Q''} and {@code R} do not).
 */
final class LogisticModel implements SmoothPopulationModel {

    final double a;
    final double b;

    LogisticModel(double a, double b) {
        this.a = a;
        this.b = b;
    }

    @Override
    public int getDimension() {
        return 1;
    }

    @Override
    public List<Transition> transitions() {
        return List.of(Transition.unit(0, +1), Transition.unit(0, -1));
    }

    @Override
    public ArrivalRate arrivalRate() {
        return ArrivalRate.constant(b);
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] x, T[] beta) {
        T free = x[0].negate().add(1.0);
        beta[0] = x[0].multiply(a).add(b).multiply(free);
        beta[1] = x[0];
    }

    /** Fixed point: a x(1−x) + b(1−x) = x, the root in (0, 1). */
    double fixedPoint() {
        // a x² + (1 + b − a) x − b = 0
        double qa = a;
        double qb = 1 + b - a;
        double qc = -b;
        return (-qb + Math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
    }

    /** Exact stationary mean of the chain with N individuals. */
    double exactMean(int n) {
        double[] p = new double[n + 1];
        p[0] = 1;
        double total = 1;
        for (int k = 1; k <= n; k++) {
            double x = (k - 1) / (double) n;
            double up = n * (a * x * (1 - x) + b * (1 - x));
            double down = n * (k / (double) n);
            p[k] = p[k - 1] * up / down;
            total += p[k];
        }
        double mean = 0;
        for (int k = 0; k <= n; k++) {
            mean += p[k] / total * k / n;
        }
        return mean;
    }
}
