package org.mflb.fluid.nonsmooth;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What the equilibrium of a non-smooth fluid adds to the tail vector (closed forms of
 * {@link ThresholdEquilibria}): its kind, the threshold in force and, when it is not the balanced
 * state {@code q*}, a diagnosis in words. Reached from a fixed point by {@code FluidFixedPoint.equilibrium()}.
 *
 * @param kind the kind of equilibrium
 * @param threshold the threshold in force (threshold policies, JIQ = threshold 0; for the learning
 *        threshold, its equilibrium value); empty for JSQ
 * @param diagnosis why the equilibrium is not balanced, or empty when it is
 * @param settlingTime for the learning threshold, the time of its last jump from the empty state
 *        (the fluid settling time)
 */
public record SwitchedEquilibrium(Kind kind, OptionalInt threshold, Optional<String> diagnosis,
        OptionalDouble settlingTime) {

    /** What kind of equilibrium it is. */
    public enum Kind {
        /** The balanced state {@code q*} (pools) or {@code x_1 = λ}, nothing queued (single-server queues). */
        BALANCED,
        /** Threshold above {@code ⌊λ⌋}: Erlang-B shaped, spread over {@code 0..ℓ}. */
        ERLANG_B,
        /** Threshold with {@code h = ℓ+1 < λ}: every pool busy above {@code h}, mass at unbounded levels. */
        UNBOUNDED_SUPPORT
    }
}
