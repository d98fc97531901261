package org.mflb.cli;

import picocli.CommandLine.Option;

/** {@code --seed} and {@code --threads} of the commands that run the simulator (simulate, compare, diffusion). */
public final class RandomStreamOptions {

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed; replication r uses a stream derived from (seed, r) (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads (default: all processors).")
    Integer threads;

    /** @return the seed */
    public long seed() {
        return seed;
    }

    /** @return the thread count, all processors by default */
    public int threads() {
        return threads != null ? threads : Runtime.getRuntime().availableProcessors();
    }
}
