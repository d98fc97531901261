package org.mflb.fluid.nonsmooth;

import org.mflb.fluid.nonsmooth.Regime.Surface;

/**
 * Join-the-shortest-queue (docs/models.md §1 and §3): every arrival joins a server with the fewest jobs.
 * In the fluid limit the solution slides on {@code x_m = 1}, {@code m} the current minimum number of
 * jobs: arrivals first refill the servers that fall to {@code m−1} jobs
 * ({@code λ p_m = μ_m (1 − x_{m+1})}), the rest joins servers with exactly {@code m} jobs. This is
 * regime (b) of the threshold policy with the threshold at the moving minimum; when the minimum
 * drops, all arrivals go to the new minimum level, which again is regime (b) (there is no
 * uniform split below a threshold, hence no regime (a)):
 * <pre>
 *   x_m = 1, x_{m+1} &lt; 1  --[x_{m+1} reaches 1]-----------------------&gt; minimum m + 1
 *                          --[r = λ − μ_m (1 − x_{m+1}) turns negative]--&gt; minimum m − 1
 * </pre>
 */
public final class JoinShortestQueue implements NonSmoothPolicy {

    static final JoinShortestQueue INSTANCE = new JoinShortestQueue();

    private static final Surface[] AT_EMPTY = {Surface.LEVEL_FULL};
    private static final Surface[] AT = {Surface.LEVEL_FULL, Surface.EXCESS_NEGATIVE};

    private JoinShortestQueue() {
    }

    @Override
    public Regime initialRegime(double lambda, double[] mu, double[] x) {
        int m = NonSmoothPolicy.snapLeadingOnes(x);
        if (m >= 1 && !Regime.sustains(Regime.excess(m, lambda, mu, Regime.level(x, m + 1)), lambda)) {
            m--; // departures from level m outpace the arrivals: the minimum is about to drop
        }
        return Regime.at(m);
    }

    @Override
    public Surface[] surfaces(Regime regime) {
        return regime.pinned() == 0 ? AT_EMPTY : AT;
    }

    @Override
    public Regime next(Regime regime, Surface surface, double lambda, double[] mu, double[] x) {
        ThresholdPolicy.pinSurface(regime, surface, x);
        return initialRegime(lambda, mu, x);
    }

    @Override
    public <R> R match(NonSmoothPolicy.Cases<R> cases) {
        return cases.joinShortestQueue(this);
    }

    @Override
    public String name() {
        return "JSQ";
    }
}
