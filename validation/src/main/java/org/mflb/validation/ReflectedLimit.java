package org.mflb.validation;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.stat.StudentT;

/**
 * The diffusion limit of JSQ and of the threshold policy with ℓ = λ for an integer load λ in
 * infinite-server pools ([GABL], Theorem 4; Mukherjee et al.; docs/models.md §4), with
 * {@code Ẑ = √n Σ_{i≤λ} (1 − q_i)} and {@code Q̂ = √n q_{λ+1}}:
 * <pre>
 *   Ẑ(t) = Ẑ(0) + √(2λ) W(t) − ∫ (Ẑ + λ Q̂) ds + U(t),     Ẑ ≥ 0,
 *   Q̂(t) = Q̂(0) + U(t) − (λ + 1) ∫ Q̂ ds,
 * </pre>
 * U non-decreasing and increasing only when Ẑ = 0. Its stationary moments are estimated by a
 * projected Euler–Maruyama scheme: with step h and ξ standard normal,
 * <pre>
 *   z' = z − (z + λ q) h + √(2λh) ξ,   ΔU = max(0, −z'),   z ← max(z', 0),   q ← q + ΔU − (λ+1) q h,
 * </pre>
 * whose weak error at the boundary is O(√h) (compare two steps to see it). A built-in check:
 * Q̂ − Ẑ is the scaled total number of tasks, an Ornstein–Uhlenbeck process with stationary law
 * N(0, λ), whatever the reflection.
 */
public final class ReflectedLimit {

    /**
     * Stationary moments with 95% intervals over batch means.
     *
     * @param meanZ E[Ẑ]
     * @param meanQ E[Q̂]
     * @param varZ Var(Ẑ)
     * @param varQ Var(Q̂)
     * @param varDifference Var(Q̂ − Ẑ), exactly λ in the limit
     * @param meanDifference E[Q̂ − Ẑ], exactly 0 in the limit
     */
    public record Moments(Estimate meanZ, Estimate meanQ, Estimate varZ, Estimate varQ, Estimate varDifference,
            Estimate meanDifference) {
    }

    private ReflectedLimit() {
    }

    /**
     * @param lambda the integer load λ ≥ 1
     * @param step Euler–Maruyama step h, in (0, 1/(2(λ+1))]
     * @param time measured time (after the burn-in), > 0
     * @param burnIn discarded time from (Ẑ, Q̂) = (0, 0), ≥ 0
     * @param batches number of batch means, in [2, 10 000]
     * @param seed seed of the Gaussian stream
     * @return the stationary moments
     */
    public static Moments stationary(int lambda, double step, double time, double burnIn, int batches, long seed) {
        Require.atLeast("lambda", lambda, 1);
        double maxStep = 0.5 / (lambda + 1);
        if (!(step > 0 && step <= maxStep)) {
            throw MflbException.invalid("step", step, "in (0, " + maxStep + "]");
        }
        Require.positive("time", time);
        Require.nonNegative("burn-in", burnIn);
        Require.between("batches", batches, 2, 10_000);
        long perBatch = (long) Math.ceil(time / step / batches);
        if (perBatch < 1) {
            throw MflbException.invalid("time", time, ">= batches * step");
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 4_000_004L});
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double sigma = Math.sqrt(2.0 * lambda * step);
        double z = 0;
        double q = 0;
        for (long m = (long) Math.ceil(burnIn / step); m > 0; m--) {
            double zn = z - (z + lambda * q) * step + sigma * gauss.sample();
            double push = zn < 0 ? -zn : 0;
            q += push - (lambda + 1) * q * step;
            z = zn + push;
        }
        double[] mz = new double[batches];
        double[] mq = new double[batches];
        double[] vz = new double[batches];
        double[] vq = new double[batches];
        double[] vd = new double[batches];
        double[] md = new double[batches];
        for (int b = 0; b < batches; b++) {
            double sz = 0;
            double sq = 0;
            double szz = 0;
            double sqq = 0;
            double szq = 0;
            for (long m = 0; m < perBatch; m++) {
                sz += z;
                sq += q;
                szz += z * z;
                sqq += q * q;
                szq += z * q;
                double zn = z - (z + lambda * q) * step + sigma * gauss.sample();
                double push = zn < 0 ? -zn : 0;
                q += push - (lambda + 1) * q * step;
                z = zn + push;
            }
            double k = perBatch;
            mz[b] = sz / k;
            mq[b] = sq / k;
            vz[b] = szz / k - mz[b] * mz[b];
            vq[b] = sqq / k - mq[b] * mq[b];
            double cov = szq / k - mz[b] * mq[b];
            vd[b] = vz[b] + vq[b] - 2 * cov;
            md[b] = mq[b] - mz[b];
        }
        return new Moments(StudentT.estimate(mz), StudentT.estimate(mq), StudentT.estimate(vz), StudentT.estimate(vq),
                StudentT.estimate(vd), StudentT.estimate(md));
    }
}
