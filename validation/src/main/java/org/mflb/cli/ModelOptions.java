package org.mflb.cli;

import org.mflb.core.MflbException;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.fluid.ServerSystem;
import org.mflb.fluid.SmoothRouting;
import org.mflb.fluid.Truncation;

import picocli.CommandLine.Option;

/** The options that describe a fluid model, shared by {@code fixed-point} and {@code transient}. */
public final class ModelOptions {

    /** The systems of the command line. */
    public enum SystemName { supermarket, pools, loss }

    /** The fluid policies of the command line. */
    public enum PolicyName { random, sqd }

    /** Sampling schemes of SQ(d). */
    public enum SamplingName { replacement, distinct }

    @Option(names = "--system", required = true, paramLabel = "supermarket|pools|loss",
            description = "Single-server FIFO queues (supermarket), infinite-server pools, or loss pools of capacity C.")
    SystemName system;

    @Option(names = "--policy", required = true, paramLabel = "random|sqd",
            description = "Dispatching policy: random, or sqd = join the shortest of d sampled servers.")
    PolicyName policy;

    @Option(names = "--d", paramLabel = "D", description = "Servers sampled per arrival by sqd (default: 2).")
    Integer d;

    @Option(names = "--lambda", paramLabel = "L",
            description = "Arrival rate per server (pool); < 1 for supermarket fixed points.")
    Double lambda;

    @Option(names = "--capacity", paramLabel = "C", description = "Capacity of each loss pool (required with --system loss).")
    Integer capacity;

    @Option(names = "--sampling", paramLabel = "replacement|distinct", defaultValue = "replacement",
            description = "sqd samples with replacement (the mean-field limit, default) or d distinct servers of N (needs --n).")
    SamplingName sampling;

    @Option(names = "--n", paramLabel = "N", description = "Number of servers N: the simulated system's size, and the N of --sampling distinct.")
    Integer n;

    @Option(names = "--truncation", paramLabel = "K", description = "Keep exactly K levels (default: chosen automatically).")
    Integer truncation;

    @Option(names = "--tail-tolerance", paramLabel = "EPS", defaultValue = "1e-12",
            description = "Largest tail mass an automatic truncation may cut off (default: ${DEFAULT-VALUE}).")
    double tailTolerance;

    /** @return the server system, validated */
    public ServerSystem serverSystem() {
        return switch (system) {
            case supermarket -> requireNoCapacity(ServerSystem.singleServerQueues());
            case pools -> requireNoCapacity(ServerSystem.infiniteServerPools());
            case loss -> {
                if (capacity == null) {
                    throw MflbException.invalid("capacity", "missing", "given (an integer >= 1) with --system loss");
                }
                yield ServerSystem.lossPools(capacity);
            }
        };
    }

    private ServerSystem requireNoCapacity(ServerSystem s) {
        if (capacity != null) {
            throw MflbException.invalid("capacity", capacity, "used only with --system loss");
        }
        return s;
    }

    /** @return the fluid policy, validated */
    public SmoothRouting routing() {
        if (policy == PolicyName.random) {
            if (d != null && d != 1) {
                throw MflbException.invalid("d", d, "1 (or omitted) with --policy random");
            }
            return RandomRouting.INSTANCE;
        }
        int sampled = d == null ? 2 : d;
        if (sampling == SamplingName.distinct) {
            if (n == null) {
                throw MflbException.invalid("n", "missing", "given (the number of servers) with --sampling distinct");
            }
            return PowerOfD.distinct(sampled, n);
        }
        return PowerOfD.withReplacement(sampled);
    }

    /**
     * The size expansions assume rates that do not depend on N. With distinct sampling the selection
     * probability depends on N (its 1/N term changes V): refuse rather than give a wrong 1/N term.
     */
    void requireFixedSizeFreeRates() {
        if (policy == PolicyName.sqd && sampling == SamplingName.distinct) {
            throw MflbException.invalid("sampling", "distinct", "replacement with --refined (the 1/N term of distinct"
                    + " sampling is not supported yet)");
        }
    }

    /** @return {@code λ}, required and validated */
    public double lambda() {
        if (lambda == null) {
            throw MflbException.invalid("lambda", "missing", "given (a number > 0)");
        }
        return org.mflb.core.Require.positive("lambda", lambda);
    }

    /** @return the truncation rule */
    public Truncation truncationRule() {
        return truncation == null ? Truncation.automatic(tailTolerance) : Truncation.fixed(truncation);
    }

    /** @return the fluid model for a constant {@code λ} */
    public FluidModel fluidModel() {
        return FluidModel.of(serverSystem(), routing(), lambda()).withTruncation(truncationRule());
    }
}
