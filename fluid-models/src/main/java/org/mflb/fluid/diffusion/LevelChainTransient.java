package org.mflb.fluid.diffusion;

import org.hipparchus.special.Gamma;
import org.mflb.core.MflbException;

/**
 * The transient law of a {@link LevelChain} from one state, by uniformisation: with Λ at least the
 * largest total outflow rate and {@code P = I + Q/Λ} (a stochastic matrix),
 * {@code p(t + Δ) = Σ_n e^{−ΛΔ} (ΛΔ)ⁿ/n! p(t) Pⁿ}, the Poisson series cut where its remaining
 * weight is below 1e-14. Exact up to that cut and round-off; the work is
 * {@code O(states × Λ t)}. Reports the means of {@code x₁ = −k h} and {@code x₂ = j h}.
 */
public final class LevelChainTransient {

    private LevelChainTransient() {
    }

    /**
     * @param chain the chain
     * @param level0 the level j at time 0
     * @param phase0 the phase k at time 0
     * @param times increasing output times ≥ 0
     * @return {@code {E x₁(t), E x₂(t), mass of the top level at t}}, one entry per time
     */
    public static double[][] means(LevelChain chain, int level0, int phase0, double[] times) {
        int top = chain.topLevel();
        if (level0 < 0 || level0 > top) {
            throw MflbException.invalid("initial level", level0, "in [0, " + top + "]");
        }
        if (phase0 < 0 || phase0 > chain.lastPhase(level0)) {
            throw MflbException.invalid("initial phase", phase0, "in [0, " + chain.lastPhase(level0) + "]");
        }
        int[] offset = new int[top + 2];
        for (int j = 0; j <= top; j++) {
            offset[j + 1] = offset[j] + chain.lastPhase(j) + 1;
        }
        int states = offset[top + 1];
        double[] toward = new double[states];
        double[] away = new double[states];
        double[] down = new double[states];
        double[] up = new double[top + 1];
        double[] out = new double[states];
        int width = chain.lastPhase(0) + 1;
        double[] t = new double[width];
        double[] a = new double[width];
        double[] d = new double[width];
        double lambda = 0;
        for (int j = 0; j <= top; j++) {
            java.util.Arrays.fill(t, 0);
            java.util.Arrays.fill(a, 0);
            java.util.Arrays.fill(d, 0);
            double u = chain.rates(j, t, a, d);
            int last = chain.lastPhase(j);
            up[j] = j < top ? u : 0;
            for (int k = 0; k <= last; k++) {
                int s = offset[j] + k;
                toward[s] = k > 0 ? t[k] : 0;
                away[s] = k < last ? a[k] : 0;
                down[s] = j > 0 ? d[k] : 0;
                out[s] = toward[s] + away[s] + down[s] + (k == 0 ? up[j] : 0);
                lambda = Math.max(lambda, out[s]);
            }
        }
        lambda *= 1.0001;
        // P = I + Q/Λ in pull form, one padded array per neighbour: next[s] = Σ coefficient · v[neighbour]
        double inv = 1 / lambda;
        double[] stay = new double[states];
        double[] fromNext = new double[states]; // v[s+1] toward[s+1], same level
        double[] fromPrevious = new double[states]; // v[s-1] away[s-1], same level
        double[] fromAbove = new double[states]; // v[above(s)] down[above(s)]
        int[] above = new int[states];
        for (int j = 0; j <= top; j++) {
            int last = offset[j + 1] - 1;
            int aboveLast = j < top ? offset[j + 2] - 1 - offset[j + 1] : -1;
            for (int s = offset[j]; s <= last; s++) {
                int k = s - offset[j];
                stay[s] = 1 - out[s] * inv;
                fromNext[s] = s < last ? toward[s + 1] * inv : 0;
                fromPrevious[s] = s > offset[j] ? away[s - 1] * inv : 0;
                if (k <= aboveLast) {
                    above[s] = offset[j + 1] + k;
                    fromAbove[s] = down[above[s]] * inv;
                } else {
                    above[s] = s;
                }
            }
        }
        Step step = new Step(offset, stay, fromNext, fromPrevious, fromAbove, above, up, inv, top);
        double[] p = new double[states];
        p[offset[level0] + phase0] = 1;
        double h = chain.step();
        double[][] result = new double[3][times.length];
        double now = 0;
        for (int i = 0; i < times.length; i++) {
            if (!(times[i] >= now)) {
                throw MflbException.invalid("times", times[i], "increasing and >= 0");
            }
            double dt = times[i] - now;
            if (dt > 0) {
                // split long intervals so that the Poisson weights stay representable
                int pieces = (int) Math.ceil(lambda * dt / 400);
                for (int piece = 0; piece < pieces; piece++) {
                    step.advance(p, lambda * dt / pieces);
                }
            }
            now = times[i];
            double m1 = 0;
            double m2 = 0;
            for (int j = 0; j <= top; j++) {
                for (int s = offset[j]; s < offset[j + 1]; s++) {
                    m1 += (s - offset[j]) * p[s];
                    m2 += j * p[s];
                }
            }
            double topMass = 0;
            for (int s = offset[top]; s < offset[top + 1]; s++) {
                topMass += p[s];
            }
            result[0][i] = -h * m1;
            result[1][i] = h * m2;
            result[2][i] = topMass;
        }
        return result;
    }

    /** One uniformised step {@code v ↦ v P} and the Poisson sum over an interval. */
    private record Step(int[] offset, double[] stay, double[] fromNext, double[] fromPrevious, double[] fromAbove,
            int[] above, double[] up, double inv, int top) {

        void advance(double[] p, double mean) {
            int states = p.length;
            double[] v = p.clone();
            double[] next = new double[states];
            double[] acc = new double[states];
            int cut = (int) Math.ceil(mean + 10 * Math.sqrt(mean) + 30);
            double remaining = 1;
            for (int n = 0; n <= cut; n++) {
                double w = Math.exp(-mean + n * Math.log(mean) - Gamma.logGamma(n + 1.0));
                for (int s = 0; s < states; s++) {
                    acc[s] += w * v[s];
                }
                remaining -= w;
                if (remaining < 1e-14 && n > mean) {
                    break;
                }
                next[0] = v[0] * stay[0] + (states > 1 ? v[1] * fromNext[0] : 0) + v[above[0]] * fromAbove[0];
                for (int s = 1; s < states - 1; s++) {
                    next[s] = v[s] * stay[s] + v[s + 1] * fromNext[s] + v[s - 1] * fromPrevious[s]
                            + v[above[s]] * fromAbove[s];
                }
                if (states > 1) {
                    int s = states - 1;
                    next[s] = v[s] * stay[s] + v[s - 1] * fromPrevious[s] + v[above[s]] * fromAbove[s];
                }
                for (int j = 1; j <= top; j++) {
                    next[offset[j]] += v[offset[j - 1]] * up[j - 1] * inv;
                }
                double[] swap = v;
                v = next;
                next = swap;
            }
            System.arraycopy(acc, 0, p, 0, states);
        }
    }
}
