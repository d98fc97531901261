/**
 * Service-time laws (docs/models.md §6), each with mean 1 unless a mean is given: {@link Exponential},
 * {@link Deterministic}, {@link Erlang}, {@link Gamma} (by SCV), the balanced-means
 * {@link HyperExponential} H2 (by SCV), {@link LogNormal} (by SCV), {@link Weibull} (by shape),
 * {@link Pareto} (by shape {@code α > 1}) and the general {@link PhaseType} {@code PH(α, T)}. Every
 * {@link ServiceDistribution} provides a sampler (Commons RNG), the survival function {@code Ḡ}, the
 * density, the hazard {@code η = g/Ḡ}, the mean residual life {@code m(a) = ∫Ḡ(a + u) du/Ḡ(a)} and the
 * moments, evaluated in forms that stay accurate where {@code Ḡ} underflows (the special functions of
 * {@code SpecialFunctions}); the tests check them against each other. {@link ServiceDistributions} parses
 * the command-line syntax ({@code lognormal:scv=4}, {@code ph:alpha=[...],T=[[...]]}) that
 * {@link ServiceDistribution#spec()} prints. The simulator draws service times from the samplers and the
 * hydrodynamic PDE (docs/models.md §5) integrates against {@code Ḡ}, {@code η} and {@code m}: both see
 * exactly the same law.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, Commons RNG, Hipparchus's special functions and EJML
 * only. A law knows nothing of the queues it serves: this package must not depend on any other package of
 * mflb.
 */
package org.mflb.core.distribution;
