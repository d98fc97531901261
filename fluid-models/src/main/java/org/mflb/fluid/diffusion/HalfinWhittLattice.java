package org.mflb.fluid.diffusion;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * Kushner's Markov-chain approximation of the Halfin–Whitt JSQ diffusion (Eschenfeldt–Gamarnik;
 * docs/models.md §9), whose generator is
 * <pre>
 *   L f = f₁₁ + (−β − x₁ + x₂) f₁ − x₂ f₂   on x₁ ≤ 0, x₂ ≥ 0,   reflection direction (−1, +1) at x₁ = 0,
 * </pre>
 * on the lattice {@code x₁ = −k h} (phases k = 0..K), {@code x₂ = j h} (levels j = 0..M):
 * <ul>
 * <li>in x₁, exponential fitting (Scharfetter–Gummel) of diffusion coefficient 1 and drift
 * {@code b = −β − x₁ + x₂} taken at the edge's midpoint: across the edge between phases k and k+1,
 * {@code k+1 → k} at rate {@code B(−b h)/h²} and {@code k → k+1} at rate {@code B(b h)/h²},
 * {@code B(z) = z/(eᶻ − 1)}; the rates are positive for every h and drift (no step restriction) and
 * their difference is exactly {@code b/h};</li>
 * <li>in x₂, upwind: {@code j → j−1} at rate {@code x₂/h = j};</li>
 * <li>the reflection: the move of phase 0 across the boundary (rate {@code B(−b h)/h²} with b at
 * {@code x₁ = h/2}) is replaced by the push {@code (0, j) → (0, j+1)}, i.e. by h times the
 * direction (−1, +1) from the outside point; so h times the push rate is the local-time rate
 * {@code E[dU/dt]} and {@code E[dU/dt] = E[x₂]} holds exactly on the lattice;</li>
 * <li>truncation: reflecting at {@code x₁ = −K h} and {@code x₂ = M h}.</li>
 * </ul>
 * The chain's moments converge at rate O(h) to the diffusion's; {@link HalfinWhittLimit}
 * extrapolates them in h.
 */
public final class HalfinWhittLattice implements LevelChain {

    private final double beta;
    private final double h;
    private final int phases;
    private final int levels;

    /**
     * @param beta β > 0
     * @param h the step, in (0, 1]
     * @param depth the truncation {@code x₁ ≥ −depth} (a multiple of h, > 0)
     * @param height the truncation {@code x₂ ≤ height} (a multiple of h, > 0)
     */
    public HalfinWhittLattice(double beta, double h, double depth, double height) {
        this.beta = Require.positive("beta", beta);
        if (!(h > 0 && h <= 1)) {
            throw MflbException.invalid("h", h, "in (0, 1]");
        }
        this.h = h;
        Require.positive("depth", depth);
        Require.positive("height", height);
        long k = Math.round(depth / h);
        long m = Math.round(height / h);
        if (k * m > 2_000_000_000L) {
            throw MflbException.invalid("h", h, "large enough for at most 2e9 lattice states");
        }
        phases = (int) k;
        levels = (int) m;
    }

    @Override
    public int topLevel() {
        return levels;
    }

    @Override
    public int lastPhase(int level) {
        return (int) Math.min(phases, Math.ceil(HalfinWhittJsq.depthAt(beta, phases * h, level * h) / h - 1e-9));
    }

    @Override
    public double step() {
        return h;
    }

    @Override
    public double rates(int level, double[] toward, double[] away, double[] down) {
        double inv = 1 / (h * h);
        double x2 = level * h;
        int last = lastPhase(level);
        for (int k = 0; k < last; k++) {
            double b = -beta + (k + 0.5) * h + x2;
            away[k] = bernoulli(b * h) * inv;
            toward[k + 1] = bernoulli(-b * h) * inv;
        }
        for (int k = 0; k <= last; k++) {
            down[k] = level;
        }
        double bOutside = -beta - 0.5 * h + x2;
        return bernoulli(-bOutside * h) * inv;
    }

    /** @return the Bernoulli function {@code B(z) = z/(eᶻ − 1)}, B(0) = 1 */
    static double bernoulli(double z) {
        if (Math.abs(z) < 1e-5) {
            return 1 - z / 2 + z * z / 12;
        }
        return z / Math.expm1(z);
    }
}
