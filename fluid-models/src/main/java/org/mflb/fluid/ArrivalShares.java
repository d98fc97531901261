package org.mflb.fluid;

/**
 * Where arrivals go in a fluid state: {@code s_j}, the share of arrivals that join a server (pool)
 * already holding at least {@code j} jobs (docs/models.md §7). It is all the response-time law of
 * FIFO queues with exponential service needs ({@link FluidResponseTime}), so every policy provides
 * it: a smooth policy as {@code s_j = h(x_j)} ({@link SmoothRouting}), a non-smooth one from the
 * arrival split {@code p_i} of the piece in force ({@code s_j = Σ_{i > j} p_i},
 * {@link org.mflb.fluid.nonsmooth.Regime#arrivalShares}). A policy added later plugs in by
 * implementing this interface.
 */
@FunctionalInterface
public interface ArrivalShares {

    /**
     * @param lambda arrival rate per server {@code λ(t)} at the state's time
     * @param levels {@code (x_1, ..., x_K)}; not modified
     * @return {@code (s_0, s_1, ..., s_K)}: nonincreasing in [0, 1]; {@code s_0 = 1} unless arrivals
     *         are lost, and {@code s_K} is the share lost at the last level kept (the blocking of a
     *         loss pool with {@code K = C})
     */
    double[] arrivalShares(double lambda, double[] levels);
}
