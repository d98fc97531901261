package org.mflb.core.model;

import java.util.Arrays;

import org.mflb.core.MflbException;

/**
 * The state of the {@code N} servers (pools) at the start of a transient, as a <b>tail vector</b>
 * (docs/models.md §0):
 *
 * <pre>
 *   x_i = fraction of servers with at least i jobs,   x_0 = 1 ≥ x_1 ≥ x_2 ≥ ... ≥ 0,
 * </pre>
 *
 * with finitely many non-zero entries {@code x_1, ..., x_m} ({@code m} = {@link #occupiedLevels()}).
 * Four kinds, with the command-line syntax every command shares ({@link #parse(String)}):
 * <ul>
 * <li>{@code empty}: {@code x_i = 0} for {@code i ≥ 1};</li>
 * <li>{@code tail:1,x1,x2,...}: the given tail vector, {@code x_0 = 1} written first;</li>
 * <li>{@code all:K}: every server holds {@code K} jobs, {@code x_i = 1} for {@code i ≤ K};</li>
 * <li>{@code fixed-point}: the fixed point of the model at {@code λ(t_0)}. It is not a vector until a
 * model is given: only a layer that has a fixed point (the fluid models) accepts it.</li>
 * </ul>
 * Each layer turns this one description into what it integrates or simulates: the fluid models the
 * tail vector of their truncation ({@link #levels(int)}), the simulator an integer number of jobs per
 * server (its own rounding rule), the PDE masses with ages (it adds the age distribution). Instances
 * are immutable and validated when built: a bad state is an {@link MflbException} naming {@code init}.
 */
public final class InitialState {

    /** The kinds of initial state. */
    public enum Kind {
        /** Every server empty: {@code x = 0}. */
        EMPTY,
        /** The fixed point of the model at {@code λ(t_0)} (the model supplies the vector). */
        FIXED_POINT,
        /** A given tail vector. */
        TAIL,
        /** Every server holding {@code K} jobs: {@code x_i = 1} for {@code i ≤ K}. */
        ALL
    }

    /** The name of the parameter in every message (the command-line option {@code --init}). */
    public static final String PARAMETER = "init";

    /** The forms {@link #parse(String)} accepts, as listed in its error message. */
    public static final String FORMS = "one of empty, fixed-point, tail:1,x1,x2,... or all:K";

    private static final String TAIL_PREFIX = "tail:";
    private static final String ALL_PREFIX = "all:";
    private static final InitialState EMPTY = new InitialState(Kind.EMPTY, new double[0]);
    private static final InitialState FIXED_POINT = new InitialState(Kind.FIXED_POINT, new double[0]);

    private final Kind kind;
    /** {@code x_1, ..., x_m} for TAIL and ALL (the implicit {@code x_0 = 1} is not stored); empty otherwise. */
    private final double[] levels;

    private InitialState(Kind kind, double[] levels) {
        this.kind = kind;
        this.levels = levels;
    }

    /** @return every server empty */
    public static InitialState empty() {
        return EMPTY;
    }

    /** @return the fixed point of the model the state is given to */
    public static InitialState fixedPoint() {
        return FIXED_POINT;
    }

    /**
     * @param tail {@code (x_0 = 1, x_1, ..., x_m)}, non-increasing, entries in [0, 1] (copied)
     * @return that tail vector
     */
    public static InitialState tail(double... tail) {
        return validatedTail(tail == null ? new double[0] : tail, TAIL_PREFIX + (tail == null ? "" : format(tail)));
    }

    /**
     * @param k jobs per server (pool), {@code ≥ 0}
     * @return every server holding exactly {@code k} jobs
     */
    public static InitialState all(int k) {
        if (k < 0) {
            throw MflbException.invalid(PARAMETER, ALL_PREFIX + k, "all:K with an integer K >= 0");
        }
        double[] x = new double[k];
        Arrays.fill(x, 1.0);
        return new InitialState(Kind.ALL, x);
    }

    /**
     * Parses {@code empty | fixed-point | tail:1,x1,x2,... | all:K} (surrounding blanks ignored).
     *
     * @param spec the text, e.g. {@code tail:1,0.8,0.3}
     * @return the initial state
     * @throws MflbException ({@code init}) when the text is none of the forms or the state is invalid
     */
    public static InitialState parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.equals("empty")) {
            return empty();
        }
        if (s.equals("fixed-point")) {
            return fixedPoint();
        }
        if (s.startsWith(TAIL_PREFIX)) {
            return parseTail(spec, TAIL_PREFIX);
        }
        if (s.startsWith(ALL_PREFIX)) {
            try {
                return all(Integer.parseInt(s.substring(ALL_PREFIX.length()).trim()));
            } catch (NumberFormatException e) {
                throw MflbException.invalid(PARAMETER, spec, "all:K with an integer K >= 0");
            }
        }
        throw MflbException.invalid(PARAMETER, spec, FORMS);
    }

    /**
     * Parses a tail vector written {@code prefix} followed by {@code 1,x1,x2,...}: the {@code tail:}
     * form of {@link #parse(String)}, open to a layer that marks a tail vector with its own prefix
     * (the PDE's {@code tail-eq:}, which adds equilibrium ages). Messages quote {@code spec} as written.
     *
     * @param spec the text, starting (after blanks) with {@code prefix}
     * @param prefix the form's prefix, e.g. {@code tail:}
     * @return the tail vector
     */
    public static InitialState parseTail(String spec, String prefix) {
        String s = spec.trim();
        if (!s.startsWith(prefix)) {
            throw MflbException.invalid(PARAMETER, spec, prefix + "1,x1,x2,...");
        }
        String[] parts = s.substring(prefix.length()).split(",");
        double[] x = new double[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                x[i] = Double.parseDouble(parts[i].trim());
            }
        } catch (NumberFormatException e) {
            throw MflbException.invalid(PARAMETER, spec,
                    prefix + " followed by the numbers 1,x1,x2,... (e.g. " + prefix + "1,0.8,0.3)");
        }
        return validatedTail(x, s);
    }

    /** Checks {@code x_0 = 1 ≥ x_1 ≥ ... ≥ 0}; messages quote {@code shown}. */
    private static InitialState validatedTail(double[] tail, String shown) {
        if (tail.length == 0 || tail[0] != 1.0) {
            throw MflbException.invalid(PARAMETER, shown,
                    "a tail vector starting with x_0 = 1 (every server has >= 0 jobs), e.g. tail:1,0.8,0.3");
        }
        for (int i = 1; i < tail.length; i++) {
            double v = tail[i];
            if (!(v >= 0 && v <= tail[i - 1])) {
                String why = v >= 0 && v <= 1 ? "x_" + i + " = " + v + " > x_" + (i - 1) + " = " + tail[i - 1]
                        : "x_" + i + " = " + v;
                throw MflbException.invalid(PARAMETER, shown,
                        "a non-increasing tail vector with entries in [0, 1] (" + why + ")");
            }
        }
        return new InitialState(Kind.TAIL, Arrays.copyOfRange(tail, 1, tail.length));
    }

    /** @return the kind */
    public Kind kind() {
        return kind;
    }

    /** @return {@code m}: the number of levels {@code i ≥ 1} the state gives (0 for empty and the fixed point) */
    public int occupiedLevels() {
        return levels.length;
    }

    /**
     * The tail vector of a truncation to levels {@code 1..k}: {@code (x_1, ..., x_k)}, zero beyond
     * {@link #occupiedLevels()}. A truncation too small for the state is refused rather than cut, so
     * that no mass is silently dropped (docs/models.md §0).
     *
     * @param k levels kept, {@code ≥ occupiedLevels()}
     * @return a new array of length {@code k}
     * @throws IllegalStateException for the fixed point, which only a model can give
     */
    public double[] levels(int k) {
        if (kind == Kind.FIXED_POINT) {
            throw new IllegalStateException("the fixed point depends on the model: the model must resolve it");
        }
        if (k < levels.length) {
            throw MflbException.invalid("levels", k, ">= the levels occupied by the initial state (" + levels.length + ")");
        }
        return Arrays.copyOf(levels, k);
    }

    private static String format(double[] tail) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tail.length; i++) {
            sb.append(i == 0 ? "" : ",").append(tail[i]);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InitialState s && kind == s.kind && Arrays.equals(levels, s.levels);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + Arrays.hashCode(levels);
    }

    /** @return the state in the command-line syntax, e.g. {@code tail:1.0,0.8,0.3} or {@code all:3} */
    @Override
    public String toString() {
        return switch (kind) {
            case EMPTY -> "empty";
            case FIXED_POINT -> "fixed-point";
            case ALL -> ALL_PREFIX + levels.length;
            case TAIL -> {
                StringBuilder sb = new StringBuilder(TAIL_PREFIX).append(1.0);
                for (double v : levels) {
                    sb.append(',').append(v);
                }
                yield sb.toString();
            }
        };
    }
}
