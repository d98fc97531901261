package org.mflb.simulation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The stationary law π of a finite continuous-time Markov chain given by its transition rates,
 * from the global balance equations
 * <pre>
 *   π_j · Σ_k q(j, k) = Σ_i π_i · q(i, j),      Σ_j π_j = 1,
 * </pre>
 * solved by Gauss–Seidel sweeps {@code π_j ← Σ_i π_i q(i, j) / Σ_k q(j, k)} with renormalization,
 * until no entry moves by more than {@code tolerance}. The test chains (a few hundred states,
 * irreducible) converge in well under the sweep limit; reaching it is an error, not a result.
 */
final class StationaryLaw {

    private final int size;
    private final double[] out;
    private final List<List<double[]>> incoming = new ArrayList<>();

    /** @param size number of states */
    StationaryLaw(int size) {
        this.size = size;
        out = new double[size];
        for (int j = 0; j < size; j++) {
            incoming.add(new ArrayList<>());
        }
    }

    /** Adds the rate {@code q(from, to)} (several calls for one pair add up). */
    void rate(int from, int to, double q) {
        out[from] += q;
        incoming.get(to).add(new double[] {from, q});
    }

    /** @return π, to {@code tolerance} in the largest change of one sweep */
    double[] solve(double tolerance, int maxSweeps) {
        double[] pi = new double[size];
        Arrays.fill(pi, 1.0 / size);
        for (int sweep = 0; sweep < maxSweeps; sweep++) {
            double change = 0;
            for (int j = 0; j < size; j++) {
                double in = 0;
                for (double[] e : incoming.get(j)) {
                    in += pi[(int) e[0]] * e[1];
                }
                double v = in / out[j];
                change = Math.max(change, Math.abs(v - pi[j]));
                pi[j] = v;
            }
            double sum = Arrays.stream(pi).sum();
            for (int j = 0; j < size; j++) {
                pi[j] /= sum;
            }
            if (change < tolerance) {
                return pi;
            }
        }
        throw new IllegalStateException("Gauss-Seidel did not reach " + tolerance + " in " + maxSweeps + " sweeps");
    }
}
