package org.mflb.fluid;

import java.util.Optional;
import java.util.OptionalDouble;

import org.hipparchus.complex.Complex;
import org.mflb.core.fixedpoint.FixedPoint;

/**
 * The fixed point of a fluid model, as a tail vector, with the numerical evidence: residual
 * {@code ‖f(π)‖∞}, iterations, the spectrum of the Jacobian (stability) and the truncation.
 */
public final class FluidFixedPoint {

    private final TailModel model;
    private final FixedPoint fixedPoint;
    private final double[] levels;

    FluidFixedPoint(TailModel model, FixedPoint fixedPoint) {
        this.model = model;
        this.fixedPoint = fixedPoint;
        this.levels = fixedPoint.state();
    }

    /** @return the model at the chosen truncation (its dimension is {@link #truncation()}) */
    public TailModel model() {
        return model;
    }

    /** @return {@code (x_1, ..., x_K)} (a copy) */
    public double[] levels() {
        return levels.clone();
    }

    /** @return the tail vector {@code (x_0 = 1, x_1, ..., x_K)} */
    public double[] tail() {
        return TailVectors.withLevelZero(levels);
    }

    /** @return mean jobs per server (pool), {@code Σ_{i≥1} x_i} */
    public double meanQueueLength() {
        return TailVectors.mean(levels);
    }

    /** @return the number of levels {@code K} kept */
    public int truncation() {
        return levels.length;
    }

    /** @return the estimated mass beyond level {@code K} (0 for loss pools, which hold at most {@code K = C}) */
    public double cutOffMass() {
        return model.system().isLossy() ? 0.0 : TailVectors.cutOffMass(levels);
    }

    /** @return the blocking probability {@code h(x_C)} of loss pools; empty for other systems */
    public OptionalDouble blocking() {
        return model.system().isLossy() ? OptionalDouble.of(model.lossProbability(0, levels)) : OptionalDouble.empty();
    }

    /** @return {@code ‖f(π)‖∞} */
    public double residual() {
        return fixedPoint.residual();
    }

    /** @return iterations of the fixed-point solver */
    public int iterations() {
        return fixedPoint.iterations();
    }

    /** @return eigenvalues of the Jacobian at the fixed point, when computed */
    public Optional<Complex[]> spectrum() {
        return fixedPoint.spectrum();
    }

    /** @return the largest real part of the spectrum ({@code NaN} if not computed) */
    public double spectralAbscissa() {
        return fixedPoint.spectralAbscissa();
    }

    /** @return whether the fixed point is locally stable */
    public boolean isStable() {
        return fixedPoint.isStable();
    }
}
