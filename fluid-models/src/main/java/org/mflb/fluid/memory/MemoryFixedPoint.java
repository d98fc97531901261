package org.mflb.fluid.memory;

import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.mflb.core.Require;
import org.mflb.fluid.TailVectors;

/**
 * The fixed point of SQ(d) with memory from the tagged-server chain ({@code docs/models.md §1a}).
 * Only the observation levels {@code L} and {@code L+1} carry mass, with
 * {@code L = ⌈r⌉ − 1}, {@code r = −ln(1−λ)/ln(1+λd)} (so {@code L} jumps at the roots of
 * {@code (1−λ)(1+λd)^L = 1}). With {@code β = λd}, {@code p_i = y_{i,L}}, {@code q_i = y_{i,L+1}}
 * and {@code α} the rate at which a server of level {@code L} receives jobs, the balance equations
 * of a tagged server are
 *
 * <pre>
 *   p_i (1+α+β) = p_{i+1}  (1 ≤ i &lt; L),     p_0 (α+β) = p_1,
 *   q_{L+1} = α p_L,     q_i (1+β) = q_{i+1} + α p_{i−1}  (1 ≤ i ≤ L),     β q_0 = q_1,
 *   Σ p + Σ q = 1,       p_0 + q_0 = 1 − λ   (this fixes α: one root in (0, ∞)).
 * </pre>
 *
 * For {@code L = 0} ({@code λ ≤ 1 − 1/d}) it is the closed form {@code y_{0,0} = 1 − λ − 1/d},
 * {@code y_{0,1} = 1/d}, {@code y_{1,1} = λ}: every job reaches an idle server. The results are
 * exact up to rounding and the root's accuracy (about 1e-15).
 */
public final class MemoryFixedPoint {

    /**
     * {@code p_i} grows like {@code (1 + α + β)^i}: near {@code λ = 1} (many levels) it would
     * overflow to infinity and the normalised chain to NaN; it is divided by this whenever it passes it.
     */
    private static final double RESCALE = 0x1p500;

    private final MemoryPolicy policy;
    private final double lambda;
    private final int level;
    private final double alpha;
    private final MemoryLattice lattice;
    private final double[] y;
    private final double residual;

    private MemoryFixedPoint(MemoryPolicy policy, double lambda, int level, double alpha, MemoryLattice lattice,
            double[] y) {
        this.policy = policy;
        this.lambda = lambda;
        this.level = level;
        this.alpha = alpha;
        this.lattice = lattice;
        this.y = y;
        double[] f = new double[lattice.size];
        new MemoryDrift(lattice, policy.d(), level).driftOfState(lambda, y, f);
        double max = 0;
        for (double v : f) {
            max = Math.max(max, Math.abs(v));
        }
        this.residual = max;
    }

    /**
     * @param policy the policy
     * @param lambda the load, in (0, 1)
     * @param levels observation levels to keep, {@code ≥ L + 1} (more only pads with zeros)
     * @return the fixed point
     */
    static MemoryFixedPoint of(MemoryPolicy policy, double lambda, int levels) {
        Require.open("lambda", lambda, 0, 1);
        int d = policy.d();
        double beta = lambda * d;
        int level = policy.queueBound(lambda) - 1;
        MemoryLattice lattice = new MemoryLattice(Math.max(levels, level + 1));
        double[] y = new double[lattice.size];
        if (level == 0) {
            y[MemoryLattice.index(0, 0)] = Math.max(0.0, 1 - lambda - 1.0 / d);
            y[MemoryLattice.index(0, 1)] = 1.0 / d;
            y[MemoryLattice.index(1, 1)] = lambda;
            double m0 = y[MemoryLattice.index(0, 0)];
            return new MemoryFixedPoint(policy, lambda, 0, m0 > 0 ? lambda / m0 : Double.POSITIVE_INFINITY, lattice, y);
        }
        double lo = -60;
        double hi = 60;
        double alpha;
        if (!(idleGap(Math.exp(hi), beta, level, lambda) < 0)) {
            alpha = Math.exp(hi); // at a threshold λ_L the root goes to ∞; e^60 is that limit to ~1e-26
        } else if (!(idleGap(Math.exp(lo), beta, level, lambda) > 0)) {
            alpha = Math.exp(lo);
        } else {
            double s = new BracketingNthOrderBrentSolver(1e-15, 1e-16, 1e-300, 5)
                    .solve(10_000, v -> idleGap(Math.exp(v), beta, level, lambda), lo, hi);
            alpha = Math.exp(s);
        }
        double[][] pq = chain(alpha, beta, level);
        for (int i = 0; i <= level; i++) {
            y[MemoryLattice.index(i, level)] = pq[0][i];
        }
        for (int i = 0; i <= level + 1; i++) {
            y[MemoryLattice.index(i, level + 1)] = pq[1][i];
        }
        return new MemoryFixedPoint(policy, lambda, level, alpha, lattice, y);
    }

    /** @return {@code (p_0 + q_0) − (1 − λ)} of the normalised chain at {@code α} */
    private static double idleGap(double alpha, double beta, int level, double lambda) {
        double[][] pq = chain(alpha, beta, level);
        return pq[0][0] + pq[1][0] - (1 - lambda);
    }

    /** @return the normalised {@code (p_0..p_L)} and {@code (q_0..q_{L+1})} at {@code α} */
    private static double[][] chain(double alpha, double beta, int level) {
        double[] p = new double[level + 1];
        double[] q = new double[level + 2];
        p[0] = 1.0;
        if (level >= 1) {
            p[1] = alpha + beta;
            for (int i = 1; i < level; i++) {
                p[i + 1] = (1 + alpha + beta) * p[i];
                if (p[i + 1] > RESCALE) { // the chain is homogeneous: rescaling keeps it, overflow would not
                    for (int k = 0; k <= i + 1; k++) {
                        p[k] /= RESCALE;
                    }
                }
            }
        }
        q[level + 1] = alpha * p[level];
        for (int i = level; i >= 1; i--) {
            q[i] = (q[i + 1] + alpha * p[i - 1]) / (1 + beta);
        }
        q[0] = q[1] / beta;
        double sum = 0;
        for (double v : p) {
            sum += v;
        }
        for (double v : q) {
            sum += v;
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= sum;
        }
        for (int i = 0; i < q.length; i++) {
            q[i] /= sum;
        }
        return new double[][] {p, q};
    }

    /** @return the policy */
    public MemoryPolicy policy() {
        return policy;
    }

    /** @return the load {@code λ} */
    public double lambda() {
        return lambda;
    }

    /** @return {@code (x_1..x_K)} */
    public double[] levels() {
        return MemoryLattice.tail(lattice.queueLaw(y));
    }

    /** @return {@code (1, x_1..x_K)} */
    public double[] tail() {
        return TailVectors.withLevelZero(levels());
    }

    /** @return mean jobs per server {@code E[Q] = Σ x_i} */
    public double meanQueueLength() {
        return TailVectors.mean(levels());
    }

    /** @return the observation level {@code L} of the fixed point (the pool level) */
    public int memoryLevel() {
        return level;
    }

    /** @return the largest queue length held by a positive fraction of servers, {@code L + 1 = ⌈r⌉} */
    public int maxQueueLength() {
        return lattice.maxQueueLength(y, 0.0);
    }

    /** @return {@code α}, the rate of jobs to a server at level {@code L} (∞ at {@code λ = 1 − 1/d}) */
    public double alpha() {
        return alpha;
    }

    /** @return the share of jobs sent to idle servers (1 iff {@code λ ≤ 1 − 1/d}) */
    public double idleShare() {
        return lattice.idleShare(y, level, policy.d());
    }

    /** @return the share of jobs sent to servers the dispatcher believes idle, {@code min(1, d(1 − λ))} */
    public double believedIdleShare() {
        return lattice.believedIdleShare(y, level, policy.d());
    }

    /** @return {@code E[m − Q]}, the mean excess of the observation over the queue length ({@code 1/d}) */
    public double meanObservationExcess() {
        return lattice.meanObservationExcess(y);
    }

    /**
     * The shares of arrivals that join a queue with at least {@code j} jobs, {@code s_0 = 1, s_1, ...}:
     * with FIFO unit-rate service the response time obeys
     * {@code P(T > t) = e^{−t} Σ_j s_j t^j/j!} ({@code docs/models.md §7}).
     *
     * @return {@code (s_0..s_K)}
     */
    public double[] joinShares() {
        return lattice.joinShares(y, level, policy.d());
    }

    /** @return {@code y} as rows {@code [j][i] = y_{i,j}} */
    public double[][] state() {
        return lattice.rows(y);
    }

    /** @return the flat state on the lattice (package use) */
    double[] flatState() {
        return y.clone();
    }

    /** @return the observation levels kept, {@code K} */
    public int truncation() {
        return lattice.levels;
    }

    /** @return the mass beyond the truncation: 0 (the fixed point lives on levels ≤ L + 1) */
    public double cutOffMass() {
        return 0.0;
    }

    /** @return {@code ‖f(y)‖∞} of the drift of level {@code L} at the fixed point */
    public double residual() {
        return residual;
    }
}
