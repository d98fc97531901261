package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import java.util.List;

import org.mflb.core.sojourn.ErlangMixture;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.sojourn.SojournLaw;

/**
 * The response-time law of the fluid limit at one state (docs/models.md §7): for single-server FIFO
 * queues with unit-rate exponential service, a job that joins a queue holding {@code k} jobs stays
 * {@code Erlang(k+1)}, so with {@code s_j} the {@link ArrivalShares share of arrivals} that join a
 * queue with at least {@code j} jobs,
 * <pre>   P(T > t) = e^{−t} Σ_j s_j t^j/j!,     E[T] = Σ_j s_j.</pre>
 * In pools every task has its own unit-rate server, so the response time is the service time
 * {@code Exp(1)}; loss pools also reject the share {@code s_C} of arrivals that find a full pool
 * (the blocking probability; the law is that of the accepted jobs). At a fixed point this is the
 * stationary law; along a transient it is the law for a job that arrives at the state's time
 * ({@link FluidModel#responseTime(FluidFixedPoint)}, {@link FluidModel#responseTime(FluidTransient, int)}).
 * Immutable.
 */
public final class FluidResponseTime implements SojournLaw {

    private final ErlangMixture law;
    private final double blocking;
    private final double[] shares;

    private FluidResponseTime(ErlangMixture law, double blocking, double[] shares) {
        this.law = law;
        this.blocking = blocking;
        this.shares = shares;
    }

    /**
     * @param system the servers
     * @param policy where arrivals go
     * @param lambda arrival rate per server at the state's time
     * @param levels {@code (x_1..x_K)}
     * @return the response-time law at that state
     */
    public static FluidResponseTime of(ServerSystem system, ArrivalShares policy, double lambda, double[] levels) {
        return ofShares(system, policy.arrivalShares(lambda, levels));
    }

    /**
     * @param system the servers
     * @param s {@code (s_0, ..., s_K)}: the shares of arrivals that join a server with at least
     *        {@code j} jobs (for a policy whose state is more than the tail vector, e.g. SQ(d) with
     *        memory, whose shares follow from the (queue, observation) state)
     * @return the response-time law
     */
    public static FluidResponseTime ofShares(ServerSystem system, double[] s) {
        if (system.kind() == ServerSystem.Kind.SUPERMARKET) {
            // the share s_K lost at the truncation is below its tolerance: every arrival counts as joining
            double[] joined = s.clone();
            joined[0] = 1.0;
            return new FluidResponseTime(ErlangMixture.of(joined), 0.0, s);
        }
        double lost = system.isLossy() && s.length > system.capacity() ? s[system.capacity()] : 0.0;
        return new FluidResponseTime(ErlangMixture.exponential(), lost, s);
    }

    /** @return {@code (s_0, ..., s_K)} at the state (a copy) */
    public double[] arrivalShares() {
        return shares.clone();
    }

    /** @return the law as an Erlang mixture ({@code Exp(1)} for pools) */
    public ErlangMixture law() {
        return law;
    }

    /** @return the share of arrivals lost: the blocking probability {@code s_C} of loss pools, 0 otherwise */
    public double blocking() {
        return blocking;
    }

    @Override
    public double survival(double t) {
        return law.survival(t);
    }

    /** @return the density of the response time at {@code t} */
    public double density(double t) {
        return law.density(t);
    }

    /** @return {@code E[T]} (of the accepted jobs) */
    @Override
    public double mean() {
        return law.mean();
    }

    @Override
    public double quantile(double p) {
        return law.quantile(p);
    }

    /** @return the quantiles at {@code percentiles} */
    public List<Percentiles.Quantile> quantiles(Percentiles percentiles) {
        return percentiles.quantiles(law);
    }
}
