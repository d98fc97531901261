package org.mflb.simulation;

import java.util.Arrays;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The state of the {@code N} servers (pools) at time 0. Jobs present at time 0 start their service
 * afresh at time 0 (age 0, a full service requirement), and their arrival times are unknown, so the
 * per-job estimators (response and waiting time) leave them out.
 */
public sealed interface InitialState permits InitialState.Empty, InitialState.Tail, InitialState.All {

    /**
     * @param n number of servers
     * @return the number of jobs of each server (a new array)
     */
    int[] levels(int n);

    /** @return the specification in the command-line syntax ({@code empty}, {@code tail:1,0.8}, {@code all:3}) */
    String spec();

    /** @return all servers empty */
    static InitialState empty() {
        return new Empty();
    }

    /** @return every server holding {@code k ≥ 0} jobs */
    static InitialState all(int k) {
        return new All(k);
    }

    /** @return the state closest to the tail vector {@code x} (see {@link Tail}) */
    static InitialState tail(double... x) {
        return new Tail(x);
    }

    /** Parses {@code empty}, {@code tail:x0,x1,...} or {@code all:K}. */
    static InitialState parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.equals("empty")) {
            return empty();
        }
        if (s.startsWith("all:")) {
            try {
                return all(Integer.parseInt(s.substring(4).trim()));
            } catch (NumberFormatException e) {
                throw MflbException.invalid("init", spec, "empty, tail:x0,x1,... or all:K with an integer K >= 0");
            }
        }
        if (s.startsWith("tail:")) {
            String[] parts = s.substring(5).split(",");
            double[] x = new double[parts.length];
            try {
                for (int i = 0; i < parts.length; i++) {
                    x[i] = Double.parseDouble(parts[i].trim());
                }
            } catch (NumberFormatException e) {
                throw MflbException.invalid("init", spec, "empty, tail:x0,x1,... (numbers) or all:K");
            }
            return tail(x);
        }
        throw MflbException.invalid("init", spec, "empty, tail:x0,x1,... or all:K");
    }

    /** All servers empty. */
    record Empty() implements InitialState {
        @Override
        public int[] levels(int n) {
            return new int[n];
        }

        @Override
        public String spec() {
            return "empty";
        }
    }

    /** Every server holding {@code k} jobs. */
    record All(int k) implements InitialState {
        /** @param k jobs per server, {@code ≥ 0} */
        public All {
            if (k < 0) {
                throw MflbException.invalid("init", "all:" + k, "all:K with an integer K >= 0");
            }
        }

        @Override
        public int[] levels(int n) {
            int[] l = new int[n];
            Arrays.fill(l, k);
            return l;
        }

        @Override
        public String spec() {
            return "all:" + k;
        }
    }

    /**
     * The integer state nearest to a tail vector {@code x} ({@code x_0 = 1}, entries in [0, 1],
     * non-increasing). Rounding: {@code c_i = ⌊N·x_i + 1/2⌋} servers get at least {@code i} jobs
     * (round half up; monotone, so {@code c_i} stays non-increasing), servers {@code 0..c_i−1} being
     * the ones with at least {@code i}. Each coordinate is then within {@code 1/(2N)} of {@code x_i}.
     */
    final class Tail implements InitialState {
        private final double[] x;

        /** @param x the tail vector, {@code x[0] = 1} (copied) */
        public Tail(double[] x) {
            if (x == null || x.length == 0) {
                throw invalidTail("tail", "a non-empty tail vector starting with x0 = 1");
            }
            if (Math.abs(x[0] - 1.0) > 1e-12) {
                throw invalidTail("x0 = " + x[0], "1 (x0 is the fraction of servers with >= 0 jobs)");
            }
            for (int i = 1; i < x.length; i++) {
                if (!(x[i] >= 0 && x[i] <= 1)) {
                    throw invalidTail("x" + i + " = " + x[i], "in [0, 1]");
                }
                if (x[i] > x[i - 1]) {
                    throw invalidTail("x" + i + " = " + x[i],
                            "<= x" + (i - 1) + " = " + x[i - 1] + " (a tail vector is non-increasing)");
                }
            }
            this.x = x.clone();
        }

        private static MflbException invalidTail(String what, String range) {
            return new MflbException(ErrorKind.INVALID_PARAMETER, "init",
                    "init: tail " + what + " is invalid: must be " + range);
        }

        /** @return the tail vector (a copy) */
        public double[] x() {
            return x.clone();
        }

        @Override
        public int[] levels(int n) {
            int[] l = new int[n];
            for (int i = 1; i < x.length; i++) {
                long c = (long) Math.floor(n * x[i] + 0.5);
                for (int s = 0; s < c; s++) {
                    l[s]++;
                }
            }
            return l;
        }

        @Override
        public String spec() {
            StringBuilder b = new StringBuilder("tail:");
            for (int i = 0; i < x.length; i++) {
                b.append(i > 0 ? "," : "").append(x[i]);
            }
            return b.toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Tail t && Arrays.equals(x, t.x);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(x);
        }

        @Override
        public String toString() {
            return spec();
        }
    }
}
