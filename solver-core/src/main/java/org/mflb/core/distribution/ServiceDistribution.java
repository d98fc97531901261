package org.mflb.core.distribution;

import java.util.Optional;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * The law {@code G} of a job's service requirement (docs/models.md §6). Used by the simulator (through
 * {@link #createSampler}) and by the hydrodynamic PDE (through {@link #survival}, {@link #hazard}
 * and {@link #meanResidualLife}), so both see exactly the same distribution. Implementations are
 * immutable and validate their parameters at construction.
 *
 * <p>The built-in laws are {@link Exponential}, {@link Deterministic}, {@link Erlang},
 * {@link Gamma}, {@link HyperExponential}, {@link LogNormal}, {@link Weibull}, {@link Pareto} and
 * {@link PhaseType}; {@link ServiceDistributions#parse(String)} builds them from the command-line
 * syntax that {@link #spec()} prints. For every {@code t < 0}: {@code Ḡ(t) = 1}, {@code g(t) = 0},
 * {@code η(t) = 0}.
 */
public interface ServiceDistribution {

    /** @return {@code E[S]} */
    double mean();

    /** @return the raw moment {@code E[S^k]}, {@code k ≥ 1}; {@code +∞} when it does not exist */
    double moment(int k);

    /** @return squared coefficient of variation {@code Var[S]/E[S]²}; {@code +∞} for infinite variance */
    default double scv() {
        double m = mean();
        return moment(2) / (m * m) - 1.0;
    }

    /** @return survival function {@code Ḡ(t) = P(S > t)} */
    double survival(double t);

    /**
     * @return {@code ln Ḡ(t)} (minus the cumulative hazard), accurate also where {@code Ḡ(t)}
     *         underflows; {@code -∞} only where {@code Ḡ(t) = 0} exactly. The PDE uses differences
     *         of it for the survival over an age cell, {@code Ḡ(b)/Ḡ(a)}.
     */
    default double logSurvival(double t) {
        return Math.log(survival(t));
    }

    /** @return density {@code g(t)}; for a law with an atom (deterministic) see {@link #hasDensity()} */
    double density(double t);

    /** @return whether {@code G} has a density (the deterministic law has not) */
    default boolean hasDensity() {
        return true;
    }

    /**
     * @return hazard rate {@code η(t) = g(t)/Ḡ(t)}, computed stably where {@code Ḡ(t)} underflows
     *         (never NaN for {@code t ≥ 0})
     */
    double hazard(double t);

    /** @return mean residual life {@code m(a) = ∫_0^∞ Ḡ(a+u) du / Ḡ(a)} */
    double meanResidualLife(double a);

    /**
     * @return the smallest {@code a} with {@code Ḡ(a) ≤ tailMass}, used to truncate age grids
     *         ({@code tailMass} in (0, 1))
     */
    double survivalQuantile(double tailMass);

    /**
     * A sampler that draws service requirements from {@code rng}. Samplers keep only the generator
     * as state, so a replication gets its own by passing its own stream.
     */
    ContinuousSampler createSampler(UniformRandomProvider rng);

    /** @return the specification in the command-line syntax, e.g. {@code lognormal:scv=4} */
    String spec();

    /**
     * @return this law as a phase-type law {@code (α, T)} when it is one exactly (exponential,
     *         Erlang, H2, phase-type), so that the exact mean-field ODE on (queue length, phase)
     *         can be built from it; empty otherwise
     */
    default Optional<PhaseType> asPhaseType() {
        return Optional.empty();
    }

    /**
     * The same law rescaled to mean {@code mean}: the law of {@code S·mean/E[S]} (the instance is
     * not changed). Built-in laws return their own type; the default wraps this law.
     *
     * @param mean the new mean, finite and {@code > 0}
     * @return the rescaled law
     */
    default ServiceDistribution withMean(double mean) {
        return new ScaledDistribution(this, mean);
    }
}
