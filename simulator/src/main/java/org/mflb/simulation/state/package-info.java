/**
 * The mutable data structures of one replication, built for the simulator's hot loop (no allocation per
 * event). {@link LevelSets} keeps the servers sorted by level in a permutation, so that the tail counts
 * {@code c_i = N·x_i} (docs/models.md §0), a uniformly random busy server, the idle set and the shortest
 * queues are all found in {@code O(1)}; dispatchers read it through the read-only {@link Occupancy} view,
 * and observers through {@link LevelCounts}. {@link FifoJobs} holds the FIFO queues of single servers
 * (arrival times for the per-job estimators) in one cache line per server, {@link TaskList} the tasks in
 * service in exponential pools, and {@link EventCalendar} the pending service completions of general
 * service, a 4-ary heap in front of a two-level timing wheel with a deterministic order at ties.
 *
 * <p>{@link ServerClassLayout} places the server classes of different speeds (docs/models.md §10) among
 * the N servers and compares SED values exactly in integers; {@link LevelSets} then keeps each class's
 * servers in a block with its own counts.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core} only. This is the bottom of the simulator: it must not
 * depend on the other simulator packages (the dispatchers and engines use it), nor on any model.
 */
package org.mflb.simulation.state;
