package org.mflb.fluid;

import java.util.Arrays;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The state a transient starts from: every server empty, the fixed point, a given tail vector, or
 * every server holding {@code k} jobs. The command-line syntax is
 * {@code empty | fixed-point | tail:1,0.8,0.3 | all:K} (a tail lists {@code x_0 = 1, x_1, ...}).
 */
public final class InitialState {

    /** The kinds of initial state. */
    public enum Kind {
        /** {@code x = 0}. */
        EMPTY,
        /** The fixed point of the model at {@code λ(0)}. */
        FIXED_POINT,
        /** A given tail vector. */
        TAIL,
        /** Every server (pool) holding {@code k} jobs: {@code x_i = 1} for {@code i ≤ k}. */
        ALL
    }

    private static final InitialState EMPTY = new InitialState(Kind.EMPTY, new double[0]);
    private static final InitialState FIXED_POINT = new InitialState(Kind.FIXED_POINT, new double[0]);

    private final Kind kind;
    /** x_1..x_k for TAIL and ALL. */
    private final double[] levels;

    private InitialState(Kind kind, double[] levels) {
        this.kind = kind;
        this.levels = levels;
    }

    /** @return every server empty */
    public static InitialState empty() {
        return EMPTY;
    }

    /** @return the fixed point */
    public static InitialState fixedPoint() {
        return FIXED_POINT;
    }

    /**
     * @param tail {@code (x_0 = 1, x_1, ..., x_k)}, non-increasing, in [0, 1]
     * @return that tail vector
     */
    public static InitialState tail(double... tail) {
        if (tail.length == 0 || tail[0] != 1.0) {
            throw MflbException.invalid("init", "tail:" + Arrays.toString(tail),
                    "a tail vector starting with x_0 = 1, e.g. tail:1,0.8,0.3");
        }
        for (int i = 1; i < tail.length; i++) {
            if (!(tail[i] >= 0 && tail[i] <= tail[i - 1])) {
                throw MflbException.invalid("init", "tail:" + format(tail),
                        "a non-increasing tail vector with entries in [0, 1] (entry " + i + " is " + tail[i] + ")");
            }
        }
        return new InitialState(Kind.TAIL, Arrays.copyOfRange(tail, 1, tail.length));
    }

    /** @return every server (pool) holding exactly {@code k ≥ 0} jobs */
    public static InitialState all(int k) {
        Require.atLeast("init all:K", k, 0);
        double[] x = new double[k];
        Arrays.fill(x, 1.0);
        return new InitialState(Kind.ALL, x);
    }

    /**
     * Parses {@code empty | fixed-point | tail:1,0.8,0.3 | all:K}.
     *
     * @param spec the text
     * @return the initial state
     */
    public static InitialState parse(String spec) {
        String s = spec.trim();
        if (s.equals("empty")) {
            return empty();
        }
        if (s.equals("fixed-point")) {
            return fixedPoint();
        }
        try {
            if (s.startsWith("tail:")) {
                return tail(Arrays.stream(s.substring(5).split(",")).mapToDouble(v -> Double.parseDouble(v.trim()))
                        .toArray());
            }
            if (s.startsWith("all:")) {
                return all(Integer.parseInt(s.substring(4).trim()));
            }
        } catch (NumberFormatException e) {
            // fall through to the common message
        }
        throw MflbException.invalid("init", spec, "one of empty, fixed-point, tail:1,x1,x2,... or all:K");
    }

    /** @return the kind */
    public Kind kind() {
        return kind;
    }

    /** @return number of levels the state occupies (0 for empty and fixed point) */
    public int occupiedLevels() {
        return levels.length;
    }

    /**
     * @param k number of levels
     * @return {@code (x_1, ..., x_k)} of a TAIL, ALL or EMPTY state, zero-padded or cut
     */
    public double[] levels(int k) {
        if (kind == Kind.FIXED_POINT) {
            throw new IllegalStateException("the fixed point depends on the model");
        }
        return TailVectors.resize(levels, k);
    }

    private static String format(double[] tail) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tail.length; i++) {
            sb.append(i == 0 ? "" : ",").append(tail[i]);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return switch (kind) {
            case EMPTY -> "empty";
            case FIXED_POINT -> "fixed-point";
            case ALL -> "all:" + levels.length;
            case TAIL -> "tail:" + format(TailVectors.withLevelZero(levels));
        };
    }
}
