package org.mflb.fluid.nonsmooth;

/**
 * One smooth piece of a non-smooth dispatching policy's fluid limit ([GABL], eq. (2);
 * docs/models.md §3). The levels {@code 1..m} ({@link #pinned()}) are held at exactly 1 (the solution
 * slides on the surface {@code x_m = 1}); the other levels follow
 * <pre>
 *   dx_j/dt = λ·p_j − μ_j (x_j − x_{j+1}),   j &gt; m,
 * </pre>
 * with {@code μ_j} the departure rate of a server (pool) with {@code j} jobs and the arrival split
 * {@code λ p_j} of the piece:
 * <ul>
 * <li>{@link Kind#BELOW_THRESHOLD} (threshold regime (a), {@code x_ℓ &lt; 1}, nothing pinned): arrivals
 * spread uniformly over the servers with fewer than {@code ℓ} jobs,
 * {@code λ p_j = λ (x_{j−1} − x_j)/(1 − x_ℓ)} for {@code 1 ≤ j ≤ ℓ};</li>
 * <li>{@link Kind#AT_LEVEL} (regime (b) with {@code m = ℓ}; JSQ with {@code m} = the current minimum;
 * JIQ while some server is idle, {@code m = 0}): the arrivals that keep {@code x_m} at 1 exactly
 * replace the departures from level {@code m}, {@code λ p_m = μ_m (1 − x_{m+1})}, and the excess
 * {@code r = λ − μ_m (1 − x_{m+1})} joins servers with exactly {@code m} jobs, {@code λ p_{m+1} = r};</li>
 * <li>{@link Kind#ABOVE_LEVEL} (regime (c) with {@code m = h = ℓ+1}; JIQ with every server busy,
 * {@code m = 1}): {@code x_m} is held at 1 the same way and the excess is routed uniformly at random,
 * {@code λ p_j = r (x_{j−1} − x_j)} for {@code j ≥ m+1}.</li>
 * </ul>
 * A sliding piece is valid while its excess {@code r ≥ 0} (the {@code p}'s lie in [0, 1]); the
 * {@link NonSmoothPolicy} says which {@link Surface} ends a piece and which piece follows. In every
 * piece the arrivals sum to {@code λ}, so for pools the total mass {@code u = Σ x_j} obeys
 * {@code du/dt = λ − u}.
 *
 * @param kind the kind of piece
 * @param threshold the threshold {@code ℓ} (for JSQ: the minimum level {@code m})
 * @param pinned the number {@code m} of leading levels held at 1
 */
public record Regime(Kind kind, int threshold, int pinned) {

    /** The kinds of smooth piece. */
    public enum Kind {
        /** Arrivals spread uniformly below the threshold (regime (a)). */
        BELOW_THRESHOLD,
        /** Sliding on {@code x_m = 1}, excess to servers with exactly {@code m} jobs (regime (b), JSQ). */
        AT_LEVEL,
        /** Sliding on {@code x_m = 1}, excess routed uniformly (regime (c), busy JIQ). */
        ABOVE_LEVEL
    }

    /**
     * The surfaces that end a piece. A level within {@link NonSmoothPolicy#ON_SURFACE} of 1 counts as
     * lying on its surface (the mass moved by setting it to 1 is at most that much).
     */
    public enum Surface {
        /** Sliding piece: the first free level {@code x_{m+1}} reaches 1. */
        LEVEL_FULL,
        /** Sliding piece: the excess {@code r} turns negative (departures from level {@code m} exceed {@code λ}). */
        EXCESS_NEGATIVE,
        /** Regime (a): the deficit {@code Σ_{i≤ℓ}(1 − x_i)} reaches 0, i.e. {@code x_ℓ} reaches 1. */
        FILLED,
        /** Regime (a) of the learning threshold: {@code x_ℓ} falls to {@code α} and {@code ℓ} drops by 1. */
        THRESHOLD_DROP
    }

    /** @return regime (a) of threshold {@code ℓ ≥ 1} */
    public static Regime below(int ell) {
        return new Regime(Kind.BELOW_THRESHOLD, ell, 0);
    }

    /** @return regime (b) of threshold {@code ℓ} (sliding on {@code x_ℓ = 1}; nothing pinned if {@code ℓ = 0}) */
    public static Regime at(int ell) {
        return new Regime(Kind.AT_LEVEL, ell, ell);
    }

    /** @return regime (c) of threshold {@code ℓ} (sliding on {@code x_h = 1}, {@code h = ℓ+1}) */
    public static Regime above(int ell) {
        return new Regime(Kind.ABOVE_LEVEL, ell, ell + 1);
    }

    /** @return whether the piece slides on {@code x_m = 1} (regimes (b) and (c)) */
    public boolean isSliding() {
        return kind != Kind.BELOW_THRESHOLD;
    }

    /**
     * @param x tail vector {@code (x_1..x_K)}
     * @param level level {@code j ≥ 0}
     * @return {@code x_j}, with {@code x_0 = 1} and {@code x_j = 0} beyond {@code K}
     */
    static double level(double[] x, int level) {
        return level == 0 ? 1.0 : level <= x.length ? x[level - 1] : 0.0;
    }

    /**
     * The excess of a sliding piece on {@code x_m = 1}.
     *
     * @param m pinned levels
     * @param lambda {@code λ(t)}
     * @param mu departure rates, {@code mu[j−1] = μ_j}
     * @param nextLevel {@code x_{m+1}}
     * @return {@code r = λ − μ_m (1 − x_{m+1})} ({@code λ} if {@code m = 0}): the arrival rate left after
     *         refilling level {@code m}; the piece is valid while {@code r ≥ 0}
     */
    static double excess(int m, double lambda, double[] mu, double nextLevel) {
        return m == 0 ? lambda : lambda - mu[m - 1] * (1.0 - nextLevel);
    }

    /**
     * Tolerance on the sign of the excess: a sliding piece is left when {@code r < −margin}. The margin
     * {@code 1e-13 (1 + λ)}, far below the integration error, keeps a state where {@code r ≡ 0} (the
     * balanced state at integer {@code λ}, which lies on the surface) from leaving and re-entering the
     * piece again and again.
     */
    static double margin(double lambda) {
        return 1e-13 * (1 + lambda);
    }

    /**
     * Whether a sliding piece with excess {@code r} is in force when a piece is chosen: {@code r}
     * at least {@code −margin/2}. Half the margin at which the piece is left, so that the state where
     * the leaving surface was located (with {@code r} within rounding of {@code −margin}) is
     * never classified back into the piece just left.
     */
    static boolean sustains(double r, double lambda) {
        return r >= -0.5 * margin(lambda);
    }

    /**
     * The drift of this piece on the full tail vector (used for residuals; the solver integrates
     * each piece in its own coordinates, see {@link PiecewiseSmoothSolver}).
     *
     * @param lambda arrival rate {@code λ}
     * @param mu {@code mu[j−1]} = departure rate {@code μ_j}; not modified
     * @param x tail vector {@code (x_1..x_K)}; not modified
     * @param f the drift; modified
     */
    public void drift(double lambda, double[] mu, double[] x, double[] f) {
        int k = x.length;
        for (int j = 1; j <= k; j++) {
            f[j - 1] = j <= pinned ? 0.0 : -mu[j - 1] * (x[j - 1] - level(x, j + 1));
        }
        switch (kind) {
            case BELOW_THRESHOLD -> {
                double s = 1.0 - level(x, threshold);
                for (int j = 1; j <= threshold; j++) {
                    f[j - 1] += lambda * (level(x, j - 1) - level(x, j)) / s;
                }
            }
            case AT_LEVEL -> {
                if (pinned < k) {
                    f[pinned] += excess(pinned, lambda, mu, level(x, pinned + 1));
                }
            }
            case ABOVE_LEVEL -> {
                double r = excess(pinned, lambda, mu, level(x, pinned + 1));
                for (int j = pinned + 1; j <= k; j++) {
                    f[j - 1] += r * (level(x, j - 1) - x[j - 1]);
                }
            }
        }
    }

    /**
     * The share {@code s_j = Σ_{i > j} p_i} of arrivals that join a server with at least {@code j}
     * jobs in this piece (docs/models.md §7), from its arrival split {@code p_i}:
     * <ul>
     * <li>(a): {@code s_j = (x_j − x_ℓ)/(1 − x_ℓ)} for {@code j < ℓ}, 0 from {@code ℓ} on;</li>
     * <li>(b) on {@code x_m = 1}: {@code s_j = 1} for {@code j < m}, {@code s_m = r/λ}, 0 above;</li>
     * <li>(c) on {@code x_m = 1}: {@code s_j = 1} for {@code j < m}, {@code s_j = (r/λ) x_j} from {@code m} on,</li>
     * </ul>
     * with the excess {@code r = λ − μ_m (1 − x_{m+1})} clamped to {@code [0, λ]}.
     *
     * @param lambda {@code λ(t) > 0}
     * @param mu departure rates, {@code mu[j−1] = μ_j}; not modified
     * @param x tail vector {@code (x_1..x_K)}; not modified
     * @return {@code (s_0, ..., s_K)}
     */
    public double[] arrivalShares(double lambda, double[] mu, double[] x) {
        int k = x.length;
        double[] s = new double[k + 1];
        switch (kind) {
            case BELOW_THRESHOLD -> {
                double top = level(x, threshold);
                double free = 1.0 - top;
                for (int j = 0; j < threshold && j <= k; j++) {
                    s[j] = free > 0 ? Math.min(1.0, Math.max(0.0, (level(x, j) - top) / free)) : 1.0;
                }
            }
            case AT_LEVEL, ABOVE_LEVEL -> {
                double r = Math.min(lambda, Math.max(0.0, excess(pinned, lambda, mu, level(x, pinned + 1))));
                for (int j = 0; j < pinned && j <= k; j++) {
                    s[j] = 1.0;
                }
                if (pinned <= k) {
                    s[pinned] = r / lambda;
                }
                if (kind == Kind.ABOVE_LEVEL) {
                    for (int j = pinned + 1; j <= k; j++) {
                        s[j] = Math.min(s[j - 1], r / lambda * Math.max(0.0, x[j - 1]));
                    }
                }
            }
        }
        return s;
    }

    /** Sets the pinned levels to exactly 1 (the solution lies on the surface). */
    void pin(double[] x) {
        for (int j = 0; j < pinned && j < x.length; j++) {
            x[j] = 1.0;
        }
    }

    /** @return a short description, e.g. {@code (b) x_2 = 1} */
    public String describe() {
        return switch (kind) {
            case BELOW_THRESHOLD -> "(a) x_" + threshold + " < 1";
            case AT_LEVEL -> pinned == 0 ? "(b) to idle" : "(b) x_" + pinned + " = 1";
            case ABOVE_LEVEL -> "(c) x_" + pinned + " = 1";
        };
    }
}
