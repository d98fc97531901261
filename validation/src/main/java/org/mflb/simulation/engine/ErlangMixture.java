package org.mflb.simulation.engine;

/**
 * The conditional (Rao–Blackwell) estimator of the response-time distribution of FIFO single-server
 * queues with exponential service of rate μ (docs/models.md §7): a job that joins a queue holding
 * {@code k} jobs leaves after its own service and the {@code k} services (residual or full) ahead of
 * it, so given {@code k} its response time is Erlang({@code k + 1}, μ) by memorylessness. Averaging
 * that conditional law over the levels {@code k_1, ..., k_A} the arrivals of a unit joined,
 * <pre>
 *   F̄(t) = (1/A) Σ_a P(Erlang(k_a + 1, μ) &gt; t) = Σ_k w_k e^{−μt} Σ_{j ≤ k} (μt)^j / j!,   w_k = #{a : k_a = k} / A,
 * </pre>
 * is an unbiased estimate of the stationary CCDF with a smaller variance than the empirical CCDF
 * of the jobs' measured times (it integrates out the service times). Its quantile {@code F̄(q) = 1 − p}
 * is found by bisection to a relative 1e-12.
 */
final class ErlangMixture {

    private final double[] weight;
    private final double mu;

    /**
     * @param joined {@code joined[k]}: arrivals that joined a queue holding {@code k} jobs (not modified)
     * @param mu service rate
     */
    ErlangMixture(long[] joined, double mu) {
        int len = joined.length;
        while (len > 0 && joined[len - 1] == 0) {
            len--;
        }
        long total = 0;
        for (int k = 0; k < len; k++) {
            total += joined[k];
        }
        weight = new double[total > 0 ? len : 0];
        for (int k = 0; k < weight.length; k++) {
            weight[k] = joined[k] / (double) total;
        }
        this.mu = mu;
    }

    /** @return {@code F̄(t)}, the estimated probability that the response time exceeds {@code t ≥ 0} */
    double ccdf(double t) {
        double x = mu * t;
        if (x <= 0) {
            return 1;
        }
        // e^{-x} x^j / j! in logarithms: no underflow for the large x of heavy queues
        double logX = Math.log(x);
        double logTerm = -x;
        double partial = 0;
        double sum = 0;
        for (int k = 0; k < weight.length; k++) {
            if (k > 0) {
                logTerm += logX - Math.log(k);
            }
            partial += Math.exp(logTerm);
            sum += weight[k] * Math.min(partial, 1);
        }
        return sum;
    }

    /**
     * @param p probability in (0, 1)
     * @return the p-quantile {@code q} of the estimated law, {@code F̄(q) = 1 − p}; NaN without arrivals
     */
    double quantile(double p) {
        if (weight.length == 0) {
            return Double.NaN;
        }
        double target = 1 - p;
        double lo = 0;
        double hi = 1 / mu;
        while (ccdf(hi) > target) {
            lo = hi;
            hi *= 2;
        }
        for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (ccdf(mid) > target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }
}
