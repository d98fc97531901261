package org.mflb.fluid;

/**
 * A dispatching policy whose fluid limit is smooth: an arrival picks a server by sampling, and
 * joins a server with at least {@code k} jobs with probability {@code h(x_k)}, a function of the
 * tail {@code x_k} alone. The arrival then joins a server with exactly {@code i−1} jobs with
 * probability {@code h(x_{i−1}) − h(x_i)}, which gives the drift of {@link TailModel}. Random
 * routing has {@code h(y) = y}; SQ(d) with replacement {@code h(y) = y^d} (the shortest of
 * {@code d} independent samples has {@code ≥ k} jobs iff all do).
 */
public interface SmoothRouting {

    /**
     * @param y fraction of servers with at least {@code k} jobs, in [0, 1]
     * @return {@code h(y)}, the probability that the chosen server has at least {@code k} jobs
     */
    double selection(double y);

    /**
     * @param order derivative order, 0 to 4 (0 is {@link #selection})
     * @param y point in [0, 1]
     * @return {@code h^{(order)}(y)}
     */
    double selectionDerivative(int order, double y);

    /** @return the number of servers sampled per arrival */
    int d();

    /** @return a short description, e.g. {@code SQ(2)} */
    String name();
}
