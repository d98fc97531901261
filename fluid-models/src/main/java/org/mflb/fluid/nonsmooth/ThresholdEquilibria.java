package org.mflb.fluid.nonsmooth;

import java.util.Arrays;

/**
 * Closed-form equilibria of the threshold policy's fluid limit in infinite-server pools ([GABL],
 * Section 3, Theorem 2 and the two examples that follow it; docs/models.md §2–3), as tail vectors
 * {@code (q_1..q_K)}, with {@code k = ⌊λ⌋}:
 * <ul>
 * <li>{@link #balanced}: {@code q*}, {@code q*_i = 1} for {@code i ≤ k}, {@code q*_{k+1} = λ − k}, 0 beyond
 * — the limit for {@code ℓ = k}, and for {@code ℓ = λ − 1} when {@code λ} is an integer;</li>
 * <li>{@link #erlangB}: for {@code ℓ > k} (regime (a) at rest), {@code π_j = q_j − q_{j+1}} is the
 * Erlang-B distribution on {@code 0..ℓ} with offered traffic {@code ρ = λ/(1 − θ)}, {@code θ = q_ℓ = π_ℓ}:
 * θ solves {@code θ = B(ℓ, λ/(1 − θ))};</li>
 * <li>{@link #aboveThreshold}: for {@code h = ℓ + 1 &lt; λ} (regime (c) at rest, {@code q_h = 1}),
 * {@code π} is the birth–death law on {@code j ≥ h} with death rate {@code j} and birth rate
 * {@code b = λ − h π_h}: {@code π_{h+i} = π_h b^i h!/(h+i)!}, with {@code π_h} fixed by {@code Σ π = 1}.
 * Every level above {@code h} holds a positive fraction: the mass is not concentrated on
 * {@code ⌊λ⌋, ⌈λ⌉} but spreads to unbounded levels.</li>
 * </ul>
 */
public final class ThresholdEquilibria {

    private ThresholdEquilibria() {
    }

    /** @return {@code q*} with {@code levels} levels ({@code levels ≥ ⌊λ⌋ + 1}) */
    public static double[] balanced(double lambda, int levels) {
        double[] q = new double[levels];
        int k = (int) Math.floor(lambda);
        for (int i = 0; i < k; i++) {
            q[i] = 1.0;
        }
        if (k < levels) {
            q[k] = lambda - k;
        }
        return q;
    }

    /** Unnormalised weights are divided by this whenever they pass it (they would overflow to NaN). */
    private static final double RESCALE = 0x1p500;

    /**
     * @return {@code B(ℓ, ρ)}, the Erlang-B blocking probability, by the stable recursion
     *         {@code B_0 = 1, B_j = ρ B_{j−1}/(j + ρ B_{j−1})}
     */
    public static double erlangBlocking(int servers, double rho) {
        double b = 1.0;
        for (int j = 1; j <= servers; j++) {
            b = rho * b / (j + rho * b);
        }
        return b;
    }

    /** @return {@code θ = q_ℓ} of the Erlang-B equilibrium ({@code ℓ > λ}), by bisection to machine precision */
    public static double erlangTheta(int ell, double lambda) {
        // G(θ) = B(ℓ, λ/(1−θ)) − θ is > 0 at θ = 0 and < 0 near θ = 1 when ℓ > λ (B ≈ 1 − ℓ(1−θ)/λ there)
        double lo = 0;
        double hi = 1;
        for (int it = 0; it < 200 && hi - lo > 1e-17; it++) {
            double mid = 0.5 * (lo + hi);
            if (erlangBlocking(ell, lambda / (1 - mid)) > mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** @return the Erlang-B equilibrium with {@code levels ≥ ℓ + 1} levels */
    public static double[] erlangB(int ell, double lambda, int levels) {
        double theta = erlangTheta(ell, lambda);
        double rho = lambda / (1 - theta);
        double[] weight = new double[ell + 1];
        weight[0] = 1;
        double total = 1;
        for (int j = 1; j <= ell; j++) {
            weight[j] = weight[j - 1] * rho / j;
            total += weight[j];
            if (weight[j] > RESCALE) { // ρ^j/j! overflows near j = ρ for ρ in the hundreds: rescale, the law is unchanged
                for (int k = 0; k <= j; k++) {
                    weight[k] /= RESCALE;
                }
                total /= RESCALE;
            }
        }
        return tailOf(weight, total, levels);
    }

    /** @return {@code π_h} of the regime-(c) equilibrium ({@code h < λ}) */
    public static double aboveThresholdMass(int h, double lambda) {
        // F(x) = x S(λ − h x) − 1 is −1 at x = 0 and > 0 at x = 1 (S ≥ 1); bisection
        if (Double.isInfinite(birthDeathSum(h, lambda))) {
            return 0; // x < 1/S(λ), below the smallest double (λ in the hundreds): π_h underflows
        }
        if (Double.isInfinite(birthDeathSum(h, lambda))) {
            return 0; // x < 1/S(λ), below the smallest double (λ in the hundreds): π_h underflows
        }
        double lo = 0;
        double hi = 1;
        for (int it = 0; it < 200 && hi - lo > 1e-17; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid * birthDeathSum(h, lambda - h * mid) > 1) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** {@code S(b) = Σ_{i≥0} b^i h!/(h+i)!}. */
    private static double birthDeathSum(int h, double b) {
        double term = 1;
        double sum = 1;
        for (int i = 1; term > 1e-18 * sum || i <= b; i++) {
            term *= b / (h + i);
            sum += term;
        }
        return sum;
    }

    /** @return the regime-(c) equilibrium ({@code h = ℓ+1 < λ}) with enough levels that the cut-off tail is below 1e-16 */
    public static double[] aboveThreshold(int ell, double lambda) {
        int h = ell + 1;
        double b = lambda - h * aboveThresholdMass(h, lambda);
        // w_j ∝ π_h b^{j−h} h!/j! for j ≥ h; the tail divides by their total, so π_h's scale cancels: start
        // at 1 and rescale as b^j/j! grows (it overflows near j = b for λ in the hundreds)
        double[] weight = new double[h + 1];
        weight[h] = 1;
        double peak = 1;
        double total;
        int j = h;
        while (weight[j] > 1e-18 * peak || j <= h + b) {
            if (j + 1 >= weight.length) {
                weight = Arrays.copyOf(weight, 2 * weight.length + 8);
            }
            weight[j + 1] = weight[j] * b / (j + 1);
            j++;
            if (weight[j] > RESCALE) {
                for (int k = h; k <= j; k++) {
                    weight[k] /= RESCALE;
                }
                peak /= RESCALE;
            }
            peak = Math.max(peak, weight[j]);
        }
        weight = Arrays.copyOf(weight, j + 1);
        total = 0;
        for (double w : weight) {
            total += w;
        }
        double[] q = tailOf(weight, total, j + 2);
        Arrays.fill(q, 0, h, 1.0); // regime (c): q_i = 1 exactly for i ≤ h
        return q;
    }

    /** Tail {@code q_i = Σ_{j ≥ i} w_j/total}, {@code i = 1..levels}, summed from the top for accuracy. */
    private static double[] tailOf(double[] weight, double total, int levels) {
        double[] q = new double[levels];
        double acc = 0;
        for (int j = weight.length - 1; j >= 1; j--) {
            acc += weight[j] / total;
            if (j - 1 < levels) {
                q[j - 1] = acc;
            }
        }
        return q;
    }
}
