package org.mflb.fluid.nonsmooth;

/**
 * Join-the-shortest-queue (MODELS.md §1 and §3): every arrival joins a server with the fewest jobs.
 * In the fluid limit the solution slides on {@code x_m = 1}, {@code m} the current minimum number of
 * jobs: arrivals first refill the servers that fall to {@code m−1} jobs
 * ({@code λ p_m = μ_m (1 − x_{m+1})}), the rest joins servers with exactly {@code m} jobs. This is
 * regime (b) of the threshold policy with the threshold at the moving minimum:
 * <pre>
 *   x_m = 1, x_{m+1} &lt; 1  --[x_{m+1} reaches 1]--------------------&gt; minimum m + 1
 *                          --[μ_m (1 − x_{m+1}) − λ crosses 0 upward]--&gt; minimum m − 1
 * </pre>
 */
public final class JoinShortestQueue implements NonSmoothPolicy {

    static final JoinShortestQueue INSTANCE = new JoinShortestQueue();

    private JoinShortestQueue() {
    }

    @Override
    public Regime initialRegime(double lambda, double[] mu, double[] x) {
        int m = NonSmoothPolicy.snapLeadingOnes(x);
        if (m >= 1 && mu[m - 1] * (1.0 - Regime.level(x, m + 1)) > lambda) {
            m--;
        }
        return Regime.at(m);
    }

    @Override
    public int surfaces(Regime regime) {
        return regime.pinned() == 0 ? 1 : 2;
    }

    @Override
    public double switchingFunction(Regime regime, int k, double lambda, double[] mu, double[] x) {
        return k == 0 ? Regime.level(x, regime.pinned() + 1) - 1.0 : regime.leaving(lambda, mu, x);
    }

    @Override
    public Regime next(Regime regime, int k, double lambda, double[] mu, double[] x) {
        Regime following = Regime.at(regime.pinned() + (k == 0 ? 1 : -1));
        following.pin(x);
        return following;
    }

    @Override
    public String name() {
        return "JSQ";
    }
}
