package org.mflb.simulation.population;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import org.mflb.core.Require;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.modelfile.RateProgram;

/**
 * The N-object Markov chain of a model file: integer counts {@code n = N·x}, and transition
 * {@code ℓ} firing at rate {@code N·β_ℓ(n/N)} and moving {@code n → n + ℓ}. Written from the file's
 * jump vectors and compiled rates only (never from a drift), together with the dependency graph of
 * the next-event simulation: after transition {@code ℓ} fires, only the rates that read a
 * coordinate {@code ℓ} changes are recomputed.
 *
 * <p>Immutable; {@link Path} holds the mutable state of one replication.
 */
public final class PopulationChain {

    private final ModelFile file;
    private final int n;
    private final RateProgram rates;
    private final int[][] jumpCoordinates;
    private final int[][] jumpChanges;
    /** For each transition, the transitions whose rates it may change (sorted, itself included if so). */
    private final int[][] dependents;
    private final long[] initialCounts;

    /**
     * @param file the model
     * @param objects number of objects {@code N ≥ 1}
     */
    public PopulationChain(ModelFile file, int objects) {
        this.file = file;
        this.n = Require.atLeast("n", objects, 1);
        this.rates = file.rates();
        int count = file.transitionCount();
        int k = file.dimension();
        jumpCoordinates = new int[count][];
        jumpChanges = new int[count][];
        List<List<Integer>> readers = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            readers.add(new ArrayList<>());
        }
        for (int l = 0; l < count; l++) {
            jumpCoordinates[l] = file.jumpCoordinates(l);
            jumpChanges[l] = file.jumpChanges(l);
            for (int i : file.rateSupport(l)) {
                readers.get(i).add(l);
            }
        }
        dependents = new int[count][];
        for (int l = 0; l < count; l++) {
            TreeSet<Integer> affected = new TreeSet<>();
            for (int i : jumpCoordinates[l]) {
                affected.addAll(readers.get(i));
            }
            dependents[l] = affected.stream().mapToInt(Integer::intValue).toArray();
        }
        initialCounts = wholeObjects(file.initialState(), objects);
    }

    /**
     * Rounds {@code N·x(0)} to whole objects by largest remainders: {@code floor(N x_i)}, then the
     * units missing to {@code round(N Σ x_i)} go, one each, to the coordinates with the largest
     * fractional parts (the first on ties). A total such as {@code Σ x = 1} thus stays exactly
     * {@code N}, and integral {@code N x_i} are kept as they are.
     */
    static long[] wholeObjects(double[] x0, int objects) {
        int k = x0.length;
        long[] counts = new long[k];
        double[] fraction = new double[k];
        double total = 0;
        long floors = 0;
        for (int i = 0; i < k; i++) {
            double scaled = objects * x0[i];
            if (!(Math.abs(scaled) < 1e15)) {
                throw org.mflb.core.MflbException.invalid("n", objects, "small enough that N·x(0) fits the counts");
            }
            // Snap products within rounding of an integer (0.3·10 = 3.0000000000000004) to it.
            double nearest = Math.rint(scaled);
            double floor = Math.abs(scaled - nearest) <= 1e-9 * Math.max(1, Math.abs(scaled)) ? nearest : Math.floor(scaled);
            counts[i] = (long) floor;
            fraction[i] = scaled - floor;
            total += scaled;
            floors += counts[i];
        }
        long missing = Math.round(total) - floors;
        for (long m = 0; m < missing; m++) {
            int best = -1;
            for (int i = 0; i < k; i++) {
                if (fraction[i] > 1e-9 && (best < 0 || fraction[i] > fraction[best])) {
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            counts[best]++;
            fraction[best] = 0;
        }
        return counts;
    }

    /** @return the model */
    public ModelFile file() {
        return file;
    }

    /** @return number of objects {@code N} */
    public int objects() {
        return n;
    }

    /** @return the initial counts, {@code N·x(0)} rounded by {@link #wholeObjects} (a copy) */
    public long[] initialCounts() {
        return initialCounts.clone();
    }

    /** @return mean number of rates recomputed per event if every transition fired equally often */
    public double meanDependents() {
        long total = 0;
        for (int[] d : dependents) {
            total += d.length;
        }
        return (double) total / dependents.length;
    }

    /** @return a new replication path from the initial counts at time 0 */
    Path start() {
        return new Path();
    }

    /**
     * One realisation: counts, the scaled state, the rates {@code N·β} in a sum tree (a binary tree
     * whose internal nodes hold the sums of their children, recomputed on every update, so that the
     * total never accumulates rounding drift), and per-coordinate running time integrals.
     */
    final class Path {
        final long[] counts = initialCounts.clone();
        final double[] x = new double[counts.length];
        private final double[] stack = new double[rates.stackDepth()];
        private final int leaves;
        private final double[] tree;
        /** Nodes to recompute, one level at a time. */
        private final int[] work;
        double time;
        long events;
        /** ∫ x_i dt since {@link #resetIntegrals}, up to {@code lastChange[i]}. */
        private final double[] integral = new double[counts.length];
        private final double[] lastChange = new double[counts.length];

        private Path() {
            for (int i = 0; i < counts.length; i++) {
                x[i] = counts[i] / (double) n;
            }
            int size = 1;
            while (size < Math.max(1, jumpCoordinates.length)) {
                size <<= 1;
            }
            leaves = size;
            tree = new double[2 * size];
            work = new int[Math.max(1, jumpCoordinates.length)];
            for (int l = 0; l < jumpCoordinates.length; l++) {
                tree[size + l] = rate(l);
            }
            for (int v = size - 1; v >= 1; v--) {
                tree[v] = tree[2 * v] + tree[2 * v + 1];
            }
        }

        private double rate(int l) {
            double beta = rates.evaluate(l, x, stack);
            if (beta >= 0 && beta < Double.POSITIVE_INFINITY) {
                return n * beta;
            }
            if (beta >= -ModelFile.ROUNDING_TOLERANCE) {
                return 0.0; // rounding of an exact zero
            }
            throw file.rateError(l, beta, x, "a state of the " + n + "-object chain at time " + time);
        }

        /**
         * Recomputes the rates {@code changed} (sorted) and then their ancestors level by level, each
         * shared ancestor once: the parents of sorted nodes are sorted, so duplicates are adjacent.
         */
        private void refresh(int[] changed) {
            int count = changed.length;
            for (int k = 0; k < count; k++) {
                int m = changed[k];
                tree[leaves + m] = rate(m);
                work[k] = leaves + m;
            }
            while (count > 0 && work[0] > 1) {
                int unique = 0;
                for (int k = 0; k < count; k++) {
                    int parent = work[k] >> 1;
                    if (unique == 0 || work[unique - 1] != parent) {
                        work[unique++] = parent;
                        tree[parent] = tree[2 * parent] + tree[2 * parent + 1];
                    }
                }
                count = unique;
            }
        }

        /** @return the total rate {@code Σ N·β_ℓ} */
        double totalRate() {
            return tree[1];
        }

        /** @return the transition whose cumulative-rate interval holds {@code target ∈ [0, total)} */
        int select(double target) {
            int v = 1;
            while (v < leaves) {
                double left = tree[2 * v];
                if (target < left || tree[2 * v + 1] <= 0) {
                    v = 2 * v;
                } else {
                    target -= left;
                    v = 2 * v + 1;
                }
            }
            return v - leaves;
        }

        /** @return the rate of transition {@code l} now */
        double rateOf(int l) {
            return tree[leaves + l];
        }

        /** Fires transition {@code l} at time {@code t}: counts, integrals and the dependent rates. */
        void fire(int l, double t) {
            time = t;
            int[] idx = jumpCoordinates[l];
            int[] change = jumpChanges[l];
            for (int k = 0; k < idx.length; k++) {
                int i = idx[k];
                integral[i] += x[i] * (t - lastChange[i]);
                lastChange[i] = t;
                long c = counts[i] + change[k];
                if (c < 0) {
                    throw file.position(l).error("transition " + file.label(l) + " fired with rate "
                            + tree[leaves + l] + " and would make the count of " + file.names().get(i)
                            + " negative in the " + n + "-object chain", "a rate that vanishes when a count it"
                                    + " decreases is zero");
                }
                counts[i] = c;
                x[i] = c / (double) n;
            }
            refresh(dependents[l]);
            events++;
        }

        /** Starts the time integrals afresh at {@code t}. */
        void resetIntegrals(double t) {
            Arrays.fill(integral, 0.0);
            Arrays.fill(lastChange, t);
        }

        /** @return {@code ∫ x dt} from the last reset up to {@code t} (O(K)) */
        double[] integrals(double t) {
            double[] out = new double[integral.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = integral[i] + x[i] * (t - lastChange[i]);
            }
            return out;
        }
    }
}
