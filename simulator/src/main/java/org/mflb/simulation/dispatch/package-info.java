/**
 * The dispatchers: each policy's real algorithm, written from its definition (docs/models.md §1–3, §1a),
 * never from a fluid model's routing probabilities. A {@link Dispatcher} (one per replication, made by
 * {@link PolicyImplementation}, the one place that maps each policy of the model vocabulary to its
 * dispatcher and its occupancy-engine rule, from a {@code DispatchContext}) selects the server of each arrival and is told of
 * arrivals, blocked jobs and departures through hooks. {@link RandomDispatcher};
 * {@link PowerOfDDispatcher} (SQ(d) [Mit, VDK], in pools [MBLW]) with {@code d} servers drawn with
 * replacement or distinct ({@code ServerSample}); {@link JsqDispatcher} and {@link JiqDispatcher}, which
 * read the true occupancy through the read-only {@link org.mflb.simulation.state.Occupancy} view;
 * {@link MemoryDispatcher}, SQ(d) with memory [AD] with its own observation of every server;
 * {@link ThresholdDispatcher} and {@link AdaptiveThresholdDispatcher}, the static and self-learning
 * threshold policies of [GABL] run with green and yellow tokens and the pools' messages
 * ({@code ThresholdTokens}, {@code TokenSet}), seeing only their tokens. Dispatchers report their own
 * statistics ({@link PolicyStatistics}: messages per task, mean threshold) and the threshold's trace
 * ({@link LevelJump}).
 *
 * <p>Servers of different speeds (docs/models.md §10): {@link RandomDispatcher} and
 * {@link PowerOfDDispatcher} stay speed-blind, {@link SedDispatcher} joins the smallest {@code (Q+1)/s}
 * compared exactly, and {@code ServerSample} draws speed-weighted samples; {@link PolicyImplementation}
 * maps SED(d) of one speed to SQ(d) and speed-weighted sampling of one speed to sampling with replacement.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.simulation} (the scenario and policy
 * names), {@code org.mflb.simulation.state} and Commons RNG only. A dispatcher decides where a job goes;
 * it must not depend on the engines that drive it ({@code org.mflb.simulation.engine}), nor, like every
 * simulator package, on the fluid or PDE models.
 */
package org.mflb.simulation.dispatch;
