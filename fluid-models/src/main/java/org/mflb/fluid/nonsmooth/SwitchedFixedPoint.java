package org.mflb.fluid.nonsmooth;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import org.mflb.fluid.TailVectors;

/**
 * The equilibrium of a non-smooth fluid model (closed form, see {@link ThresholdEquilibria}), with
 * the residual of the piecewise drift there, the threshold in force and, when the equilibrium is
 * not the balanced state {@code q*}, a diagnosis in words.
 */
public final class SwitchedFixedPoint {

    /** What kind of equilibrium it is. */
    public enum Kind {
        /** The balanced state {@code q*} (pools) or {@code x_1 = λ}, nothing queued (single-server queues). */
        BALANCED,
        /** Threshold above {@code ⌊λ⌋}: Erlang-B shaped, spread over {@code 0..ℓ}. */
        ERLANG_B,
        /** Threshold with {@code h = ℓ+1 < λ}: every pool busy above {@code h}, mass at unbounded levels. */
        UNBOUNDED_SUPPORT
    }

    private final Kind kind;
    private final double[] levels;
    private final double residual;
    private final OptionalInt threshold;
    private final String diagnosis;
    private final OptionalDouble settlingTime;

    SwitchedFixedPoint(Kind kind, double[] levels, double residual, OptionalInt threshold, String diagnosis,
            OptionalDouble settlingTime) {
        this.kind = kind;
        this.levels = levels;
        this.residual = residual;
        this.threshold = threshold;
        this.diagnosis = diagnosis;
        this.settlingTime = settlingTime;
    }

    /** @return the kind of equilibrium */
    public Kind kind() {
        return kind;
    }

    /** @return {@code (x_1..x_K)} (a copy) */
    public double[] levels() {
        return levels.clone();
    }

    /** @return {@code (1, x_1..x_K)} */
    public double[] tail() {
        return TailVectors.withLevelZero(levels);
    }

    /** @return mean jobs per server (pool) */
    public double meanQueueLength() {
        return TailVectors.mean(levels);
    }

    /** @return levels kept */
    public int truncation() {
        return levels.length;
    }

    /** @return estimated mass beyond the last level */
    public double cutOffMass() {
        return SwitchedTransient.cutOffMass(levels);
    }

    /** @return {@code ‖f(x)‖∞} of the drift of the piece in force at the equilibrium */
    public double residual() {
        return residual;
    }

    /** @return the threshold in force (threshold policies; for the learning threshold, its equilibrium value) */
    public OptionalInt threshold() {
        return threshold;
    }

    /** @return why the equilibrium is not balanced, or empty when it is */
    public Optional<String> diagnosis() {
        return Optional.ofNullable(diagnosis);
    }

    /** @return for the learning threshold, the time of its last jump from the initial state (the fluid settling time) */
    public OptionalDouble settlingTime() {
        return settlingTime;
    }
}
