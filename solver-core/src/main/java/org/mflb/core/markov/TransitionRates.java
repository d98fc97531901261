package org.mflb.core.markov;

import java.util.Arrays;

import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The off-diagonal rates {@code q(i, j) ≥ 0}, {@code i ≠ j}, of a continuous-time Markov chain on
 * the states {@code 0 .. size − 1}, with the total outflow {@code q_i = Σ_j q(i, j)} of each state
 * (the generator is {@code Q = (q(i, j)) − diag(q_i)}). Stored by target state (compressed rows of
 * {@code Qᵀ}), the layout in which one Gauss–Seidel update of the balance equation
 * <pre>
 *   π_j q_j = Σ_i π_i q(i, j)
 * </pre>
 * reads the inflow of {@code j} contiguously. Immutable; made by a {@link Builder}.
 */
public final class TransitionRates {

    private final int size;
    /** Incoming transitions of state j at {@code start[j] .. start[j+1] − 1}. */
    private final int[] start;
    private final int[] source;
    private final double[] rate;
    private final double[] outflow;

    private TransitionRates(int size, int[] start, int[] source, double[] rate, double[] outflow) {
        this.size = size;
        this.start = start;
        this.source = source;
        this.rate = rate;
        this.outflow = outflow;
    }

    /**
     * @param size number of states {@code ≥ 1}
     * @return an empty builder
     */
    public static Builder builder(int size) {
        return new Builder(Require.atLeast("size", size, 1));
    }

    /** @return the number of states */
    public int size() {
        return size;
    }

    /** @return the number of stored transitions (pairs added several times count once per call) */
    public int transitions() {
        return source.length;
    }

    /** @return the total outflow rate {@code q_j} of state {@code j} */
    public double outflow(int j) {
        return outflow[j];
    }

    /** @return {@code Σ_i π_i q(i, j)}, the probability flow into state {@code j} under {@code π} */
    public double inflow(double[] pi, int j) {
        double in = 0;
        for (int e = start[j]; e < start[j + 1]; e++) {
            in += pi[source[e]] * rate[e];
        }
        return in;
    }

    /**
     * The relative residual of the balance equations,
     * <pre>
     *   ρ(π) = max_j |(πQ)_j| / max_j π_j q_j,      (πQ)_j = Σ_i π_i q(i, j) − π_j q_j,
     * </pre>
     * scale-free in {@code π} and in the time unit; 0 for the exact stationary law.
     *
     * @param pi a vector of length {@link #size()}
     * @return {@code ρ(π)} (0 for a chain without transitions)
     */
    public double relativeResidual(double[] pi) {
        if (pi.length != size) {
            throw new IllegalArgumentException("pi has length " + pi.length + ", the chain " + size + " states");
        }
        double worst = 0;
        double scale = 0;
        for (int j = 0; j < size; j++) {
            double flow = pi[j] * outflow[j];
            worst = Math.max(worst, Math.abs(inflow(pi, j) - flow));
            scale = Math.max(scale, Math.abs(flow));
        }
        return scale > 0 ? worst / scale : worst == 0 ? 0 : Double.POSITIVE_INFINITY;
    }

    /** Collects rates; {@link #rate} may be called several times for one pair (the rates add up). */
    public static final class Builder {

        private final int size;
        private int count;
        private int[] from = new int[16];
        private int[] to = new int[16];
        private double[] rates = new double[16];

        private Builder(int size) {
            this.size = size;
        }

        /**
         * Adds {@code q} to {@code q(from, to)}.
         *
         * @param from source state, {@code 0 ≤ from < size}
         * @param to target state, {@code ≠ from}
         * @param q rate {@code ≥ 0}, finite (0 is ignored)
         * @return this builder
         */
        public Builder rate(int from, int to, double q) {
            Require.between("from", from, 0, size - 1);
            Require.between("to", to, 0, size - 1);
            if (from == to) {
                throw MflbException.invalid("to", to, "a state other than from = " + from
                        + " (the diagonal of the generator is implied by the outflow)");
            }
            if (!(q >= 0) || q == Double.POSITIVE_INFINITY) {
                throw MflbException.invalid("q", q, "a finite rate >= 0");
            }
            if (q == 0) {
                return this;
            }
            if (count == this.from.length) {
                int grown = 2 * count;
                this.from = Arrays.copyOf(this.from, grown);
                this.to = Arrays.copyOf(this.to, grown);
                this.rates = Arrays.copyOf(this.rates, grown);
            }
            this.from[count] = from;
            this.to[count] = to;
            this.rates[count++] = q;
            return this;
        }

        /** @return the rates, grouped by target state */
        public TransitionRates build() {
            int[] start = new int[size + 1];
            double[] outflow = new double[size];
            for (int e = 0; e < count; e++) {
                start[to[e] + 1]++;
                outflow[from[e]] += rates[e];
            }
            for (int j = 0; j < size; j++) {
                start[j + 1] += start[j];
            }
            int[] fill = Arrays.copyOf(start, size);
            int[] source = new int[count];
            double[] rate = new double[count];
            for (int e = 0; e < count; e++) {
                int slot = fill[to[e]]++;
                source[slot] = from[e];
                rate[slot] = rates[e];
            }
            return new TransitionRates(size, start, source, rate, outflow);
        }
    }
}
