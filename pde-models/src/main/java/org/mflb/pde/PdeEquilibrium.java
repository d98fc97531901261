package org.mflb.pde;

/**
 * The equilibrium of the hydrodynamic PDE (MODELS.md §5): the tail vector, the mean queue length,
 * the mean virtual waiting time from the age profile, and the figures that say how it was obtained.
 */
public final class PdeEquilibrium {

    private final double[] tail;
    private final double meanWait;
    private final double residual;
    private final double cutOffMass;
    private final double ageTruncation;
    private final double ageCutOffWork;

    PdeEquilibrium(double[] tail, double meanWait, double residual, double cutOffMass, double ageTruncation,
            double ageCutOffWork) {
        this.tail = tail;
        this.meanWait = meanWait;
        this.residual = residual;
        this.cutOffMass = cutOffMass;
        this.ageTruncation = ageTruncation;
        this.ageCutOffWork = ageCutOffWork;
    }

    /** @return {@code (1, x_1, ..., x_L)} (a copy) */
    public double[] tail() {
        return tail.clone();
    }

    /** @return levels kept {@code L} */
    public int levels() {
        return tail.length - 1;
    }

    /** @return mean jobs per server {@code Σ_{ℓ ≥ 1} x_ℓ} */
    public double meanQueueLength() {
        double s = 0;
        for (int i = 1; i < tail.length; i++) {
            s += tail[i];
        }
        return s;
    }

    /**
     * @return mean virtual waiting time {@code Σ_k r_k [(k−1) + ∫ ν_k m da/(x_k − x_{k+1})]}, computed
     *         from the age profile (by Little and PASTA it equals {@code Σ x_ℓ/λ − 1})
     */
    public double meanWait() {
        return meanWait;
    }

    /**
     * @return the convergence residual: the largest {@code |F_ℓ(x) − x_ℓ|} over the levels of the
     *         age-integrated stationary equations {@code x_ℓ = ∫ Ḡ φ_ℓ da}
     */
    public double residual() {
        return residual;
    }

    /** @return estimated mass {@code Σ_{ℓ > L} x_ℓ} cut off by the level truncation (geometric continuation) */
    public double cutOffMass() {
        return cutOffMass;
    }

    /** @return the age {@code A} where the age grid ends */
    public double ageTruncation() {
        return ageTruncation;
    }

    /** @return {@code ∫_A^∞ Ḡ}, the part of the service handled by the tail correction beyond {@code A} */
    public double ageCutOffWork() {
        return ageCutOffWork;
    }
}
