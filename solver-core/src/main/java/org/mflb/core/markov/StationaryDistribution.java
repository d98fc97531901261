package org.mflb.core.markov;

import java.util.Arrays;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The stationary law {@code π} of an irreducible finite continuous-time Markov chain, the solution of
 * the global balance equations
 * <pre>
 *   π Q = 0,   Σ_j π_j = 1,      i.e.  π_j q_j = Σ_{i≠j} π_i q(i, j)  for every j,
 * </pre>
 * by Gauss–Seidel sweeps {@code π_j ← Σ_i π_i q(i, j) / q_j} in state order (new values used as soon
 * as they are computed), each sweep followed by renormalisation. The stopping rule is the residual
 * of the equations, not the size of a step: the sweeps stop as soon as the relative residual
 * <pre>
 *   ρ(π) = max_j |(πQ)_j| / max_j π_j q_j   ({@link TransitionRates#relativeResidual})
 * </pre>
 * is at most the tolerance (it is evaluated every {@value #CHECK_INTERVAL} sweeps). A small step
 * does not imply a small residual on slowly mixing chains; a small residual bounds the error of
 * {@code π} by {@code ρ} times a condition number of the chain (of the order of its mixing time in
 * units of {@code 1/max q_j}), so users compare against a direct solve on a small instance (as the
 * tests do). Reaching the sweep limit is an error ({@link ErrorKind#NO_CONVERGENCE}), never a result.
 * Ordering the states so that most transitions go from lower to higher index (e.g. by the number of
 * jobs) makes the sweeps converge faster. Tolerances down to about {@code 1e-14} are reachable in
 * double precision. Immutable.
 */
public final class StationaryDistribution {

    /** Sweeps between two evaluations of the residual (each costs about one sweep). */
    public static final int CHECK_INTERVAL = 4;

    private final double[] pi;
    private final double residual;
    private final int sweeps;

    private StationaryDistribution(double[] pi, double residual, int sweeps) {
        this.pi = pi;
        this.residual = residual;
        this.sweeps = sweeps;
    }

    /**
     * @param rates the chain's transition rates; irreducible (every state must have an outflow
     *        unless the chain has one state)
     * @param tolerance largest accepted relative residual {@code ρ(π)}, in {@code (0, 1)}
     * @param maxSweeps largest number of Gauss–Seidel sweeps, {@code ≥ 1}
     * @return the stationary law, with its relative residual {@code ≤ tolerance}
     * @throws MflbException (NO_CONVERGENCE) if the residual is still above the tolerance after
     *         {@code maxSweeps} sweeps; (invalid) if a state has no outflow
     */
    public static StationaryDistribution solve(TransitionRates rates, double tolerance, int maxSweeps) {
        Require.open("tolerance", tolerance, 0, 1);
        Require.atLeast("maxSweeps", maxSweeps, 1);
        int size = rates.size();
        double[] pi = new double[size];
        Arrays.fill(pi, 1.0 / size);
        if (size == 1) {
            return new StationaryDistribution(pi, 0, 0);
        }
        for (int j = 0; j < size; j++) {
            if (!(rates.outflow(j) > 0)) {
                throw MflbException.invalid("rates", "state " + j + " without outflow",
                        "an irreducible chain (every state left at a positive rate)");
            }
        }
        double residual = Double.POSITIVE_INFINITY;
        for (int sweep = 1; sweep <= maxSweeps; sweep++) {
            double sum = 0;
            for (int j = 0; j < size; j++) {
                pi[j] = rates.inflow(pi, j) / rates.outflow(j);
                sum += pi[j];
            }
            if (!(sum > 0) || !Double.isFinite(sum)) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, "rates",
                        "Gauss-Seidel lost all probability mass at sweep " + sweep + " (is the chain irreducible?)");
            }
            for (int j = 0; j < size; j++) {
                pi[j] /= sum;
            }
            if (sweep % CHECK_INTERVAL == 0 || sweep == maxSweeps) {
                residual = rates.relativeResidual(pi);
                if (residual <= tolerance) {
                    return new StationaryDistribution(pi, residual, sweep);
                }
            }
        }
        throw new MflbException(ErrorKind.NO_CONVERGENCE, "rates", String.format(
                "Gauss-Seidel: relative residual %.3g > %.3g after %d sweeps (%d states)", residual, tolerance,
                maxSweeps, size));
    }

    /** @return {@code π} (a copy) */
    public double[] probabilities() {
        return pi.clone();
    }

    /** @return {@code π_j} */
    public double probability(int j) {
        return pi[j];
    }

    /** @return the relative residual {@code ρ(π)} reached (at most the tolerance) */
    public double relativeResidual() {
        return residual;
    }

    /** @return the number of sweeps made */
    public int sweeps() {
        return sweeps;
    }
}
