package org.mflb.simulation.dispatch;

/**
 * A set of pools holding one kind of token at the dispatcher ([GABL], Section 2): the members
 * in an index array with swap-remove, and each pool's position in it, so that adding a token,
 * discarding a given pool's token and drawing a uniformly random token all take O(1) time and no
 * allocation.
 *
 * <p>Mutable; one instance belongs to one dispatcher.
 */
final class TokenSet {

    private static final int ABSENT = -1;

    /** {@code members[0..size)}: the pools holding a token, in no particular order. */
    private final int[] members;
    /** {@code position[p]}: index of pool {@code p} in {@code members}, or {@link #ABSENT}. */
    private final int[] position;
    private int size;

    /** @param n number of pools */
    TokenSet(int n) {
        members = new int[n];
        position = new int[n];
        java.util.Arrays.fill(position, ABSENT);
    }

    /** @return the number of tokens */
    int size() {
        return size;
    }

    /** @return whether pool {@code p} holds a token */
    boolean contains(int p) {
        return position[p] != ABSENT;
    }

    /** Gives pool {@code p} a token; it must not hold one. */
    void add(int p) {
        position[p] = size;
        members[size++] = p;
    }

    /** Discards the token of pool {@code p}; it must hold one. */
    void remove(int p) {
        int i = position[p];
        int last = members[--size];
        members[i] = last;
        position[last] = i;
        position[p] = ABSENT;
    }

    /**
     * Discards the token at index {@code i} of the member array.
     *
     * @return the pool that held it
     */
    int removeAt(int i) {
        int p = members[i];
        int last = members[--size];
        members[i] = last;
        position[last] = i;
        position[p] = ABSENT;
        return p;
    }
}
