package org.mflb.fluid.heterogeneous;

import org.mflb.core.system.ServerClasses;

/**
 * The fixed point of servers in classes of speeds (docs/models.md §10): per-class tails
 * {@code u_{k,i} = y_{k,i}/a_k} (fraction of class-{@code k} servers with at least {@code i} jobs,
 * {@code u_{k,0} = 1}) and the means that follow from them:
 * <pre>
 *   E[Q_k] = Σ_{i≥1} u_{k,i},   E[Q] = Σ_k a_k E[Q_k],   E[R] = E[Q]/λ,   E[R_k] = E[Q_k]/(s_k u_{k,1})
 * </pre>
 * ({@code E[R_k]}: Little's law for class {@code k}, whose servers receive jobs at the rate
 * {@code s_k u_{k,1}} they complete them).
 *
 * @param model the model (its levels are those the fixed point kept)
 * @param state {@code y}, in the model's order
 * @param residual the drift's max norm at {@code state}
 */
public record ClassFixedPoint(HeterogeneousModel model, double[] state, double residual) {

    /** Copies the state: the record stays immutable. */
    public ClassFixedPoint {
        state = state.clone();
    }

    @Override
    public double[] state() {
        return state.clone();
    }

    /** @return the per-class tail {@code u_{k,0..L}} of class {@code c} (0-based), {@code u_{k,0} = 1} */
    public double[] tail(int c) {
        ServerClasses classes = model.classes();
        double[] u = new double[model.levels() + 1];
        u[0] = 1;
        for (int i = 1; i <= model.levels(); i++) {
            u[i] = state[model.index(c, i)] / classes.fraction(c);
        }
        return u;
    }

    /** @return {@code E[Q_k]} of class {@code c} */
    public double meanQueueLength(int c) {
        double[] u = tail(c);
        double sum = 0;
        for (int i = u.length - 1; i >= 1; i--) { // smallest first
            sum += u[i];
        }
        return sum;
    }

    /** @return the mean number of jobs per server, {@code Σ_k a_k E[Q_k]} */
    public double meanQueueLength() {
        double sum = 0;
        for (int c = 0; c < model.classes().count(); c++) {
            sum += model.classes().fraction(c) * meanQueueLength(c);
        }
        return sum;
    }

    /** @return the mean response time {@code E[Q]/λ} */
    public double meanResponseTime() {
        return meanQueueLength() / model.arrivalRate().at(0);
    }

    /** @return the mean response time of the jobs sent to class {@code c}, {@code E[Q_k]/(s_k u_{k,1})} */
    public double meanResponseTime(int c) {
        return meanQueueLength(c) / (model.classes().speed(c) * tail(c)[1]);
    }

    /** @return the response-time law, overall and per class */
    public ClassResponseTime responseTime() {
        return new ClassResponseTime(this);
    }

    /** @return the fraction of arrivals sent to class {@code c}: {@code s_k y_{k,1}/λ} (edge balance) */
    public double arrivalShare(int c) {
        return model.classes().speed(c) * state[model.index(c, 1)] / model.arrivalRate().at(0);
    }
}
