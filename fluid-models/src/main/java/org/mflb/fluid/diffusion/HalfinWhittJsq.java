package org.mflb.fluid.diffusion;

import org.mflb.core.Require;

/**
 * JSQ in the Halfin–Whitt regime (docs/models.md §9): N exp(1) servers, arrival rate
 * {@code Nλ_N}, {@code λ_N = 1 − β/√N}; {@code X₁ = (Q₁ − N)/√N ≤ 0}, {@code X₂ = Q₂/√N}. The
 * limit (Eschenfeldt–Gamarnik) is the reflected Ornstein–Uhlenbeck process
 * <pre>
 *   dX₁ = √2 dW − (β + X₁ − X₂) dt − dU,   dX₂ = dU − X₂ dt,   X₁ ≤ 0,
 * </pre>
 * U non-decreasing and increasing only when X₁ = 0. This class holds β and the truncation of the
 * state space shared by the lattice ({@link HalfinWhittLattice}) and the prelimit
 * ({@link JsqPrelimit}): the stationary tails are {@code P(X₂ > x) ~ C x e^{−βx}} and
 * {@code log P(X₁ < −x) ≈ −(x − β)²/2}, so {@code X₁ ≥ −(β + 9)} and
 * {@code X₂ ≤ (38 + ln(1 + 40/β))/β} leave out mass below 1e-16.
 *
 * @param beta β > 0
 */
public record HalfinWhittJsq(double beta) {

    /** Smallest depth of the x₁ cut at high levels. */
    static final double MIN_DEPTH = 0.5;

    /** Validates. */
    public HalfinWhittJsq {
        Require.positive("beta", beta);
        if (beta > 50) {
            throw org.mflb.core.MflbException.invalid("beta", beta, "in (0, 50]");
        }
        if (beta < 0.05) {
            throw org.mflb.core.MflbException.invalid("beta", beta, ">= 0.05 (the state space grows like 1/beta)");
        }
    }

    /** @return the depth of the x₁ cut: {@code x₁ ≥ −(β + 9)} */
    public double depth() {
        return beta + 9;
    }

    /** @return the height of the x₂ cut, {@code (38 + ln(1 + 40/β))/β} */
    public double height() {
        return (38 + Math.log(1 + 40 / beta)) / beta;
    }

    /**
     * The depth of the x₁ cut at height x₂. Above {@code x₂ = β} the drift {@code −β − x₁ + x₂} of
     * x₁ pushes toward the boundary on the whole cut, and the conditional law of x₁ given x₂ is
     * close to the exponential law of rate {@code x₂ − β} at the boundary, whose mass below
     * {@code −40/(x₂ − β)} is {@code e^{−40}}; the depth is the larger of that and of the full depth
     * reduced by {@code x₂ − β} (the Gaussian tail shifted by the drift), never more than the full depth.
     *
     * @param beta β
     * @param depth the full depth
     * @param x2 the height
     * @return the depth at that height
     */
    static double depthAt(double beta, double depth, double x2) {
        double excess = x2 - beta;
        if (excess <= 0) {
            return depth;
        }
        return Math.min(depth, Math.max(MIN_DEPTH, Math.max(depth - excess, 40 / excess)));
    }

    /** @return the Kushner lattice of step h on the standard cut */
    public HalfinWhittLattice lattice(double h) {
        return new HalfinWhittLattice(beta, h, depth(), height());
    }

    /** @return the capacity-2 N-server chain on the standard cut */
    public JsqPrelimit prelimit(int n) {
        return new JsqPrelimit(n, beta, depth(), height());
    }
}
