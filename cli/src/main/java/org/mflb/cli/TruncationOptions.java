package org.mflb.cli;

import org.mflb.fluid.Truncation;

import picocli.CommandLine.Option;

/** {@code --truncation} and {@code --tail-tolerance}: the levels the fluid commands keep (fixed-point, transient, compare, diffusion). */
public final class TruncationOptions {

    @Option(names = "--truncation", paramLabel = "K", description = "Keep exactly K levels (default: chosen automatically).")
    Integer truncation;

    @Option(names = "--tail-tolerance", paramLabel = "EPS", defaultValue = "1e-12",
            description = "Largest tail mass an automatic truncation may cut off (default: ${DEFAULT-VALUE}).")
    double tailTolerance;

    /** @return the truncation rule */
    Truncation rule() {
        return truncation == null ? Truncation.automatic(tailTolerance) : Truncation.fixed(truncation);
    }
}
