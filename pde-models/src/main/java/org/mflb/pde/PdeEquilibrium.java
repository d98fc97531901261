package org.mflb.pde;

/**
 * The equilibrium of the hydrodynamic PDE (docs/models.md §5): the tail vector, the mean queue length,
 * the mean virtual waiting time from the age profile, and the figures that say how it was obtained.
 */
public final class PdeEquilibrium {

    private final double[] tail;
    private final double meanQueueLength;
    private final double meanWait;
    private final double residual;
    private final double cutOffMass;
    private final double cutOffUncertainty;
    private final double ageTruncation;
    private final double ageCutOffWork;

    PdeEquilibrium(double[] tail, double meanQueueLength, double meanWait, double residual, double cutOffMass,
            double cutOffUncertainty, double ageTruncation, double ageCutOffWork) {
        this.tail = tail;
        this.meanQueueLength = meanQueueLength;
        this.meanWait = meanWait;
        this.residual = residual;
        this.cutOffMass = cutOffMass;
        this.cutOffUncertainty = cutOffUncertainty;
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

    /**
     * @return mean jobs per server {@code Σ_{ℓ ≥ 1} x_ℓ}: the levels kept plus the estimated
     *         {@link #cutOffMass()} of the levels above them
     */
    public double meanQueueLength() {
        return meanQueueLength;
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

    /**
     * @return estimated mass {@code Σ_{ℓ > L} x_ℓ} of the levels above the last one kept (included in
     *         {@link #meanQueueLength()}): a geometric continuation when {@code x_L} fell below the
     *         level tolerance, a power-law continuation otherwise (heavy-tailed service)
     */
    public double cutOffMass() {
        return cutOffMass;
    }

    /**
     * @return the uncertainty of {@link #cutOffMass()} (and so of the mean queue length): the change
     *         of the extrapolated mean queue length between {@code L/2} and {@code L} levels; 0 when
     *         the tail stopped below the level tolerance
     */
    public double cutOffUncertainty() {
        return cutOffUncertainty;
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
