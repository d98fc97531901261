/**
 * The Apache Spark engine of {@code mflb sweep} ({@code --engine spark}): {@link SparkSweepEngine} runs
 * the points of a sweep as the tasks of one Spark job, one point per task, each computed by the sweep
 * API's {@code PointRunner} on an executor, so that the numbers are those of the local engine to the last
 * digit; a {@code local[N]} master runs embedded and bound to the loopback interface.
 * {@link SparkSweepJob} is the main class of the job jar for {@code spark-submit}. The engine is found
 * with {@code ServiceLoader} when this module is on the classpath.
 *
 * <p>No mathematics lives here, so nothing is cited. <b>Dependencies:</b> the sweep API
 * ({@code org.mflb.sweep}), {@code org.mflb.core} and Spark (a {@code provided} dependency) only. This
 * package must not depend on the command line's main class or commands ({@code org.mflb.cli}), nor on any
 * model or the simulator directly: a point is a command line, run through the sweep API.
 */
package org.mflb.sweep.spark;
