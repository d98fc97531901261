package org.mflb.fluid.diffusion;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The exact N-server JSQ chain in the Halfin–Whitt regime with at most two jobs per server
 * (docs/models.md §9): N exp(1) servers, arrivals at rate {@code a = Nλ_N}, {@code λ_N = 1 − β/√N},
 * state {@code (Q₁, Q₂)} (servers with at least one, two jobs), {@code Q₃ ≡ 0}:
 * <pre>
 *   Q₁ + 1 at rate a if Q₁ &lt; N;   Q₂ + 1 at rate a if Q₁ = N, Q₂ &lt; N (an arrival at Q₂ = N is lost);
 *   Q₁ − 1 at rate Q₁ − Q₂;       Q₂ − 1 at rate Q₂.
 * </pre>
 * As a {@link LevelChain}: level {@code j = Q₂}, phase {@code k = N − Q₁}, step {@code h = N^{-1/2}},
 * so that {@code X₁ = (Q₁ − N)/√N = −k h} and {@code X₂ = Q₂/√N = j h}. It is the infinite-buffer
 * JSQ system until an arrival finds every server with two jobs, which happens at the rate
 * {@code a π(N, N)}; that rate bounds, to leading order, the probability {@code P(Q₃ > 0)} of the
 * infinite-buffer system (its level-3 balance reads {@code E[Q₃ − Q₄] = a P(Q₂ = N, Q₃ < N)}).
 * For the computation the chain is cut where its mass is below double precision: phases at
 * {@code k ≤ ⌈depth √N⌉} and levels at {@code j ≤ ⌈height √N⌉} (both reflecting), never beyond N.
 */
public final class JsqPrelimit implements LevelChain {

    private final int n;
    private final double beta;
    private final double arrivalRate;
    private final int phases;
    private final int levels;

    /**
     * @param n the number of servers N, with {@code √N > β} (so that λ_N > 0)
     * @param beta β > 0
     * @param depth the cut {@code X₁ ≥ −depth}, > 0
     * @param height the cut {@code X₂ ≤ height}, > 0
     */
    public JsqPrelimit(int n, double beta, double depth, double height) {
        this.beta = Require.positive("beta", beta);
        Require.atLeast("n", n, 1);
        if (!(Math.sqrt(n) > beta)) {
            throw MflbException.invalid("n", n, "> beta^2 = " + beta * beta + " (lambda_N = 1 - beta/sqrt(N) > 0)");
        }
        this.n = n;
        double root = Math.sqrt(n);
        arrivalRate = n - beta * root;
        phases = (int) Math.min(n, Math.ceil(Require.positive("depth", depth) * root));
        levels = (int) Math.min(n, Math.ceil(Require.positive("height", height) * root));
        if ((long) phases * levels > 2_000_000_000L) {
            throw MflbException.invalid("n", n, "small enough for at most 2e9 states");
        }
    }

    /** @return N */
    public int servers() {
        return n;
    }

    /** @return β */
    public double beta() {
        return beta;
    }

    /** @return the total arrival rate {@code a = Nλ_N = N − β√N} */
    public double arrivalRate() {
        return arrivalRate;
    }

    /** @return whether the levels reach Q₂ = N (no cut in x₂) */
    public boolean levelsComplete() {
        return levels == n;
    }

    /**
     * The stationary law of the chain, solved exactly by {@link LevelReduction}.
     *
     * @param tailPoints points x of the tails {@code P(X₂ > x)}, {@code P(X₁ < −x)}
     * @return its statistics and the rate {@code a π(N, N)} of arrivals that find every server with
     *         two jobs (the leading-order {@code P(Q₃ > 0)} of the infinite-buffer system)
     */
    public Stationary stationary(double[] tailPoints) {
        LevelChainLaw law = LevelReduction.stationary(this, tailPoints.length > 0);
        return new Stationary(n, HalfinWhittStatistics.of(law, tailPoints), arrivalRate * law.topBoundaryMass(),
                levelsComplete(), law);
    }

    /**
     * The stationary law of the capacity-2 chain.
     *
     * @param servers N
     * @param statistics the statistics of {@code (X₁, X₂)}
     * @param pQ3Positive {@code a π(N, N)} when {@code exact}; otherwise (the levels cut below
     *        Q₂ = N, where the mass above the cut is below 1e-16) {@code a π(N, M)} at the cut M,
     *        which overestimates it (the stationary tail in Q₂ decreases) and is below 1e-14
     * @param exact whether the levels reach Q₂ = N
     * @param law the level-wise law
     */
    public record Stationary(int servers, HalfinWhittStatistics statistics, double pQ3Positive, boolean exact,
            LevelChainLaw law) {
    }

    @Override
    public int topLevel() {
        return levels;
    }

    @Override
    public int lastPhase(int level) {
        double root = Math.sqrt(n);
        int cut = (int) Math.min(phases, Math.ceil(HalfinWhittJsq.depthAt(beta, phases / root, level / root) * root));
        return Math.min(cut, n - level);
    }

    @Override
    public double step() {
        return 1 / Math.sqrt(n);
    }

    @Override
    public double rates(int level, double[] toward, double[] away, double[] down) {
        int last = lastPhase(level);
        for (int k = 0; k <= last; k++) {
            toward[k] = arrivalRate;
            away[k] = n - k - level; // Q₁ − Q₂
            down[k] = level;
        }
        return arrivalRate;
    }
}
