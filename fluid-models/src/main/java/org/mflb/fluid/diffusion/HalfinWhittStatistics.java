package org.mflb.fluid.diffusion;

/**
 * Stationary statistics of the Halfin–Whitt JSQ diffusion or of one of its approximating chains
 * (docs/models.md §9): moments of {@code (X₁, X₂)}, the local-time rate {@code E[dU/dt]} and the
 * marginal tails {@code P(X₂ > x)}, {@code P(X₁ < −x)} at the points {@link #tailPoints()}.
 *
 * @param meanX1 E[X₁] (−β in the limit and for every N)
 * @param meanX2 E[X₂]
 * @param varX1 Var X₁ (1 − βE[X₂]/2 in the limit)
 * @param varX2 Var X₂
 * @param covX1X2 Cov(X₁, X₂) (βE[X₂]/2 in the limit)
 * @param localTimeRate E[dU/dt] (E[X₂] in the limit)
 * @param tailPoints the points x of the tails
 * @param tailX2 P(X₂ > x) at each point
 * @param tailX1 P(X₁ &lt; −x) at each point
 */
public record HalfinWhittStatistics(double meanX1, double meanX2, double varX1, double varX2, double covX1X2,
        double localTimeRate, double[] tailPoints, double[] tailX2, double[] tailX1) {

    /** Number of scalar statistics before the tails in {@link #toVector()}. */
    static final int SCALARS = 6;

    /** Copies the arrays. */
    public HalfinWhittStatistics {
        tailPoints = tailPoints.clone();
        tailX2 = tailX2.clone();
        tailX1 = tailX1.clone();
        if (tailX2.length != tailPoints.length || tailX1.length != tailPoints.length) {
            throw new IllegalArgumentException("one tail value per point");
        }
    }

    @Override
    public double[] tailPoints() {
        return tailPoints.clone();
    }

    @Override
    public double[] tailX2() {
        return tailX2.clone();
    }

    @Override
    public double[] tailX1() {
        return tailX1.clone();
    }

    /**
     * @param law a stationary law of a {@link LevelChain} in the coordinates {@code x₁ = −kh}, {@code x₂ = jh}
     * @param points the tail points (the tail of X₁ is NaN without the phase marginal)
     * @return its statistics
     */
    public static HalfinWhittStatistics of(LevelChainLaw law, double[] points) {
        double[] t2 = new double[points.length];
        double[] t1 = new double[points.length];
        for (int i = 0; i < points.length; i++) {
            t2[i] = law.tailX2(points[i]);
            t1[i] = law.hasPhaseMarginal() ? law.tailX1(points[i]) : Double.NaN;
        }
        return new HalfinWhittStatistics(law.meanX1(), law.meanX2(), law.varX1(), law.varX2(), law.covX1X2(),
                law.pushRate(), points, t2, t1);
    }

    /** @return the statistics as one vector: the six scalars, then tailX2, then tailX1 */
    double[] toVector() {
        int m = tailPoints.length;
        double[] v = new double[SCALARS + 2 * m];
        v[0] = meanX1;
        v[1] = meanX2;
        v[2] = varX1;
        v[3] = varX2;
        v[4] = covX1X2;
        v[5] = localTimeRate;
        System.arraycopy(tailX2, 0, v, SCALARS, m);
        System.arraycopy(tailX1, 0, v, SCALARS + m, m);
        return v;
    }

    /** The inverse of {@link #toVector()}. */
    static HalfinWhittStatistics fromVector(double[] v, double[] points) {
        int m = points.length;
        return new HalfinWhittStatistics(v[0], v[1], v[2], v[3], v[4], v[5], points,
                java.util.Arrays.copyOfRange(v, SCALARS, SCALARS + m),
                java.util.Arrays.copyOfRange(v, SCALARS + m, SCALARS + 2 * m));
    }
}
