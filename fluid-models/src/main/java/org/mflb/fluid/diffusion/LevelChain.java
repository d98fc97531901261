package org.mflb.fluid.diffusion;

/**
 * A continuous-time Markov chain on a two-dimensional lattice organised as a quasi-birth-death
 * process whose phases move as a birth-death chain inside each level and whose only upward move
 * leaves from the boundary phase (docs/models.md §9):
 * <pre>
 *   states (j, k), levels j = 0..M, phases k = 0..K_j with K_0 ≥ K_1 ≥ ... ≥ K_M,
 *   (j, k) → (j, k−1)  at rate toward_j(k)   (k ≥ 1, toward the boundary phase 0)
 *   (j, k) → (j, k+1)  at rate away_j(k)     (k &lt; K_j)
 *   (j, k) → (j−1, k)  at rate down_j(k)     (j ≥ 1)
 *   (j, 0) → (j+1, 0)  at rate up_j          (j &lt; M)
 * </pre>
 * The up-matrix of level j is {@code up_j e_0 e_0ᵀ}, of rank one, which is what lets
 * {@link LevelReduction} solve the stationary law exactly in O(states). Both the Kushner lattice of
 * the Halfin–Whitt JSQ diffusion ({@link HalfinWhittLattice}) and the exact capacity-2 N-server
 * chain ({@link JsqPrelimit}) have this form, with phase k the distance to the boundary
 * {@code x₁ = 0} ({@code Q₁ = N}) and level j the coordinate {@code x₂}.
 */
public interface LevelChain {

    /** @return the top level M ≥ 0 */
    int topLevel();

    /**
     * @param level j in [0, M]
     * @return the last phase K_j ≥ 0 of that level (non-increasing in j)
     */
    int lastPhase(int level);

    /**
     * Fills the rates of one level. Entries {@code toward[0]}, {@code away[K_j]} and, at level 0,
     * {@code down[·]} are ignored (treated as 0).
     *
     * @param level j
     * @param toward {@code toward_j(k)}, k = 0..K_j (length at least K_j + 1)
     * @param away {@code away_j(k)}
     * @param down {@code down_j(k)}
     * @return {@code up_j} (ignored at the top level)
     */
    double rates(int level, double[] toward, double[] away, double[] down);

    /** @return the lattice step: the change of x₁ per phase and of x₂ per level */
    double step();
}
