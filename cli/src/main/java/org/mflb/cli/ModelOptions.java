package org.mflb.cli;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.FluidPolicy;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.RandomRouting;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.SmoothRouting;
import org.mflb.fluid.Truncation;
import org.mflb.fluid.memory.MemoryPolicy;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options that describe a fluid model, shared by {@code fixed-point} and {@code transient}. */
public final class ModelOptions {

    /** The systems of the command line. */
    public enum SystemName { supermarket, pools, loss }

    /**
     * The fluid policies of the command line; all but random and sqd have non-smooth fluid limits
     * (docs/models.md §3; memory: §1a).
     */
    public enum PolicyName {
        random, sqd, jsq, jiq, threshold, adaptive_threshold, memory;

        /** @return the name on the command line ({@code adaptive-threshold}) */
        public String cliName() {
            return name().replace('_', '-');
        }

        /** @return whether the fluid limit is piecewise smooth ({@link FluidPolicy#isSmooth()} false) */
        public boolean isNonSmooth() {
            return this != random && this != sqd;
        }
    }

    /** Reads {@code adaptive-threshold} (and any case) into {@link PolicyName}. */
    static final class PolicyConverter implements ITypeConverter<PolicyName> {
        @Override
        public PolicyName convert(String value) {
            for (PolicyName p : PolicyName.values()) {
                if (p.cliName().equalsIgnoreCase(value.strip())) {
                    return p;
                }
            }
            throw new TypeConversionException("expected one of " + Arrays.stream(PolicyName.values())
                    .map(PolicyName::cliName).collect(Collectors.joining(", ")) + " (case-insensitive) but was '" + value + "'");
        }
    }

    /** Sampling schemes of SQ(d). */
    public enum SamplingName { replacement, distinct }

    @Option(names = "--system", paramLabel = "supermarket|pools|loss",
            description = "Single-server FIFO queues (supermarket), infinite-server pools, or loss pools of capacity C"
                    + " (required unless --model).")
    SystemName system;

    @Option(names = "--policy", paramLabel = "random|sqd|jsq|jiq|threshold|adaptive-threshold|memory",
            converter = PolicyConverter.class,
            description = "Dispatching policy: random; sqd = join the shortest of d sampled servers; jsq = join the"
                    + " shortest queue; jiq = join an idle server, else at random; threshold = to a pool with fewer"
                    + " than L tasks, else with L, else at random (pools); adaptive-threshold = the self-learning"
                    + " threshold with parameter alpha (pools); memory = SQ(d) with memory: to the smallest last"
                    + " observed length, refreshing the d sampled servers (supermarket). jsq, jiq, threshold and"
                    + " adaptive-threshold: fixed-point and transient; memory: also compare. Required unless --model.")
    PolicyName policy;

    @Option(names = "--threshold", paramLabel = "L", description = "Threshold L >= 0 of --policy threshold.")
    Integer threshold;

    @Option(names = "--alpha", paramLabel = "A", description = "Parameter alpha in (0, 1) of --policy adaptive-threshold.")
    Double alpha;

    @Option(names = "--initial-threshold", paramLabel = "L0",
            description = "Threshold at time 0 of --policy adaptive-threshold (default: 0).")
    Integer initialThreshold;

    @Option(names = "--d", paramLabel = "D", description = "Servers sampled per arrival by sqd and memory (default: 2).")
    Integer d;

    @Option(names = "--lambda", paramLabel = "L",
            description = "Arrival rate per server (pool); < 1 for supermarket fixed points.")
    Double lambda;

    @Option(names = "--capacity", paramLabel = "C", description = "Capacity of each loss pool (required with --system loss).")
    Integer capacity;

    @Option(names = "--sampling", paramLabel = "replacement|distinct", defaultValue = "replacement",
            description = "How sqd and memory sample their d servers: with replacement (default in every command:"
                    + " the model the fluid closed forms, the fixed point without N and the refined 1/N, 1/N^2"
                    + " expansions are exact for), or d distinct servers out of N (sqd: needs --n, the exact finite-N"
                    + " law of the real d-distinct algorithm; memory: how compare's simulated dispatcher samples, both"
                    + " have the same fluid limit).")
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
                    throw new MissingOption("capacity", "given (an integer >= 1) with --system loss");
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

    /** @return whether the policy's fluid limit is piecewise smooth (jsq, jiq, threshold, adaptive-threshold) */
    public boolean isNonSmooth() {
        return policy.isNonSmooth();
    }

    /** Refuses the options of the other family of policies. */
    private void requireOnlyOptionsOf(PolicyName p) {
        if (threshold != null && p != PolicyName.threshold) {
            throw MflbException.invalid("threshold", threshold, "used only with --policy threshold"
                    + (p == PolicyName.adaptive_threshold ? " (the adaptive policy starts from --initial-threshold)" : ""));
        }
        if (alpha != null && p != PolicyName.adaptive_threshold) {
            throw MflbException.invalid("alpha", alpha, "used only with --policy adaptive-threshold");
        }
        if (initialThreshold != null && p != PolicyName.adaptive_threshold) {
            throw MflbException.invalid("initial-threshold", initialThreshold, "used only with --policy adaptive-threshold");
        }
        if (p.isNonSmooth() && p != PolicyName.memory && d != null) {
            throw MflbException.invalid("d", d, "used only with --policy random, sqd or memory");
        }
        if (p.isNonSmooth() && p != PolicyName.memory && sampling == SamplingName.distinct) {
            throw MflbException.invalid("sampling", "distinct", "used only with --policy sqd or memory");
        }
    }

    /** @return the policy, smooth or not, validated */
    public FluidPolicy policy() {
        if (policy == PolicyName.memory) {
            requireOnlyOptionsOf(policy);
            // the fluid limit is the same for both samplings (docs/models.md §1a); --sampling is the simulated system's
            return MemoryPolicy.of(d == null ? 2 : d);
        }
        return policy.isNonSmooth() ? nonSmoothPolicy() : routing();
    }

    /** @return the non-smooth policy (jsq, jiq, threshold, adaptive-threshold), validated */
    private NonSmoothPolicy nonSmoothPolicy() {
        requireOnlyOptionsOf(policy);
        return switch (policy) {
            case jsq -> NonSmoothPolicy.jsq();
            case jiq -> NonSmoothPolicy.jiq();
            case threshold -> {
                if (threshold == null) {
                    throw new MissingOption("threshold", "given (an integer >= 0) with --policy threshold");
                }
                yield NonSmoothPolicy.threshold(threshold);
            }
            case adaptive_threshold -> {
                if (alpha == null) {
                    throw new MissingOption("alpha", "given (a number in (0, 1)) with --policy adaptive-threshold");
                }
                yield NonSmoothPolicy.adaptiveThreshold(alpha, initialThreshold == null ? 0 : initialThreshold);
            }
            default -> throw new IllegalStateException(policy + " is smooth");
        };
    }

    /** Refuses the non-smooth policies in commands (and options such as --refined) that need a smooth drift. */
    void requireSmooth() {
        if (policy.isNonSmooth()) {
            throw MflbException.invalid("policy", policy.cliName(), "random or sqd for this command (jsq, jiq,"
                    + " threshold and adaptive-threshold: fixed-point and transient, memory also compare; all without"
                    + " --refined)");
        }
    }

    /** @return the fluid policy, validated */
    public SmoothRouting routing() {
        requireSmooth();
        requireOnlyOptionsOf(policy);
        if (policy == PolicyName.random) {
            if (d != null && d != 1) {
                throw MflbException.invalid("d", d, "1 (or omitted) with --policy random");
            }
            return RandomRouting.INSTANCE;
        }
        int sampled = d == null ? 2 : d;
        if (sampling == SamplingName.distinct) {
            if (n == null) {
                throw new MissingOption("n", "given (the number of servers) with --sampling distinct");
            }
            return PowerOfD.distinct(sampled, n);
        }
        return PowerOfD.withReplacement(sampled);
    }

    /**
     * For commands that do not simulate (fixed-point, transient): {@code --n} is only the {@code N} of
     * {@code --sampling distinct}, and is refused rather than ignored otherwise.
     */
    public void requireSizeOnlyWithDistinctSampling() {
        if (n != null && sampling != SamplingName.distinct) {
            throw MflbException.invalid("n", n, "used only with --sampling distinct here (the fluid limit is N → ∞;"
                    + " --refined N,... gives finite-N corrections)");
        }
    }

    /**
     * @return how the header of a table names the sampling of sqd and memory ({@code "with replacement"}
     *         or {@code "d distinct servers of N = n"}), empty for the policies that sample no servers
     */
    public java.util.Optional<String> samplingLabel() {
        if (policy != PolicyName.sqd && policy != PolicyName.memory) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(sampling == SamplingName.distinct
                ? (d == null ? 2 : d) + " distinct servers" + (n == null ? "" : " of N = " + n)
                : "with replacement");
    }

    /** @return whether {@code --sampling distinct} was chosen */
    public boolean distinctSampling() {
        return sampling == SamplingName.distinct;
    }

    /** @return {@code N} of the simulated system, required */
    public int simulatedServers() {
        if (n == null) {
            throw new MissingOption("n", "given (the number of servers of the simulated system)");
        }
        return n;
    }

    /** @return {@code λ}, required and validated */
    public double lambda() {
        if (lambda == null) {
            throw new MissingOption("lambda", "given (a number > 0)");
        }
        return Require.positive("lambda", lambda);
    }

    /** @return the truncation rule */
    public Truncation truncationRule() {
        return truncation == null ? Truncation.automatic(tailTolerance) : Truncation.fixed(truncation);
    }

    /**
     * @return the model of the simulated system for a constant {@code λ}: the system, the policy with
     *         {@code d}, its sampling, threshold and {@code α} (call after the fluid model, which
     *         validates the options)
     */
    public LoadBalancingModel simulatedModel() {
        int sampled = d == null ? 2 : d;
        Sampling how = distinctSampling() ? Sampling.DISTINCT : Sampling.REPLACEMENT;
        Policy p = switch (policy) {
            case random -> Policy.random();
            case sqd -> new Policy.PowerOfD(sampled, how);
            case jsq -> Policy.jsq();
            case jiq -> Policy.jiq();
            case threshold -> new Policy.Threshold(threshold == null ? -1 : threshold);
            case adaptive_threshold -> new Policy.AdaptiveThreshold(alpha == null ? Double.NaN : alpha,
                    initialThreshold == null ? 0 : initialThreshold);
            case memory -> new Policy.Memory(sampled, how);
        };
        return LoadBalancingModel.of(serverSystem(), p, lambda());
    }

    /** @return the fluid model of the policy, smooth or not, for a constant {@code λ} */
    public FluidModel fluidModel() {
        return fluidModel(ArrivalRate.constant(lambda()));
    }

    /** @return the fluid model of the policy, smooth or not, for the arrival rate {@code rate} */
    public FluidModel fluidModel(ArrivalRate rate) {
        return FluidModel.of(serverSystem(), policy(), rate).withTruncation(truncationRule());
    }

    /** @return the fluid model for a constant {@code λ}, refusing the non-smooth policies ({@link #requireSmooth()}) */
    public FluidModel smoothFluidModel() {
        ArrivalRate rate = ArrivalRate.constant(lambda());
        return FluidModel.of(serverSystem(), routing(), rate).withTruncation(truncationRule());
    }
}
