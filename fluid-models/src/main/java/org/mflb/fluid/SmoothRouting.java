package org.mflb.fluid;

/**
 * A dispatching policy whose fluid limit is smooth: an arrival picks a server by sampling, and
 * joins a server with at least {@code k} jobs with probability {@code h(x_k)}, a function of the
 * tail {@code x_k} alone. The arrival then joins a server with exactly {@code i−1} jobs with
 * probability {@code h(x_{i−1}) − h(x_i)}, which gives the drift of {@link TailModel}. Random
 * routing has {@code h(y) = y}; SQ(d) with replacement {@code h(y) = y^d} (the shortest of
 * {@code d} independent samples has {@code ≥ k} jobs iff all do).
 */
public sealed interface SmoothRouting extends FluidPolicy, ArrivalShares permits RandomRouting, PowerOfD {

    /** @return {@code cases.smooth(this)} */
    @Override
    default <R> R match(FluidPolicy.Cases<R> cases) {
        return cases.smooth(this);
    }

    /** @return true */
    @Override
    default boolean isSmooth() {
        return true;
    }

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

    /**
     * Whether the selection probability depends on the number of servers {@code N} (SQ(d) with
     * distinct servers), as {@code h_N(y) = h(y) + h¹(y)/N + h²(y)/N² + O(1/N³)} with {@code h} the
     * selection of {@link #limit()}. The refined mean field needs this expansion (docs/models.md §1, §4).
     *
     * @return whether {@code h} depends on {@code N}; false by default
     */
    @Override
    default boolean dependsOnSize() {
        return false;
    }

    /** @return the {@code N → ∞} limit of the policy: itself unless {@link #dependsOnSize()} */
    @Override
    default SmoothRouting limit() {
        return this;
    }

    /**
     * @param term 1 for {@code h¹}, 2 for {@code h²}
     * @param order derivative order, 0 to 2
     * @param y point in [0, 1]
     * @return the {@code order}-th derivative of the 1/N (term 1) or 1/N² (term 2) correction of the
     *         selection probability; 0 by default
     */
    default double sizeCorrectionDerivative(int term, int order, double y) {
        return 0.0;
    }

    /**
     * An arrival joins a server with at least {@code j} jobs with probability {@code s_j = h(x_j)}
     * (exact for distinct sampling too, at the states the fluid model uses: docs/models.md §7).
     */
    @Override
    default double[] arrivalShares(double lambda, double[] levels) {
        double[] s = new double[levels.length + 1];
        s[0] = selection(1.0);
        for (int j = 1; j <= levels.length; j++) {
            s[j] = Math.min(s[j - 1], selection(Math.min(1.0, Math.max(0.0, levels[j - 1]))));
        }
        return s;
    }

    /** @return the number of servers sampled per arrival */
    int d();

    /** @return a short description, e.g. {@code SQ(2)} */
    @Override
    String name();
}
