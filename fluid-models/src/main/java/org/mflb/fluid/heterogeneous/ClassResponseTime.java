package org.mflb.fluid.heterogeneous;

import org.mflb.core.sojourn.ErlangMixture;
import org.mflb.core.sojourn.SojournLaw;

/**
 * The response-time law of servers in classes of speeds at the fixed point (docs/models.md §7, §10):
 * a job that joins a class-{@code k} server holding {@code q} jobs stays {@code Erlang(q+1)} services
 * of rate {@code s_k}, so the jobs sent to class {@code k} have the Erlang mixture of §7 with the
 * shares {@code σ_{k,j} = Σ_{q≥j} r_{k,q} / Σ_q r_{k,q}}, at rate {@code s_k}:
 * <pre>
 *   P(R_k > t) = e^{−s_k t} Σ_{j≥0} σ_{k,j} (s_k t)^j / j!,       P(R > t) = Σ_k π_k P(R_k > t),
 * </pre>
 * with {@code π_k = Σ_q r_{k,q}} the fraction of arrivals sent to class {@code k}.
 */
public final class ClassResponseTime implements SojournLaw {

    private final double[] classShare;
    private final double[] speed;
    private final ErlangMixture[] perClass;

    /**
     * @param fixedPoint the fixed point
     */
    public ClassResponseTime(ClassFixedPoint fixedPoint) {
        HeterogeneousModel model = fixedPoint.model();
        int k = model.classes().count();
        int levels = model.levels();
        double[] beta = new double[model.transitions().size()];
        double[] y = fixedPoint.state();
        model.rates(0, y, beta);
        double lambda = model.arrivalRate().at(0);
        classShare = new double[k];
        speed = new double[k];
        perClass = new ErlangMixture[k];
        for (int c = 0; c < k; c++) {
            // r_{c,q} = β(arrival to (c, q+1)) / λ, q = 0..L−1
            double[] r = new double[levels];
            double total = 0;
            for (int q = 0; q < levels; q++) {
                r[q] = beta[2 * model.index(c, q + 1)] / lambda;
                total += r[q];
            }
            double[] shares = new double[levels];
            double atLeast = 0;
            for (int q = levels - 1; q >= 0; q--) {
                atLeast += r[q];
                shares[q] = total > 0 ? atLeast / total : 0;
            }
            classShare[c] = total;
            speed[c] = model.classes().speed(c);
            perClass[c] = total > 0 ? ErlangMixture.of(shares) : ErlangMixture.exponential();
        }
    }

    /** @return the fraction {@code π_k} of arrivals sent to class {@code c} */
    public double classShare(int c) {
        return classShare[c];
    }

    /** @return the law of the response time of the jobs sent to class {@code c} */
    public SojournLaw ofClass(int c) {
        ErlangMixture unitRate = perClass[c];
        double s = speed[c];
        return new SojournLaw() {
            @Override
            public double survival(double t) {
                return t < 0 ? 1.0 : unitRate.survival(s * t);
            }

            @Override
            public double mean() {
                return unitRate.mean() / s;
            }
        };
    }

    @Override
    public double survival(double t) {
        if (t < 0) {
            return 1.0;
        }
        double sum = 0;
        for (int c = 0; c < perClass.length; c++) {
            sum += classShare[c] * perClass[c].survival(speed[c] * t);
        }
        return sum;
    }

    @Override
    public double mean() {
        double sum = 0;
        for (int c = 0; c < perClass.length; c++) {
            sum += classShare[c] * perClass[c].mean() / speed[c];
        }
        return sum;
    }
}
