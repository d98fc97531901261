package org.mflb.fluid.memory;

/**
 * A change of the active level {@code ℓ} of the memory fluid at time {@code t} ({@code docs/models.md §1a}).
 *
 * @param t time of the switch
 * @param from the active level before
 * @param to the active level after
 * @param cause which surface was reached
 */
public record MemorySwitch(double t, int from, int to, Cause cause) {

    /** The two switching surfaces. */
    public enum Cause {
        /** The active level emptied ({@code M_ℓ} reached 0): {@code ℓ} moves up. */
        LEVEL_EMPTIED,
        /** The pool share {@code F_ℓ} reached 0 (the lower levels absorb every arrival): {@code ℓ} moves down. */
        POOL_EXHAUSTED
    }
}
