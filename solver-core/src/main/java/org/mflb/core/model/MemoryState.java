package org.mflb.core.model;

import java.util.Arrays;
import java.util.Locale;

import org.mflb.core.MflbException;

/**
 * The state of {@code N} single-server queues under a dispatcher with memory (SQ(d) with memory,
 * {@code docs/models.md §1a}): the joint law of each server's queue length {@code Q} and of the
 * dispatcher's last observation {@code m ≥ Q} of it,
 *
 * <pre>
 *   y_{i,j} = fraction of servers with Q = i and m = j,   0 ≤ i ≤ j,   Σ y_{i,j} = 1.
 * </pre>
 *
 * The command-line form ({@link #parse}) lists the pairs with positive share,
 * {@code memory:Q/m=share,...}; e.g. {@code memory:0/3=1} (every server idle, believed to hold 3
 * jobs: stale memory) or {@code memory:0/0=0.5,2/2=0.5}. A plain {@link InitialState} gives the state
 * of a dispatcher that knows every queue ({@code m = Q}, {@link #exact}). Immutable, validated when
 * built: a bad state is an {@link MflbException} naming {@code init}.
 */
public final class MemoryState {

    /** The prefix of the command-line form. */
    public static final String PREFIX = "memory:";

    /** The form {@link #parse} accepts, as its error messages state it. */
    public static final String FORM = "memory:Q/m=share,... with integers 0 <= Q <= m and shares summing to 1"
            + " (e.g. memory:0/3=1)";

    /** Shares must sum to 1 within this. */
    private static final double SUM_TOLERANCE = 1e-9;

    /** {@code y[j][i] = y_{i,j}}, {@code i = 0..j}, {@code j = 0..maxObservation}. */
    private final double[][] y;

    private MemoryState(double[][] y) {
        this.y = y;
    }

    /**
     * @param shares {@code shares[j][i] = y_{i,j}} for {@code 0 ≤ i ≤ j} (rows of length {@code j+1};
     *        copied), entries {@code ≥ 0} summing to 1
     * @return that state
     */
    public static MemoryState of(double[][] shares) {
        int top = -1;
        double sum = 0;
        for (int j = 0; j < shares.length; j++) {
            if (shares[j].length != j + 1) {
                throw MflbException.invalid(InitialState.PARAMETER, "row m = " + j + " of length " + shares[j].length,
                        "rows of length m + 1 (queue lengths 0..m)");
            }
            for (int i = 0; i <= j; i++) {
                double v = shares[j][i];
                if (!(v >= 0 && v <= 1)) {
                    throw MflbException.invalid(InitialState.PARAMETER, "share of Q = " + i + ", m = " + j + " = " + v,
                            "in [0, 1]");
                }
                if (v > 0) {
                    top = j;
                }
                sum += v;
            }
        }
        if (Math.abs(sum - 1) > SUM_TOLERANCE) {
            throw MflbException.invalid(InitialState.PARAMETER, "shares summing to " + sum, "shares summing to 1");
        }
        double[][] copy = new double[top + 1][];
        for (int j = 0; j <= top; j++) {
            copy[j] = shares[j].clone();
        }
        return new MemoryState(copy);
    }

    /**
     * @param state a tail vector (not the fixed point)
     * @return the state whose observations are the true queue lengths, {@code y_{i,i} = x_i − x_{i+1}}
     */
    public static MemoryState exact(InitialState state) {
        if (state.kind() == InitialState.Kind.FIXED_POINT) {
            throw new IllegalStateException("the fixed point depends on the model: the model must resolve it");
        }
        int m = state.occupiedLevels();
        double[] x = state.levels(m + 1);
        double[][] shares = new double[m + 1][];
        for (int j = 0; j <= m; j++) {
            shares[j] = new double[j + 1];
            shares[j][j] = (j == 0 ? 1.0 : x[j - 1]) - x[j];
        }
        return new MemoryState(shares);
    }

    /** @return whether {@code spec} is written in the {@code memory:} form */
    public static boolean isMemoryForm(String spec) {
        return spec != null && spec.trim().startsWith(PREFIX);
    }

    /**
     * Parses {@code memory:Q/m=share,...}.
     *
     * @param spec the text
     * @return the state
     * @throws MflbException ({@code init}) when the text is not of that form or the state is invalid
     */
    public static MemoryState parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (!s.startsWith(PREFIX)) {
            throw MflbException.invalid(InitialState.PARAMETER, spec, FORM);
        }
        String[] parts = s.substring(PREFIX.length()).split(",");
        int[] q = new int[parts.length];
        int[] m = new int[parts.length];
        double[] share = new double[parts.length];
        int top = 0;
        for (int k = 0; k < parts.length; k++) {
            String p = parts[k].trim();
            int slash = p.indexOf('/');
            int eq = p.indexOf('=');
            try {
                if (slash < 0 || eq < slash) {
                    throw new NumberFormatException(p);
                }
                q[k] = Integer.parseInt(p.substring(0, slash).trim());
                m[k] = Integer.parseInt(p.substring(slash + 1, eq).trim());
                share[k] = Double.parseDouble(p.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw MflbException.invalid(InitialState.PARAMETER, spec, FORM);
            }
            if (q[k] < 0 || m[k] < q[k] || m[k] > 100_000) {
                throw MflbException.invalid(InitialState.PARAMETER, spec, FORM + " (pair " + p + ")");
            }
            top = Math.max(top, m[k]);
        }
        double[][] shares = new double[top + 1][];
        for (int j = 0; j <= top; j++) {
            shares[j] = new double[j + 1];
        }
        for (int k = 0; k < parts.length; k++) {
            shares[m[k]][q[k]] += share[k];
        }
        try {
            return of(shares);
        } catch (MflbException e) {
            throw MflbException.invalid(InitialState.PARAMETER, spec, FORM);
        }
    }

    /** @return the largest observation with positive share ({@code −1} never: some share is positive) */
    public int maxObservation() {
        return y.length - 1;
    }

    /** @return {@code y_{i,j}} (0 outside the state's range) */
    public double share(int queue, int observation) {
        if (observation < 0 || observation >= y.length || queue < 0 || queue > observation) {
            return 0.0;
        }
        return y[observation][queue];
    }

    /** @return the queue lengths' tail vector {@code (x_1..x_m)}, {@code m} the largest observation */
    public double[] queueLevels() {
        int top = maxObservation();
        double[] z = new double[top + 1];
        for (int j = 0; j <= top; j++) {
            for (int i = 0; i <= j; i++) {
                z[i] += y[j][i];
            }
        }
        double[] x = new double[top];
        double above = 0;
        for (int i = top; i >= 1; i--) {
            above += z[i];
            x[i - 1] = above;
        }
        return x;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemoryState s && Arrays.deepEquals(y, s.y);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(y);
    }

    /** @return the state in the command-line form, e.g. {@code memory:0/3=1} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(PREFIX);
        boolean first = true;
        for (int j = 0; j < y.length; j++) {
            for (int i = 0; i <= j; i++) {
                if (y[j][i] > 0) {
                    sb.append(first ? "" : ",").append(i).append('/').append(j).append('=')
                            .append(String.format(Locale.ROOT, "%s", y[j][i]));
                    first = false;
                }
            }
        }
        return sb.toString();
    }
}
