package org.mflb.core.system;

import org.mflb.core.Require;

/**
 * The servers jobs are dispatched to, which fixes how fast a server (or pool) with {@code i} jobs
 * loses them (docs/models.md §1–2): a single-server FIFO queue completes jobs at rate 1 whatever its
 * length; a pool of unit-rate servers holding {@code i} tasks completes them at rate {@code i}; a
 * loss pool is such a pool that holds at most {@code C} tasks and rejects arrivals beyond.
 */
public final class ServerSystem {

    /** The three kinds of system. */
    public enum Kind {
        /** Single-server FIFO queues ("supermarket model"). */
        SUPERMARKET,
        /** Pools of infinitely many unit-rate servers. */
        POOLS,
        /** Pools with capacity {@code C}: arrivals to a full pool are lost. */
        LOSS
    }

    private static final ServerSystem SUPERMARKET = new ServerSystem(Kind.SUPERMARKET, Integer.MAX_VALUE);
    private static final ServerSystem POOLS = new ServerSystem(Kind.POOLS, Integer.MAX_VALUE);

    private final Kind kind;
    private final int capacity;

    private ServerSystem(Kind kind, int capacity) {
        this.kind = kind;
        this.capacity = capacity;
    }

    /** @return {@code N} single-server FIFO queues with unit-rate service */
    public static ServerSystem singleServerQueues() {
        return SUPERMARKET;
    }

    /** @return {@code n} pools of infinitely many unit-rate servers */
    public static ServerSystem infiniteServerPools() {
        return POOLS;
    }

    /** @return {@code n} pools of {@code capacity} unit-rate servers; arrivals to a full pool are lost */
    public static ServerSystem lossPools(int capacity) {
        return new ServerSystem(Kind.LOSS, Require.atLeast("capacity", capacity, 1));
    }

    /** @return the kind */
    public Kind kind() {
        return kind;
    }

    /** @return the capacity {@code C} of a loss pool, {@link Integer#MAX_VALUE} otherwise */
    public int capacity() {
        return capacity;
    }

    /** @return whether jobs can be lost (loss pools) */
    public boolean isLossy() {
        return kind == Kind.LOSS;
    }

    /**
     * @param i number of jobs, {@code i ≥ 1}
     * @return total service rate {@code μ_i} of a server (pool) holding {@code i} jobs: 1 for
     *         single-server queues, {@code i} for pools
     */
    public double departureRate(int i) {
        return kind == Kind.SUPERMARKET ? 1.0 : i;
    }

    /**
     * Checks that a fixed point exists for this load: single-server queues need {@code λ < 1}.
     *
     * @param lambda per-server arrival rate
     */
    public void requireStable(double lambda) {
        if (kind == Kind.SUPERMARKET && !(lambda < 1)) {
            throw org.mflb.core.MflbException.invalid("lambda", lambda,
                    "in (0, 1) for single-server queues (no steady state for lambda >= 1)");
        }
    }

    /** @return the name of the kind: supermarket, pools or loss */
    public String name() {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String toString() {
        return kind == Kind.LOSS ? "loss pools (C = " + capacity + ")" : kind == Kind.POOLS
                ? "infinite-server pools" : "single-server queues";
    }
}
