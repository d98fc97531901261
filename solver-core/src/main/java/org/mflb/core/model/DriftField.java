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
}
