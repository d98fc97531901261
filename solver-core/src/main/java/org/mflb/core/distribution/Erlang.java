package org.mflb.core.distribution;

import java.util.Optional;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.mflb.core.Require;

/**
 * Erlang-{@code k} law of mean {@code m}: the sum of {@code k} exponential phases of rate
 * {@code k/m} (docs/models.md §6), i.e. the gamma law of shape {@code k} and scale {@code m/k}
 * (formulas in {@link GammaFamily}); {@code c² = 1/k}. Specification {@code erlang:k=2} or
 * {@code erlang:k=2,mean=m}. Exactly phase-type ({@link #asPhaseType()}).
 */
public final class Erlang extends GammaFamily {

    /** Up to this many phases, summing ziggurat exponentials is faster than Marsaglia–Tsang. */
    private static final int MAX_PHASES_SUMMED = 4;

    private final int phases;

    private Erlang(int phases, double mean) {
        super(phases, mean);
        this.phases = phases;
    }

    /** @return the Erlang law with {@code k ≥ 1} phases and mean 1 */
    public static Erlang of(int k) {
        return of(k, 1.0);
    }

    /** @return the Erlang law with {@code k ≥ 1} phases and mean {@code mean} */
    public static Erlang of(int k, double mean) {
        Require.atLeast("erlang k", k, 1);
        Require.positive("erlang mean", mean);
        return new Erlang(k, mean);
    }

    /** @return the number of phases {@code k} */
    public int phases() {
        return phases;
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        if (phases > MAX_PHASES_SUMMED) {
            return AhrensDieterMarsagliaTsangGammaSampler.of(rng, shape, scale);
        }
        final ZigguratSampler.Exponential exp = ZigguratSampler.Exponential.of(rng, scale);
        final int k = phases;
        return () -> {
            double s = exp.sample();
            for (int i = 1; i < k; i++) {
                s += exp.sample();
            }
            return s;
        };
    }

    @Override
    public String spec() {
        return withMeanSuffix("erlang:k=" + phases, mean());
    }

    @Override
    public Optional<PhaseType> asPhaseType() {
        double rate = 1.0 / scale;
        double[] alpha = new double[phases];
        alpha[0] = 1.0;
        double[][] t = new double[phases][phases];
        for (int i = 0; i < phases; i++) {
            t[i][i] = -rate;
            if (i + 1 < phases) {
                t[i][i + 1] = rate;
            }
        }
        return Optional.of(PhaseType.of(alpha, t));
    }

    @Override
    public Erlang withMean(double mean) {
        return of(phases, Require.positive("mean", mean));
    }
}
