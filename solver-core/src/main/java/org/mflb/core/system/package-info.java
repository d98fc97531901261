/**
 * The model vocabulary: a load-balancing system described once, as the user states it, for every layer to
 * compute with. {@link LoadBalancingModel} is an immutable, validated value made of the
 * {@link ServerSystem} (single-server FIFO queues, infinite-server pools, loss pools of capacity
 * {@code C}: how fast a server or pool with {@code i} jobs loses them, docs/models.md §1–2), the
 * dispatching {@link Policy} (a sealed hierarchy of records: random routing, SQ(d) [Mit, VDK], JSQ, JIQ,
 * the static and self-learning threshold policies [GABL] of docs/models.md §3, SQ(d) with memory [AD] of
 * §1a), the {@link Sampling} of the {@code d} servers (with replacement or distinct, docs/models.md §1),
 * the arrival rate {@code λ(t)} and the service-time law. The fluid models, the simulator and the PDE are
 * built from this one value; a layer maps the policy to what it computes with (a drift in fluid-models, a
 * dispatcher that runs the real algorithm in the simulator) through the exhaustive {@link Policy.Cases}
 * dispatch, so a layer that forgets a policy does not compile. A policy that is not defined for a system,
 * or a missing parameter, is an {@link org.mflb.core.MflbException} naming the parameter
 * ({@code threshold}, {@code capacity}, ...). {@link ServerClasses} describes servers of different speeds
 * in classes (fractions {@code a_k}, speeds {@code s_k}, capacity {@code C = Σ_k a_k s_k}; docs/models.md
 * §10), with the speeds kept as exact decimals so that the ties of SED(d) between classes are compared
 * exactly.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.core.model} and
 * {@code org.mflb.core.distribution} only. This package states what a model is and never how it is
 * computed: it must not depend on any solver of solver-core, nor on the fluid models, the PDE or the
 * simulator (which depend on it), and none of its messages names a command-line flag.
 */
package org.mflb.core.system;
