package org.mflb.fluid.memory;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.model.MemoryState;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.Truncation;

/**
 * The fluid limit of SQ(d) with memory in single-server queues ({@code docs/models.md §1a}): a
 * non-smooth drift on the (queue, observation) state {@code y_{i,j}} ({@link MemoryDrift}), integrated
 * piece by piece with its two switches located exactly ({@link MemorySolver}), and the fixed point of
 * the tagged-server chain ({@link MemoryFixedPoint}). Immutable.
 * <pre>{@code
 *   MemoryModel m = MemoryModel.of(ServerSystem.singleServerQueues(), MemoryPolicy.of(2), 0.9);
 *   MemoryFixedPoint pi = m.fixedPoint();            // x = (0.9, 0.700351, 0.121057), L = 2
 *   MemoryTransient x = m.transientFrom(MemoryState.parse("memory:0/3=1"), TimeGrid.uniform(50, 0.5));
 * }</pre>
 * The truncation is the number {@code K} of observation levels kept; automatic by default (enough for
 * the initial state and the levels the run reaches: the state then lives on the levels kept, with no
 * mass cut off).
 */
public final class MemoryModel {

    /** Observation levels beyond which automatic truncation gives up (the state has about K²/2 coordinates). */
    static final int MAX_LEVELS = 1024;

    private final MemoryPolicy policy;
    private final ArrivalRate lambda;
    private final Truncation truncation;
    private final IntegratorSettings integrator;

    private MemoryModel(MemoryPolicy policy, ArrivalRate lambda, Truncation truncation, IntegratorSettings integrator) {
        this.policy = policy;
        this.lambda = lambda;
        this.truncation = truncation;
        this.integrator = integrator;
    }

    /** @return the model with constant {@code λ > 0} */
    public static MemoryModel of(ServerSystem system, MemoryPolicy policy, double lambda) {
        Require.positive("lambda", lambda);
        return of(system, policy, ArrivalRate.constant(lambda));
    }

    /** @return the model with arrival rate {@code λ(t)} */
    public static MemoryModel of(ServerSystem system, MemoryPolicy policy, ArrivalRate lambda) {
        if (system.kind() != ServerSystem.Kind.SUPERMARKET) {
            throw MflbException.invalid("system", system.name(), "supermarket for policy memory");
        }
        return new MemoryModel(policy, lambda, Truncation.DEFAULT, IntegratorSettings.DEFAULT);
    }

    /** @return a copy with another truncation (a fixed one keeps exactly {@code K} observation levels) */
    public MemoryModel withTruncation(Truncation t) {
        return new MemoryModel(policy, lambda, t, integrator);
    }

    /** @return a copy with other integrator tolerances */
    public MemoryModel withIntegratorSettings(IntegratorSettings settings) {
        return new MemoryModel(policy, lambda, truncation, settings);
    }

    /** @return a copy with another arrival rate */
    public MemoryModel withArrivalRate(ArrivalRate rate) {
        return new MemoryModel(policy, rate, truncation, integrator);
    }

    /** @return the policy */
    public MemoryPolicy policy() {
        return policy;
    }

    /** @return the arrival rate */
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    /** @return the servers: single-server queues */
    public ServerSystem system() {
        return ServerSystem.singleServerQueues();
    }

    /** @return the fixed point of the tagged-server chain ({@code λ} constant, {@code < 1}) */
    public MemoryFixedPoint fixedPoint() {
        if (!lambda.isConstant()) {
            throw MflbException.invalid("lambda", "a time-varying profile", "a constant rate for a fixed point");
        }
        double rate = lambda.at(0);
        system().requireStable(rate);
        int level = policy.queueBound(rate);
        if (!truncation.isAutomatic() && truncation.levels() < level) {
            throw MflbException.invalid("truncation", truncation.levels(), ">= " + level
                    + " (the fixed point occupies observation levels up to L + 1 = " + level + ")");
        }
        return MemoryFixedPoint.of(policy, rate, truncation.isAutomatic() ? level : truncation.levels());
    }

    /** @return the transient from a tail vector, observations equal to the true queue lengths (or the fixed point) */
    public MemoryTransient transientFrom(InitialState initial, TimeGrid grid) {
        if (initial.kind() == InitialState.Kind.FIXED_POINT) {
            MemoryFixedPoint fp = withArrivalRate(ArrivalRate.constant(lambda.at(grid.start()))).fixedPoint();
            return transientFrom(MemoryState.of(fp.state()), grid);
        }
        return transientFrom(MemoryState.exact(initial), grid);
    }

    /** @return the transient from a (queue, observation) state, e.g. stale memory {@code memory:0/3=1} */
    public MemoryTransient transientFrom(MemoryState initial, TimeGrid grid) {
        int occupied = initial.maxObservation();
        int levels;
        if (!truncation.isAutomatic()) {
            levels = truncation.levels();
            if (occupied > levels) {
                throw MflbException.invalid("truncation", levels, ">= the largest observation of the initial state ("
                        + occupied + ")");
            }
        } else {
            double top = lambda.supremum(grid.start(), grid.end());
            int bound = top < 1 ? policy.queueBound(top) : 8;
            // above λ = 1 the queues (and the active level) grow like (λ − 1)t
            double growth = top > 1 ? 1.25 * (top - 1) * (grid.end() - grid.start()) : 0;
            if (Math.max(occupied, bound) + 4 + growth > MAX_LEVELS) {
                throw new MflbException(ErrorKind.TRUNCATION, "t-end", "the queues grow like (lambda - 1) t: this run"
                        + " needs about " + (long) Math.ceil(Math.max(occupied, bound) + 4 + growth)
                        + " observation levels, more than " + MAX_LEVELS + "; shorten the horizon or lower lambda");
            }
            levels = Math.max(occupied, bound) + 4 + (int) Math.ceil(growth);
        }
        while (true) {
            MemoryLattice lattice = new MemoryLattice(levels);
            try {
                MemorySolver.Solution s = new MemorySolver(integrator, lattice, policy.d())
                        .solve(lambda, lattice.flatten(initial), grid);
                return new MemoryTransient(this, grid, lattice, s);
            } catch (MflbException e) {
                if (e.kind() != ErrorKind.TRUNCATION || !truncation.isAutomatic() || levels >= MAX_LEVELS) {
                    throw e;
                }
            }
            levels = Math.min(2 * levels, MAX_LEVELS);
        }
    }

    @Override
    public String toString() {
        return policy.name() + " on " + system();
    }
}
