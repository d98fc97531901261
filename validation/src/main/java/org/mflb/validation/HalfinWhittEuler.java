package org.mflb.validation;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.stat.StudentT;

/**
 * Simulation of the Halfin–Whitt JSQ diffusion (docs/models.md §9)
 * {@code dX₁ = √2 dW − (β + X₁ − X₂) dt − dU}, {@code dX₂ = dU − X₂ dt}, {@code X₁ ≤ 0}, by an Euler
 * scheme whose reflection is exact for the frozen drift: over a step Δ with {@code b = −β − x₁ + x₂},
 * the free end is {@code y = x₁ + bΔ + √(2Δ) ξ}; given it, the path is a Brownian bridge whose
 * maximum is sampled exactly,
 * <pre>
 *   M = (x₁ + y + √((y − x₁)² − 4Δ ln V))/2,   V uniform on (0, 1],
 * </pre>
 * and the Skorokhod map gives {@code ΔU = max(0, M)}, {@code x₁ ← y − ΔU},
 * {@code x₂ ← x₂(1 − Δ) + ΔU}. The Euler step of x₂ (not its exact decay {@code e^{−Δ}}) keeps the
 * scheme exact for {@code X₁ + X₂}, whose increment {@code √2 dW − (β + X₁) dt} does not see the
 * reflection: so {@code E[X₁] = −β} holds for the scheme too, and at the boundary the push
 * {@code (x₂ − β)Δ} and the decay {@code x₂Δ} cancel as they do in the limit (with {@code e^{−Δ}}
 * the scheme drifts off to infinity for {@code x₂ > 2β/Δ}). Freezing the drift over the step is
 * the approximation: a weak error O(Δ), where the projected scheme (push only at the step's end)
 * has O(√Δ). The estimates
 * are batch means over one long path; the local-time rate is {@code U(T)/T}. Independent of the
 * lattice and of the N-server chain: it shares only β with them.
 */
public final class HalfinWhittEuler {

    /**
     * Stationary estimates with 95% intervals.
     *
     * @param meanX1 E[X₁] (−β exactly)
     * @param meanX2 E[X₂]
     * @param varX1 Var X₁
     * @param localTimeRate E[dU/dt] (E[X₂] exactly)
     */
    public record Moments(Estimate meanX1, Estimate meanX2, Estimate varX1, Estimate localTimeRate) {
    }

    private HalfinWhittEuler() {
    }

    /**
     * @param beta β > 0
     * @param step Δ in (0, 0.1]
     * @param time measured time > 0 (after a burn-in of 20 from (−β, 0))
     * @param batches batch means, in [2, 10 000]
     * @param seed the seed
     * @return the estimates
     */
    public static Moments stationary(double beta, double step, double time, int batches, long seed) {
        Require.positive("beta", beta);
        if (!(step > 0 && step <= 0.1)) {
            throw MflbException.invalid("step", step, "in (0, 0.1]");
        }
        Require.positive("time", time);
        Require.between("batches", batches, 2, 10_000);
        long perBatch = (long) Math.ceil(time / step / batches);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 9_000_013L});
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double sigma = Math.sqrt(2 * step);
        double keep = 1 - step;
        double fourStep = 4 * step;
        double x1 = -beta;
        double x2 = 0;
        for (long m = (long) Math.ceil(20 / step); m > 0; m--) {
            double y = x1 + (-beta - x1 + x2) * step + sigma * gauss.sample();
            double d = y - x1;
            double max = 0.5 * (x1 + y + Math.sqrt(d * d - fourStep * Math.log(1 - rng.nextDouble())));
            double push = max > 0 ? max : 0;
            x1 = y - push;
            x2 = x2 * keep + push;
        }
        double[] m1 = new double[batches];
        double[] m2 = new double[batches];
        double[] v1 = new double[batches];
        double[] lt = new double[batches];
        for (int b = 0; b < batches; b++) {
            double s1 = 0;
            double s2 = 0;
            double s11 = 0;
            double pushes = 0;
            for (long m = 0; m < perBatch; m++) {
                double y = x1 + (-beta - x1 + x2) * step + sigma * gauss.sample();
                double d = y - x1;
                double max = 0.5 * (x1 + y + Math.sqrt(d * d - fourStep * Math.log(1 - rng.nextDouble())));
                double push = max > 0 ? max : 0;
                double nx1 = y - push;
                double nx2 = x2 * keep + push;
                // trapezoidal time averages over the step
                s1 += 0.5 * (x1 + nx1);
                s2 += 0.5 * (x2 + nx2);
                s11 += 0.5 * (x1 * x1 + nx1 * nx1);
                pushes += push;
                x1 = nx1;
                x2 = nx2;
            }
            m1[b] = s1 / perBatch;
            m2[b] = s2 / perBatch;
            v1[b] = s11 / perBatch - m1[b] * m1[b];
            lt[b] = pushes / (perBatch * step);
        }
        return new Moments(StudentT.estimate(m1), StudentT.estimate(m2), StudentT.estimate(v1), StudentT.estimate(lt));
    }
}
