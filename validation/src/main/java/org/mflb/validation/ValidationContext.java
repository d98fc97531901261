package org.mflb.validation;

import java.nio.file.Path;

import org.mflb.core.Require;

/**
 * What every scenario of a validation run shares.
 *
 * @param outputDirectory where figures are written
 * @param full whether to run the full (long) catalogue sizes rather than the quick ones
 * @param seed base seed of the simulations (each scenario derives its own)
 * @param threads simulation threads
 */
public record ValidationContext(Path outputDirectory, boolean full, long seed, int threads) {

    /** Validates. */
    public ValidationContext {
        Require.atLeast("threads", threads, 1);
    }

    /** @return {@code quick} in quick mode, {@code full} otherwise */
    public <T> T pick(T quick, T fullValue) {
        return full ? fullValue : quick;
    }

    /** @return the path of the figure of scenario {@code id} */
    public Path figure(String id) {
        return outputDirectory.resolve(id + ".png");
    }
}
