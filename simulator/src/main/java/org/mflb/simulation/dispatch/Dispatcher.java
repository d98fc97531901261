package org.mflb.simulation.dispatch;

import java.util.List;

/**
 * The dispatcher's algorithm: where each arriving job goes. One instance per replication, created by
 * {@link Dispatchers#create}; it reads the true occupancy through an
 * {@link org.mflb.simulation.state.Occupancy} view and draws from the replication's stream.
 *
 * <p>The engine calls, for every event:
 * <ul>
 * <li>{@link #select} at each arrival (the system may still block the job: a loss pool at capacity);</li>
 * <li>{@link #onArrival} after a job joined a server, {@link #onBlocked} when it was lost;</li>
 * <li>{@link #onDeparture} after a job left.</li>
 * </ul>
 * The hooks let token-based policies ([GABL]) keep their own picture of the servers, updated
 * only by the messages the servers would send; policies that read the occupancy directly ignore them.
 * Measurement hooks ({@link #startMeasurement}, {@link #endUnit}, {@link #jumps}) let a policy report
 * its own statistics (messages per task, the threshold trace ℓ(t)) alongside the simulator's.
 *
 * <p>An abstract class rather than an interface: the hooks' empty defaults cost nothing once
 * inlined, and the hot loop makes one virtual call per arrival.
 */
public abstract class Dispatcher {

    /** Constructor for subclasses. */
    protected Dispatcher() {
    }

    /**
     * @param t time of the arrival
     * @return the server (pool) the arriving job is sent to, in {@code [0, N)}
     */
    public abstract int select(double t);

    /**
     * A job joined server {@code s}, which now holds {@code newLevel} jobs.
     *
     * @param s server
     * @param newLevel its number of jobs after the arrival
     * @param t time
     */
    public void onArrival(int s, int newLevel, double t) {
    }

    /**
     * A job sent to server {@code s} was lost (loss pool at capacity).
     *
     * @param s server
     * @param t time
     */
    public void onBlocked(int s, double t) {
    }

    /**
     * A job left server {@code s}, which now holds {@code newLevel} jobs.
     *
     * @param s server
     * @param newLevel its number of jobs after the departure
     * @param t time
     */
    public void onDeparture(int s, int newLevel, double t) {
    }

    /** The warm-up ended at time {@code t}: policy statistics start from here. */
    public void startMeasurement(double t) {
    }

    /**
     * A unit of observation (a batch, or the whole measured window of a replication) ends at
     * {@code t}: put this unit's policy statistics into {@code out} and restart them.
     *
     * @param t end of the unit
     * @param arrivals number of arrivals in the unit
     * @param out sink of named statistics (modified)
     */
    public void endUnit(double t, long arrivals, PolicyStatistics out) {
    }

    /** @return the trace of policy level changes over the whole replication (e.g. ℓ(t)); empty by default */
    public List<LevelJump> jumps() {
        return List.of();
    }
}
