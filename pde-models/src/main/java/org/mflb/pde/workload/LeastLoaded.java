package org.mflb.pde.workload;

import java.util.Optional;

import org.hipparchus.analysis.solvers.BrentSolver;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.Pareto;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.sojourn.Percentiles;

/**
 * LL(d), the least-loaded of {@code d} servers sampled with replacement, in the mean-field limit with
 * general job sizes (docs/models.md §11, [HVH]): the immutable, validated parameters, and the
 * properties that follow from them without solving anything. A server's workload {@code V} has the
 * ccdf {@code F̄(w) = P(V > w)}; an arrival joins the least loaded of {@code d} samples, whose
 * workload {@code U} has {@code P(U > u) = F̄(u)^d}, and in equilibrium
 * <pre>
 *   F̄(w) = λ [ Ḡe(w) + ∫_0^w F̄(u)^d Ḡ(w − u) du ],   Ḡe(w) = ∫_w^∞ Ḡ,              (E2)
 * </pre>
 * i.e. {@code F̄ = λ P(U + Xe > ·)}, {@code F̄(0+) = λ}. Jobs are served FCFS, so the waiting time is
 * {@code W = U} and the response time {@code R = U + X}.
 * <pre>{@code
 *   LeastLoaded ll = LeastLoaded.of(2, 0.95, ServiceDistributions.parse("lognormal:scv=4"));
 *   WorkloadEquilibrium eq = ll.equilibrium(1e-6, Percentiles.of(50, 90, 99));
 *   double meanR = eq.meanResponseTime(), p99 = eq.responseTime().quantile(0.99);
 * }</pre>
 * The time unit is the mean job size: the law must have mean 1. Every law mflb parses is accepted; a
 * law without a density must be a point mass (the deterministic law).
 */
public final class LeastLoaded {

    /** Default relative accuracy of {@code E[R]} and of the quantiles asked for. */
    public static final double DEFAULT_TOLERANCE = 1e-6;

    private final int d;
    private final double lambda;
    private final ServiceDistribution service;
    private final boolean pointMass;

    private LeastLoaded(int d, double lambda, ServiceDistribution service, boolean pointMass) {
        this.d = d;
        this.lambda = lambda;
        this.service = service;
        this.pointMass = pointMass;
    }

    /**
     * @param d servers sampled per arrival, in [1, 1000]
     * @param lambda arrival rate per server (= load), in (0, 1)
     * @param service the job-size law, of mean 1
     * @return the model
     * @throws MflbException INVALID_PARAMETER naming the offending parameter
     */
    public static LeastLoaded of(int d, double lambda, ServiceDistribution service) {
        Require.between("d", d, 1, 1000);
        Require.open("lambda", lambda, 0, 1);
        boolean pointMass = checkSizes(service);
        return new LeastLoaded(d, lambda, service, pointMass);
    }

    /**
     * Checks a job-size law: mean 1, and a density unless it is the point mass at 1.
     *
     * @return whether it is the point mass at 1
     */
    static boolean checkSizes(ServiceDistribution service) {
        if (service == null) {
            throw MflbException.invalid("service", null, "a job-size law");
        }
        double mean = service.mean();
        if (!(Math.abs(mean - 1) <= 1e-9)) {
            throw MflbException.invalid("service", service.spec() + " (mean " + mean + ")",
                    "a law of mean 1 (the time unit is the mean job size)");
        }
        if (service.hasDensity()) {
            return false;
        }
        if (service.survival(Math.nextDown(1.0)) == 1.0 && service.survival(1.0) == 0.0) {
            return true;
        }
        throw MflbException.invalid("service", service.spec(), "a law with a density, or the point mass at 1 (det)");
    }

    /** @return servers sampled per arrival */
    public int d() {
        return d;
    }

    /** @return arrival rate per server, the load */
    public double lambda() {
        return lambda;
    }

    /** @return the job-size law */
    public ServiceDistribution service() {
        return service;
    }

    /** @return {@code P(W = 0) = 1 − λ^d}: the share of jobs that find an idle server */
    public double idleShare() {
        return 1 - Math.pow(lambda, d);
    }

    /**
     * Why the mean waiting time is infinite, if it is (docs/models.md §11.3). Since
     * {@code F̄ ≥ λ(1 − λ^d) Ḡe}, {@code E[W] = ∫F̄^d} is infinite when {@code ∫Ḡe^d} is: for
     * {@code d = 1} exactly when {@code E[X²] = ∞} (Pollaczek–Khinchine), for a tail
     * {@code Ḡ(x) ~ x^{−α}} when {@code d(α − 1) ≤ 1}. The tail index is the Pareto shape, or is read
     * from {@code Ḡ} at {@code 10^6} and {@code 10^7} for another law of infinite variance; a finite
     * {@code E[X²]} makes {@code E[W]} finite for every {@code d}.
     *
     * @return the reason, or empty when {@code E[W] < ∞}
     */
    public Optional<String> infiniteMeanReason() {
        double m2 = service.moment(2);
        if (Double.isFinite(m2)) {
            return Optional.empty();
        }
        if (d == 1) {
            return Optional.of("E[X^2] is infinite for " + service.spec()
                    + ", so with d = 1 (M/G/1) E[W] = lambda E[X^2]/(2(1 - lambda)) is infinite");
        }
        double alpha = tailIndex();
        if (d * (alpha - 1) <= 1) {
            return Optional.of(String.format(java.util.Locale.ROOT,
                    "the job-size tail P(X > x) ~ x^-%.4g makes E[W] infinite: F(w) >= lambda (1 - lambda^d) Ge(w)"
                            + " ~ w^-%.4g and d(alpha - 1) = %.4g <= 1", alpha, alpha - 1, d * (alpha - 1)));
        }
        return Optional.empty();
    }

    /** @return whether {@code E[W]} (and {@code E[R]}) are finite */
    public boolean hasFiniteMean() {
        return infiniteMeanReason().isEmpty();
    }

    private double tailIndex() {
        if (service instanceof Pareto) {
            return ((Pareto) service).shape();
        }
        double s1 = service.survival(1e6);
        double s2 = service.survival(1e7);
        if (!(s2 > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.log(s1 / s2) / Math.log(10);
    }

    /**
     * The heavy-traffic rate {@code θ} (docs/models.md §11.5): the root of {@code θ = d(1 − E e^{−θX})},
     * equivalently {@code d ∫_0^∞ e^{−θs} Ḡ(s) ds = 1}; {@code E[W] ≈ ln(1/(1 − λ))/θ + O(1)} as
     * {@code λ → 1}. Exponential sizes: {@code θ = d − 1}.
     *
     * @return {@code θ > 0}, to a relative 1e-12
     * @throws MflbException INVALID_PARAMETER for {@code d = 1} (no root: M/G/1 grows like {@code 1/(1 − λ)})
     */
    public double heavyTrafficRate() {
        if (d == 1) {
            throw MflbException.invalid("d", 1, ">= 2 for the heavy-traffic rate (d = 1 is M/G/1)");
        }
        BrentSolver solver = new BrentSolver(1e-14, 1e-13);
        return solver.solve(200, theta -> d * Quadrature.laplaceOfSurvival(service, theta) - 1, 1e-9, d);
    }

    /** @return the equilibrium to the default relative accuracy 1e-6 of {@code E[R]} */
    public WorkloadEquilibrium equilibrium() {
        return equilibrium(DEFAULT_TOLERANCE, null);
    }

    /**
     * The equilibrium by the error-controlled march of (E2) (docs/models.md §11.2): grids
     * {@code h = 1/8, 1/16, ...} on a common reach, Richardson extrapolation over the last two, until
     * the change of the extrapolated {@code E[R]} and quantiles between the last two pairs of grids
     * (plus the tail term's uncertainty) is below the tolerance.
     *
     * @param tolerance relative accuracy of {@code E[R]} and of the quantiles (relative to
     *        {@code max(q, E[X])}), in [1e-12, 0.1]
     * @param percentiles the percentiles whose response- and waiting-time quantiles must meet it, or null
     * @return the equilibrium
     * @throws MflbException NO_CONVERGENCE when the tolerance would need more than
     *         {@link EquilibriumSolver#MAX_NODES} nodes
     */
    public WorkloadEquilibrium equilibrium(double tolerance, Percentiles percentiles) {
        if (!(tolerance >= 1e-12 && tolerance <= 0.1)) {
            throw MflbException.invalid("tolerance", tolerance, "in [1e-12, 0.1]");
        }
        return new EquilibriumSolver(this, tolerance, percentiles).solve();
    }

    /** Points where {@code F̄} or the response-time ccdf is not smooth (kinks of {@code Ḡ} and their echoes). */
    double[] kinks() {
        if (pointMass) {
            // F̄ has a jump in its k-th derivative at w = k; cubic interpolation needs k ≤ 3 kept apart
            return new double[] {1, 2, 3};
        }
        if (service instanceof Pareto) {
            return new double[] {((Pareto) service).minimum()};
        }
        return new double[0];
    }

    /** @return whether every job has size 1 */
    boolean pointMassSizes() {
        return pointMass;
    }

    @Override
    public String toString() {
        return "LL(" + d + "), lambda " + lambda + ", sizes " + service.spec();
    }
}
