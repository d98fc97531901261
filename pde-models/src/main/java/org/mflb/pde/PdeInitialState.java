package org.mflb.pde;

import java.util.Arrays;

import org.mflb.core.MflbException;

/**
 * The state a PDE transient starts from: every server empty, or a tail vector
 * {@code (1, x_1, ..., x_k)} whose jobs in service either all start at age 0 ({@link Ages#FRESH})
 * or have the equilibrium age density {@code Ḡ(a)/E[S]} ({@link Ages#EQUILIBRIUM}, i.e. residual
 * service times distributed as in a renewal process in equilibrium). Command-line syntax:
 * {@code empty | tail:1,0.8,0.3 | tail-eq:1,0.8,0.3}.
 */
public final class PdeInitialState {

    /** Age of the jobs in service at the start. */
    public enum Ages {
        /** All jobs in service have age 0 (they have just started). */
        FRESH,
        /** Ages with the equilibrium density {@code Ḡ(a)/E[S]}. */
        EQUILIBRIUM
    }

    private static final PdeInitialState EMPTY = new PdeInitialState(new double[0], Ages.FRESH);

    private final double[] levels;
    private final Ages ages;

    private PdeInitialState(double[] levels, Ages ages) {
        this.levels = levels;
        this.ages = ages;
    }

    /** @return every server empty */
    public static PdeInitialState empty() {
        return EMPTY;
    }

    /**
     * @param ages how old the jobs in service are
     * @param tail {@code (x_0 = 1, x_1, ..., x_k)}, non-increasing in [0, 1]
     * @return that state
     */
    public static PdeInitialState tail(Ages ages, double... tail) {
        if (tail.length == 0 || tail[0] != 1.0) {
            throw MflbException.invalid("init", "tail:" + Arrays.toString(tail),
                    "a tail vector starting with x_0 = 1, e.g. tail:1,0.8,0.3");
        }
        for (int i = 1; i < tail.length; i++) {
            if (!(tail[i] >= 0 && tail[i] <= tail[i - 1])) {
                throw MflbException.invalid("init", "tail:" + Arrays.toString(tail),
                        "a non-increasing tail vector with entries in [0, 1] (entry " + i + " is " + tail[i] + ")");
            }
        }
        return new PdeInitialState(Arrays.copyOfRange(tail, 1, tail.length), ages);
    }

    /** Parses {@code empty | tail:1,x1,... | tail-eq:1,x1,...}. */
    public static PdeInitialState parse(String spec) {
        String s = spec.trim();
        if (s.equals("empty")) {
            return empty();
        }
        try {
            if (s.startsWith("tail:")) {
                return tail(Ages.FRESH, numbers(s.substring(5)));
            }
            if (s.startsWith("tail-eq:")) {
                return tail(Ages.EQUILIBRIUM, numbers(s.substring(8)));
            }
        } catch (NumberFormatException e) {
            // fall through to the common message
        }
        throw MflbException.invalid("init", spec,
                "one of empty, tail:1,x1,x2,... (jobs in service at age 0) or tail-eq:1,x1,... (equilibrium ages)");
    }

    private static double[] numbers(String list) {
        return Arrays.stream(list.split(",")).mapToDouble(v -> Double.parseDouble(v.trim())).toArray();
    }

    /** @return how old the jobs in service are */
    public Ages ages() {
        return ages;
    }

    /** @return number of levels occupied */
    public int occupiedLevels() {
        return levels.length;
    }

    /** @return the masses with exactly {@code k} jobs, {@code k = 1..occupiedLevels()} */
    double[] exactMasses() {
        double[] m = new double[levels.length];
        for (int k = 0; k < levels.length; k++) {
            m[k] = levels[k] - (k + 1 < levels.length ? levels[k + 1] : 0.0);
        }
        return m;
    }

    @Override
    public String toString() {
        if (levels.length == 0) {
            return "empty";
        }
        StringBuilder sb = new StringBuilder(ages == Ages.FRESH ? "tail:1" : "tail-eq:1");
        for (double v : levels) {
            sb.append(',').append(v);
        }
        return sb.toString();
    }
}
