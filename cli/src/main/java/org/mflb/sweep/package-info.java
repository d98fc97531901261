/**
 * Sweeps ({@code mflb sweep}): one command line run over a grid of parameter values, in one JVM, in
 * parallel. {@link SweepGrid} reads which options of a command are sweepable from the command's own
 * picocli model (numbers and names of an enum by their type, service laws by a {@link Sweepable} converter)
 * and expands lists {@code a,b,c}, exact decimal ranges {@code from:to:step} and lists of laws split where
 * a new law starts ({@link SweepValues}) into the Cartesian product of {@link SweepPoint}s, each a complete command line
 * with {@code --format json}, one thread and its own seed ({@code ReplicationStreams.pointSeed}), so that
 * a point's numbers depend on its command line alone. A {@link SweepEngine} runs the points
 * ({@link LocalSweepEngine}, a thread pool; others, such as Spark's, found with {@code ServiceLoader}),
 * each through {@link PointRunner} and the {@link CommandRunner} service, into {@link PointResult}s;
 * {@link SweepTable} flattens their JSON into a tidy table (one row per point, one column per scalar,
 * confidence intervals as their own columns) and {@link SweepPlot} draws a result against a swept
 * parameter.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, the simulator's random streams, the figures of
 * {@code org.mflb.validation.plot}, picocli's command model and Jackson. This package must not depend on
 * the command line's main class or commands ({@code org.mflb.cli}): it sees the command line only through
 * the {@link CommandRunner} interface, whose implementation is loaded as a service, so that an engine on
 * another machine needs only this package and the classpath.
 */
package org.mflb.sweep;
