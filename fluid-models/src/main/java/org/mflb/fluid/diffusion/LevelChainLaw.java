package org.mflb.fluid.diffusion;

/**
 * The stationary law of a {@link LevelChain}, kept as level-wise summaries: with {@code π_j(k)}
 * the probability of state (j, k), the arrays hold {@code Σ_k π_j(k)}, {@code π_j(0)},
 * {@code Σ_k k π_j(k)} and {@code Σ_k k² π_j(k)} for every level j, the up rates, and optionally the
 * phase marginal {@code Σ_j π_j(k)}. Coordinates: {@code x₁ = −k h}, {@code x₂ = j h} with h the
 * chain's {@link LevelChain#step()} (docs/models.md §9).
 */
public final class LevelChainLaw {

    private final double step;
    private final double[] mass;
    private final double[] boundary;
    private final double[] first;
    private final double[] second;
    private final double[] up;
    private final double[] phaseMarginal;
    private final double balanceResidual;

    LevelChainLaw(double step, double[] mass, double[] boundary, double[] first, double[] second, double[] up,
            double[] phaseMarginal, double balanceResidual) {
        this.step = step;
        this.mass = mass;
        this.boundary = boundary;
        this.first = first;
        this.second = second;
        this.up = up;
        this.phaseMarginal = phaseMarginal;
        this.balanceResidual = balanceResidual;
    }

    /** @return the lattice step h */
    public double step() {
        return step;
    }

    /** @return the top level M */
    public int topLevel() {
        return mass.length - 1;
    }

    /** @return {@code Σ_k π_j(k)} */
    public double levelMass(int j) {
        return mass[j];
    }

    /** @return {@code π_j(0)}, the mass of the boundary phase of level j */
    public double boundaryMass(int j) {
        return boundary[j];
    }

    /** @return {@code |π_0(0) − 1|} before normalisation: the round-off in the conservation of mass */
    public double balanceResidual() {
        return balanceResidual;
    }

    /** @return {@code E[x₁] = −h Σ k π} */
    public double meanX1() {
        return -step * sum(first);
    }

    /** @return {@code E[x₂] = h Σ j π} */
    public double meanX2() {
        return step * weighted(mass, 1);
    }

    /** @return {@code Var x₁} */
    public double varX1() {
        double m = sum(first);
        return step * step * (sum(second) - m * m);
    }

    /** @return {@code Var x₂} */
    public double varX2() {
        double m = weighted(mass, 1);
        return step * step * (weighted(mass, 2) - m * m);
    }

    /** @return {@code Cov(x₁, x₂)} */
    public double covX1X2() {
        return step * step * (-weighted(first, 1) + sum(first) * weighted(mass, 1));
    }

    /** @return the long-run rate of the pushes times h: {@code h Σ_j up_j π_j(0)} (the local-time rate) */
    public double pushRate() {
        double s = 0;
        for (int j = 0; j < mass.length - 1; j++) {
            s += up[j] * boundary[j];
        }
        return step * s;
    }

    /** @return the mass of the boundary state of the top level, {@code π_M(0)} */
    public double topBoundaryMass() {
        return boundary[boundary.length - 1];
    }

    /** @return the up rate of level j */
    public double up(int j) {
        return up[j];
    }

    /** @return {@code P(x₂ > x)}: the mass of the levels j with {@code j h > x} */
    public double tailX2(double x) {
        double s = 0;
        for (int j = mass.length - 1; j >= 0 && j * step > x * (1 + 1e-12) + 1e-300; j--) {
            s += mass[j];
        }
        return s;
    }

    /**
     * @return {@code P(x₁ < −x)}: the mass of the phases k with {@code k h > x}
     * @throws IllegalStateException if the phase marginal was not computed
     */
    public double tailX1(double x) {
        if (phaseMarginal == null) {
            throw new IllegalStateException("phase marginal not computed");
        }
        double s = 0;
        for (int k = phaseMarginal.length - 1; k >= 0 && k * step > x * (1 + 1e-12) + 1e-300; k--) {
            s += phaseMarginal[k];
        }
        return s;
    }

    /** @return whether the phase marginal is available */
    public boolean hasPhaseMarginal() {
        return phaseMarginal != null;
    }

    private static double sum(double[] a) {
        double s = 0;
        for (int i = a.length - 1; i >= 0; i--) {
            s += a[i];
        }
        return s;
    }

    private static double weighted(double[] a, int power) {
        double s = 0;
        for (int j = a.length - 1; j >= 0; j--) {
            s += (power == 1 ? j : (double) j * j) * a[j];
        }
        return s;
    }
}
