package org.mflb.simulation;

import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.system.LoadBalancingModel;

/**
 * Mutable builder of a {@link SimulationScenario}: its model, run control and observation. The model ({@link #model(LoadBalancingModel)}), {@code servers} and {@code tEnd}
 * are required. Defaults: empty initial state, warm-up {@code tEnd/10} for steady-state runs and 0
 * with a time grid, one replication, seed 1, as many threads as processors, engine auto, no forced
 * event calendar; no time grid, no response-time percentiles, no covariance, 20 batches.
 */
public final class ScenarioBuilder {
    LoadBalancingModel model;
    Integer servers;
    double tEnd = Double.NaN;
    double warmup = Double.NaN;
    int replications = 1;
    long seed = 1;
    int threads = Runtime.getRuntime().availableProcessors();
    Engine engine = Engine.AUTO;
    boolean eventCalendar;
    InitialState initialState = InitialState.empty();
    MemoryState initialMemory;
    double dt;
    double[] percentiles = new double[0];
    int covarianceLevels;
    int batches = Observation.defaults().batches();

    ScenarioBuilder() {
    }

    /** @param v the model simulated: system, policy (with its parameters), arrival rate and service law */
    public ScenarioBuilder model(LoadBalancingModel v) {
        model = v;
        return this;
    }

    /** @param v number of servers (pools) {@code N} */
    public ScenarioBuilder servers(int v) {
        servers = v;
        return this;
    }

    /** @param v horizon {@code T} */
    public ScenarioBuilder tEnd(double v) {
        tEnd = v;
        return this;
    }

    /** @param v warm-up time ({@code NaN}: the default) */
    public ScenarioBuilder warmup(double v) {
        warmup = v;
        return this;
    }

    /** @param v number of replications */
    public ScenarioBuilder replications(int v) {
        replications = v;
        return this;
    }

    /** @param v seed */
    public ScenarioBuilder seed(long v) {
        seed = v;
        return this;
    }

    /** @param v worker threads */
    public ScenarioBuilder threads(int v) {
        threads = v;
        return this;
    }

    /** @param v the engine ({@link Engine#AUTO}: the occupancy engine where it is exact) */
    public ScenarioBuilder engine(Engine v) {
        engine = v;
        return this;
    }

    /** @param v force the event-calendar engine even for exponential service (for cross-checks) */
    public ScenarioBuilder eventCalendar(boolean v) {
        eventCalendar = v;
        return this;
    }

    /** @param v initial state: empty, a tail vector or all:K (rounded by {@link RunControl#initialLevels()}) */
    public ScenarioBuilder initialState(InitialState v) {
        initialState = v;
        return this;
    }

    /**
     * @param v the (queue, observation) state SQ(d) with memory starts from, e.g. stale memory
     *        {@code memory:0/3=1} (replaces {@link #initialState}; {@code null}: none)
     */
    public ScenarioBuilder initialMemory(MemoryState v) {
        initialMemory = v;
        return this;
    }

    /** @param v grid step of the transient estimates (0: none) */
    public ScenarioBuilder dt(double v) {
        dt = v;
        return this;
    }

    /** @param v response-time percentiles in (0, 100) to estimate (single-server queues) */
    public ScenarioBuilder percentiles(double... v) {
        percentiles = v.clone();
        return this;
    }

    /** @param v number of tail coordinates in the covariance estimate (0: none) */
    public ScenarioBuilder covarianceLevels(int v) {
        covarianceLevels = v;
        return this;
    }

    /** @param v number of batches for batch means with one replication */
    public ScenarioBuilder batches(int v) {
        batches = v;
        return this;
    }

    /** Sets every part of the observation at once. */
    ScenarioBuilder observation(Observation v) {
        dt = v.dt();
        percentiles = v.percentiles();
        covarianceLevels = v.covarianceLevels();
        batches = v.batches();
        return this;
    }

    /** @return the validated scenario */
    public SimulationScenario build() {
        SimulationScenario.requireModel(model);
        if (servers == null) {
            throw MflbException.missing("n", "(the number of servers N)");
        }
        if (Double.isNaN(tEnd)) {
            throw MflbException.missing("t-end", "(the simulated horizon)");
        }
        RunControl run = new RunControl(servers, tEnd, warmup, replications, seed, threads, engine, eventCalendar,
                initialState, initialMemory);
        return new SimulationScenario(model, run, new Observation(dt, percentiles, covarianceLevels, batches));
    }
}
