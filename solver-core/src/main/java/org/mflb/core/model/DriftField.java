package org.mflb.core.model;

/**
 * A vector field {@code dx/dt = f(x, t)} on {@code ℝ^K}: the fluid limit of a population process.
 * This is the only thing the transient solver needs; {@link PopulationModel} adds the jump
 * structure that refined and diffusion approximations need.
 */
public interface DriftField {

    /** @return the dimension {@code K} of the state */
    int getDimension();

    /**
     * Evaluates the drift.
     *
     * @param t time
     * @param x state, length {@link #getDimension()} (not modified)
     * @param f drift {@code f(x, t)} (modified)
     */
    void drift(double t, double[] x, double[] f);

    /**
     * Moves {@code x} into the state space the flow leaves invariant (the default: all of
     * {@code ℝ^K}, no change). The transient solver evaluates the drift at the projected state and
     * reports projected states, so an integration step that leaves the state space by a rounding
     * error neither produces values outside it nor feeds them to the rates (where, e.g., {@code x^d}
     * of an {@code x} slightly above 1 overflows for large {@code d}).
     *
     * @param x state (modified in place)
     * @return whether {@code x} was changed
     */
    default boolean project(double[] x) {
        return false;
    }
}
