package org.mflb.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.model.ArrivalProfiles;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.FluidModel;
import org.mflb.sweep.SweepValues;
import org.mflb.sweep.Sweepable;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The model options, declared once for {@code fixed-point}, {@code transient}, {@code simulate},
 * {@code compare} and {@code diffusion}: the system, the policy and its parameters, the arrival rate
 * (constant or a profile), the service law and the number of servers {@code N}. They produce the
 * library's {@link LoadBalancingModel} ({@link #model()}), which validates the values; the checks
 * here are the command line's own: an option the chosen system or policy does not use is refused,
 * one it needs is a missing option (a usage error). A command refuses in one line what it cannot
 * compute (a fixed point of a rate profile, a fluid of general service), never by declaring an
 * option again.
 */
public final class ModelOptions {

    /** The systems of the command line. */
    public enum SystemName { supermarket, pools, loss }

    /** The policies of the command line, by their names ({@link Policy#id()}). */
    public enum PolicyName {
        random, sqd, jsq, jiq, threshold, adaptive_threshold, memory, sed, ll;

        /** @return the name on the command line ({@code adaptive-threshold}), the policy's {@link Policy#id()} */
        public String cliName() {
            return name().replace('_', '-');
        }
    }

    /** Reads {@code adaptive-threshold} (and any case) into {@link PolicyName}. */
    static final class PolicyConverter implements ITypeConverter<PolicyName> {
        @Override
        public PolicyName convert(String value) {
            return byName(value, PolicyName.values(), PolicyName::cliName, Arrays.stream(PolicyName.values())
                    .map(PolicyName::cliName).collect(Collectors.joining(", ")));
        }
    }

    /** Reads {@code replacement} or {@code distinct} (any case) into the model's {@link Sampling}. */
    static final class SamplingConverter implements ITypeConverter<Sampling> {
        @Override
        public Sampling convert(String value) {
            return byName(value, Sampling.values(), Sampling::id, Arrays.stream(Sampling.values()).map(Sampling::id)
                    .toList().toString());
        }
    }

    /** @return the value of that name (any case), else a conversion error listing the names */
    private static <T> T byName(String value, T[] values, Function<T, String> name, String names) {
        for (T v : values) {
            if (name.apply(v).equalsIgnoreCase(value.strip())) {
                return v;
            }
        }
        throw new TypeConversionException("expected one of " + names + " (case-insensitive) but was '" + value + "'");
    }

    /** Keeps an option's text, which the model parses; a subclass says how a sweep lists its values. */
    abstract static class TextConverter implements ITypeConverter<String>, Sweepable {
        @Override
        public String convert(String value) {
            return value;
        }
    }

    /** Keeps a service law's text; a sweep lists laws ({@link SweepValues.Kind#LAW}). */
    static final class ServiceConverter extends TextConverter {
        @Override
        public SweepValues.Kind sweepKind() {
            return SweepValues.Kind.LAW;
        }
    }

    /** Keeps the text of {@code --classes}; a sweep lists class sets {@code a;b;c} ({@link SweepValues.Kind#CLASSES}). */
    static final class ClassesConverter extends TextConverter {
        @Override
        public SweepValues.Kind sweepKind() {
            return SweepValues.Kind.CLASSES;
        }
    }

    /**
     * The numbers of servers of {@code --n}: one {@code N}, or the list {@code N,N,...} of the
     * Halfin–Whitt study.
     *
     * @param text the option's value
     * @param values its numbers
     */
    record Sizes(String text, List<Integer> values) {
    }

    /** Reads {@code N} or {@code N,N,...}; a sweep takes lists and ranges of {@code N} ({@link SweepValues.Kind#INTEGER}). */
    static final class SizesConverter implements ITypeConverter<Sizes>, Sweepable {
        @Override
        public Sizes convert(String value) {
            List<Integer> sizes = new ArrayList<>();
            for (String item : value.split(",", -1)) {
                try {
                    sizes.add(Integer.valueOf(item.strip()));
                } catch (NumberFormatException e) {
                    throw new TypeConversionException("'" + item + "' is not an int");
                }
            }
            return new Sizes(value, sizes);
        }

        @Override
        public SweepValues.Kind sweepKind() {
            return SweepValues.Kind.INTEGER;
        }
    }

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--system", paramLabel = "supermarket|pools|loss",
            description = "Single-server FIFO queues (supermarket), infinite-server pools, or loss pools of capacity C"
                    + " (required unless --model).")
    SystemName system;

    @Option(names = "--policy", paramLabel = "random|sqd|jsq|jiq|threshold|adaptive-threshold|memory|sed|ll",
            converter = PolicyConverter.class,
            description = "Dispatching policy: random; sqd = join the shortest of d sampled servers; jsq = join the"
                    + " shortest queue; jiq = join an idle server, else at random; threshold = to a pool with fewer"
                    + " than L tasks, else with L, else at random (pools); adaptive-threshold = the self-learning"
                    + " threshold with parameter alpha (pools); memory = SQ(d) with memory: to the smallest last"
                    + " observed length, refreshing the d sampled servers (supermarket); sed = the smallest expected delay"
                    + " (Q+1)/speed of d sampled servers (supermarket; with one speed it is sqd); ll = the least loaded"
                    + " (least unfinished work) of d sampled servers, any job-size law --service (supermarket; its limit"
                    + " is the workload equation, docs/models.md §11). Every policy: fixed-point, transient, simulate;"
                    + " compare: random, sqd, memory, ll (and random, sqd, sed with --classes); diffusion: random and sqd"
                    + " (--regime halfin-whitt: jsq). Required unless --model.")
    PolicyName policy;

    @Option(names = "--threshold", paramLabel = "L", description = "Threshold L >= 0 of --policy threshold.")
    Integer threshold;

    @Option(names = "--alpha", paramLabel = "A", description = "Parameter alpha in (0, 1) of --policy adaptive-threshold.")
    Double alpha;

    @Option(names = "--initial-threshold", paramLabel = "L0",
            description = "Threshold at time 0 of --policy adaptive-threshold (default: 0).")
    Integer initialThreshold;

    @Option(names = "--d", paramLabel = "D", description = "Servers sampled per arrival by sqd, sed, memory and ll (default: 2).")
    Integer d;

    @Option(names = "--lambda", paramLabel = "L",
            description = "Arrival rate per server (pool); < 1 for supermarket fixed points.")
    Double lambda;

    @Option(names = "--lambda-profile", paramLabel = "FILE",
            description = "CSV file of t,lambda points: a piecewise-linear lambda(t), constant outside its times;"
                    + " replaces --lambda (transients: transient, simulate, compare --dt; the simulator draws it"
                    + " exactly by thinning).")
    Path lambdaProfile;

    @Option(names = "--capacity", paramLabel = "C", description = "Capacity of each loss pool (required with --system loss).")
    Integer capacity;

    @Option(names = "--service", paramLabel = "SPEC", converter = ServiceConverter.class,
            description = "Service law of mean 1 (default: exp): exp, det, erlang:k=2, gamma:scv=0.5, h2:scv=4,"
                    + " lognormal:scv=4, weibull:shape=0.5, pareto:shape=2.5, ph:... (mean M with ,mean=M). simulate:"
                    + " any law; compare: the laws its fluid predicts (exp; loss pools in steady state: any, the fixed"
                    + " point is insensitive); fixed-point and diffusion with --system loss: the phase-type sensitivity"
                    + " and the fluctuation study; other fluid commands: exp (general service: mflb pde).")
    String service;

    @Option(names = "--sampling", paramLabel = "replacement|distinct|speed", defaultValue = "replacement",
            converter = SamplingConverter.class,
            description = "How sqd, sed, memory and ll sample their d servers: with replacement (default in every command:"
                    + " the model the fluid closed forms, the fixed point without N and the refined 1/N, 1/N^2"
                    + " expansions are exact for), or d distinct servers out of N (sqd: needs --n, the exact finite-N"
                    + " law of the real d-distinct algorithm; memory: how the simulated dispatcher samples, both"
                    + " have the same fluid limit; ll: simulate and compare, the workload equation is the limit of both),"
                    + " or speed: each sample picks a server with probability proportional"
                    + " to its speed (--classes).")
    Sampling sampling;

    @Option(names = "--classes", paramLabel = "F:S,F:S,...", converter = ClassesConverter.class,
            description = "Servers of different speeds (supermarket; random, sqd, sed): class k is the fraction F of the"
                    + " servers (> 0, summing to 1) and serves at speed S > 0 (docs/models.md §10). fixed-point,"
                    + " transient, simulate, compare (steady state) and sweep (a list a;b;c of class sets); with"
                    + " --sampling speed each sample picks a server with probability proportional to its speed.")
    String classes;

    @Option(names = "--n", paramLabel = "N", converter = SizesConverter.class,
            description = "Number of servers N: the simulated system's size, and the N of --sampling distinct"
                    + " (diffusion --regime halfin-whitt: a list N,N,...).")
    Sizes n;

    /**
     * @return the model the options describe, validated: the arrival rate, the system and the policy
     *         (in that order), then the model itself (e.g. a threshold policy in pools only)
     * @throws ParameterException without {@code --system} or {@code --policy}
     * @throws MflbException of kind {@code MISSING_PARAMETER} (a usage error) for an option the others
     *         need, {@code INVALID_PARAMETER} for one they do not use or a bad value
     */
    public LoadBalancingModel model() {
        ModelFileOptions.requireBuiltIn(spec, system, policy);
        ArrivalRate rate = arrivalRate();
        ServerSystem servers = serverSystem();
        return new LoadBalancingModel(servers, policy(), rate, service(),
                classes == null ? ServerClasses.homogeneous() : ServerClasses.parse(classes));
    }

    /** @return {@code λ(t)}: the profile, or the constant {@code --lambda}; exactly one of them */
    private ArrivalRate arrivalRate() {
        if (lambdaProfile == null) {
            if (lambda == null) {
                throw MflbException.missing("lambda", "(a number > 0)");
            }
            return ArrivalRate.constant(Require.positive("lambda", lambda));
        }
        if (lambda != null) {
            throw MflbException.invalid("lambda", lambda, "omitted with --lambda-profile (give one of them)");
        }
        return ArrivalProfiles.read(lambdaProfile);
    }

    /** @return the server system, validated */
    private ServerSystem serverSystem() {
        if (system != SystemName.loss && capacity != null) {
            throw MflbException.invalid("capacity", capacity, "used only with --system loss");
        }
        return switch (system) {
            case supermarket -> ServerSystem.singleServerQueues();
            case pools -> ServerSystem.infiniteServerPools();
            case loss -> {
                if (capacity == null) {
                    throw MflbException.missing("capacity", "(an integer >= 1) with --system loss");
                }
                yield ServerSystem.lossPools(capacity);
            }
        };
    }

    /** @return the policy with its parameters, refusing the options of the other policies */
    private Policy policy() {
        if (threshold != null && policy != PolicyName.threshold) {
            throw MflbException.invalid("threshold", threshold, "used only with --policy threshold"
                    + (policy == PolicyName.adaptive_threshold ? " (the adaptive policy starts from --initial-threshold)" : ""));
        }
        if (alpha != null && policy != PolicyName.adaptive_threshold) {
            throw MflbException.invalid("alpha", alpha, "used only with --policy adaptive-threshold");
        }
        if (initialThreshold != null && policy != PolicyName.adaptive_threshold) {
            throw MflbException.invalid("initial-threshold", initialThreshold, "used only with --policy adaptive-threshold");
        }
        boolean samples = policy == PolicyName.sqd || policy == PolicyName.memory || policy == PolicyName.sed
                || policy == PolicyName.ll;
        if (d != null && !samples && policy != PolicyName.random) {
            throw MflbException.invalid("d", d, "used only with --policy random, sqd, sed, memory or ll");
        }
        if (sampling == Sampling.DISTINCT && !samples) {
            throw MflbException.invalid("sampling", "distinct", "used only with --policy sqd, sed or memory");
        }
        if (sampling == Sampling.SPEED && policy != PolicyName.random && policy != PolicyName.sqd
                && policy != PolicyName.sed) {
            throw MflbException.invalid("sampling", "speed", "used only with --policy random, sqd or sed");
        }
        int sampled = d == null ? 2 : d;
        return switch (policy) {
            case random -> {
                if (d != null && d != 1) {
                    throw MflbException.invalid("d", d, "1 (or omitted) with --policy random");
                }
                // one sample drawn in proportion to the speeds is speed-weighted random routing
                yield sampling == Sampling.SPEED ? new Policy.PowerOfD(1, Sampling.SPEED) : new Policy.Random();
            }
            case sqd -> new Policy.PowerOfD(sampled, sampling);
            case jsq -> new Policy.JoinShortestQueue();
            case jiq -> new Policy.JoinIdleQueue();
            case threshold -> {
                if (threshold == null) {
                    throw MflbException.missing("threshold", "(an integer >= 0) with --policy threshold");
                }
                yield new Policy.Threshold(threshold);
            }
            case adaptive_threshold -> {
                if (alpha == null) {
                    throw MflbException.missing("alpha", "(a number in (0, 1)) with --policy adaptive-threshold");
                }
                yield new Policy.AdaptiveThreshold(alpha, initialThreshold == null ? 0 : initialThreshold);
            }
            case memory -> new Policy.Memory(sampled, sampling);
            case sed -> new Policy.ShortestExpectedDelay(sampled, sampling);
            case ll -> new Policy.LeastLoaded(sampled, sampling);
        };
    }

    /** @return the service law: {@code --service}, exponential of mean 1 by default */
    private ServiceDistribution service() {
        return service == null ? Exponential.unit() : ServiceDistributions.parse(service);
    }

    /** @return whether {@code --service} was given (loss pools: the service studies of fixed-point and diffusion) */
    boolean serviceGiven() {
        return service != null;
    }

    /**
     * The fluid model of a model of these options, for the commands that compute the fluid limit:
     * {@code --n} is the {@code N} of {@code --sampling distinct}.
     *
     * @param model the model, with exponential service
     * @param truncation the truncation options
     * @return the fluid model
     */
    FluidModel fluidModel(LoadBalancingModel model, TruncationOptions truncation) {
        if (policy == PolicyName.sqd && sampling == Sampling.DISTINCT && size() == null) {
            throw MflbException.missing("n", "(the number of servers) with --sampling distinct");
        }
        return FluidModel.of(model, size() == null ? 0 : size()).withTruncation(truncation.rule());
    }

    /**
     * Refuses a service law that the fluid limit of a command does not have (its rates are those of
     * exponential service of mean 1).
     *
     * @param model the model
     * @param where the command, and where it takes other laws, for the message
     */
    void requireExponentialService(LoadBalancingModel model, String where) {
        if (!model.unitExponentialService()) {
            throw MflbException.invalid("service", service, "exp for " + where + ": the fluid limit has exponential"
                    + " service of mean 1 (general service: mflb pde)");
        }
    }

    /**
     * Refuses a rate profile where the command needs a constant rate (a steady state).
     *
     * @param what what needs it, for the message
     */
    void requireConstantRate(String what) {
        if (lambdaProfile != null) {
            throw MflbException.invalid("lambda-profile", lambdaProfile, "omitted for " + what + " (a constant --lambda)");
        }
    }

    /** @return the arrival rate as table headers name it: {@code lambda = 0.9} or {@code lambda(t) from FILE} */
    String loadLabel() {
        return lambdaProfile == null ? "lambda = " + lambda : "lambda(t) from " + lambdaProfile;
    }

    /** Refuses the non-smooth policies in commands (and options such as --refined) that need a smooth drift. */
    void requireSmooth(LoadBalancingModel model) {
        if (!model.policy().hasSmoothFluidLimit()) {
            throw MflbException.invalid("policy", model.policy().id(), "random or sqd for this command (jsq, jiq,"
                    + " threshold and adaptive-threshold: fixed-point and transient, memory also compare; all without"
                    + " --refined)");
        }
    }

    /**
     * For commands that do not simulate (fixed-point, transient): {@code --n} is only the {@code N} of
     * {@code --sampling distinct}, and is refused rather than ignored otherwise.
     */
    void requireSizeOnlyWithDistinctSampling() {
        if (size() != null && sampling != Sampling.DISTINCT) {
            throw MflbException.invalid("n", size(), "used only with --sampling distinct here (the fluid limit is N → ∞;"
                    + " --refined N,... gives finite-N corrections)");
        }
    }

    /**
     * @return how the header of a table names the sampling of sqd and memory ({@code "with replacement"}
     *         or {@code "d distinct servers of N = n"}), empty for the policies that sample no servers
     */
    Optional<String> samplingLabel() {
        if (policy != PolicyName.sqd && policy != PolicyName.memory) {
            return Optional.empty();
        }
        return Optional.of(sampling == Sampling.DISTINCT
                ? (d == null ? 2 : d) + " distinct servers" + (size() == null ? "" : " of N = " + size())
                : "with replacement");
    }

    /** @return the one {@code N} of {@code --n}, or null without it */
    Integer size() {
        if (n == null) {
            return null;
        }
        if (n.values().size() > 1) {
            throw new ParameterException(spec.commandLine(), "--n takes one number N here, not the list " + n.text()
                    + " (a list N,N,... is for diffusion --regime halfin-whitt)");
        }
        return n.values().get(0);
    }

    /** @return {@code N} of the simulated system, required */
    int servers() {
        if (size() == null) {
            throw MflbException.missing("n", "(the number of servers of the simulated system)");
        }
        return size();
    }

    /** @return the numbers of servers of {@code --n N,N,...}, or null without it */
    int[] sizes() {
        return n == null ? null : n.values().stream().mapToInt(Integer::intValue).toArray();
    }
}
