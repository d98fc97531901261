package org.mflb.core.distribution;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.mflb.core.Require;

/**
 * Deterministic service time {@code d} (docs/models.md §6): {@code Ḡ(t) = 1} for {@code t < d} and
 * {@code 0} for {@code t ≥ d}. The law has no density ({@link #hasDensity()} is false and
 * {@link #density} returns 0); its hazard is 0 before {@code d} and {@code +∞} from {@code d} on
 * (the whole mass completes at age {@code d}). {@code m(a) = d − a} for {@code a < d}, and 0 from
 * {@code d} on (by continuity; no job survives there). Specification {@code det} or
 * {@code det:mean=d}.
 */
public final class Deterministic extends AbstractServiceDistribution {

    private static final Deterministic UNIT = new Deterministic(1.0);

    private final double value;

    private Deterministic(double value) {
        this.value = Require.positive("det mean", value);
    }

    /** @return the law concentrated at 1 */
    public static Deterministic unit() {
        return UNIT;
    }

    /** @return the law concentrated at {@code value} ({@code > 0}, finite) */
    public static Deterministic of(double value) {
        return value == 1.0 ? UNIT : new Deterministic(value);
    }

    @Override
    public double mean() {
        return value;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        return Math.pow(value, k);
    }

    @Override
    public double scv() {
        return 0.0;
    }

    @Override
    public double survival(double t) {
        return t < value ? 1.0 : 0.0;
    }

    @Override
    public double density(double t) {
        return 0.0;
    }

    @Override
    public boolean hasDensity() {
        return false;
    }

    @Override
    public double hazard(double t) {
        return t < value ? 0.0 : Double.POSITIVE_INFINITY;
    }

    @Override
    public double meanResidualLife(double a) {
        return a < value ? value - a : 0.0;
    }

    @Override
    public double survivalQuantile(double tailMass) {
        Require.open("tailMass", tailMass, 0.0, 1.0);
        return value;
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        final double v = value;
        return () -> v;
    }

    @Override
    public String spec() {
        return withMeanSuffix("det", value);
    }

    @Override
    public Deterministic withMean(double mean) {
        return of(Require.positive("mean", mean));
    }
}
