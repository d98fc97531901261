/**
 * Laws of the time a job spends in the system (docs/models.md §7). A {@link SojournLaw} is known by its
 * survival function {@code P(T > t)}, which may have atoms; its quantiles are
 * {@code inf{t : P(T > t) ≤ 1 − p}}, found by bracketing and a root finder. {@link ErlangMixture} is the
 * law of FIFO single-server queues with unit-rate exponential service: a job that finds {@code k} jobs
 * stays {@code Erlang(k+1)}, so with {@code s_j} the share of arrivals that join a queue with at least
 * {@code j} jobs, {@code P(T > t) = e^{−t} Σ_j s_j t^j/j!} and {@code E[T] = Σ_j s_j}, evaluated in log
 * space. {@link Percentiles} is a validated list of percentiles in (0, 100) and their quantiles under a
 * law. The fluid models give the shares {@code s_j}, the PDE its own grid laws, and the simulator uses the
 * same mixture as its conditional (Rao–Blackwell) estimator over the queue lengths arrivals find.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core} and Hipparchus only. This package holds the law given the
 * shares, not the shares: it must not depend on any fluid model, the PDE or the simulator.
 */
package org.mflb.core.sojourn;
