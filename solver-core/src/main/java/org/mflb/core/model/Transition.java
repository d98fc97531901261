package org.mflb.core.model;

import java.util.Arrays;

/**
 * The jump vector {@code ℓ} of one transition class of a density-dependent population process:
 * when the transition fires, the scaled state moves from {@code x} to {@code x + ℓ/N}. Stored
 * sparsely because the jumps of load-balancing models touch one or two coordinates.
 */
public final class Transition {

    private final int[] indices;
    private final double[] values;

    /**
     * @param indices coordinates the jump changes, strictly increasing
     * @param values change of each coordinate
     */
    public Transition(int[] indices, double[] values) {
        if (indices.length != values.length) {
            throw new IllegalArgumentException("indices and values differ in length");
        }
        for (int k = 1; k < indices.length; k++) {
            if (indices[k] <= indices[k - 1]) {
                throw new IllegalArgumentException("indices must be strictly increasing");
            }
        }
        this.indices = indices.clone();
        this.values = values.clone();
    }

    /** @return the jump {@code sign·e_i} */
    public static Transition unit(int i, double sign) {
        return new Transition(new int[] {i}, new double[] {sign});
    }

    /** @return number of non-zero coordinates of {@code ℓ} */
    public int size() {
        return indices.length;
    }

    /** @return the coordinate of the {@code k}-th non-zero entry */
    public int index(int k) {
        return indices[k];
    }

    /** @return the value of the {@code k}-th non-zero entry */
    public double value(int k) {
        return values[k];
    }

    /** @return the jump as a dense vector of length {@code dimension} */
    public double[] toDense(int dimension) {
        double[] dense = new double[dimension];
        for (int k = 0; k < indices.length; k++) {
            dense[indices[k]] = values[k];
        }
        return dense;
    }

    @Override
    public String toString() {
        return "Transition" + Arrays.toString(indices) + "=" + Arrays.toString(values);
    }
}
