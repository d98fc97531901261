package org.mflb.core.fixedpoint;

import java.util.Optional;

import org.hipparchus.complex.Complex;

/**
 * A fixed point {@code π} of a drift, {@code f(π) = 0}, with the evidence for it: the residual
 * {@code ‖f(π)‖∞}, the number of iterations, and the spectrum of the Jacobian {@code Df(π)} that
 * decides its stability (all eigenvalues with negative real part: locally exponentially stable).
 */
public final class FixedPoint {

    private final double[] state;
    private final double residual;
    private final int iterations;
    private final Complex[] spectrum;

    FixedPoint(double[] state, double residual, int iterations, Complex[] spectrum) {
        this.state = state;
        this.residual = residual;
        this.iterations = iterations;
        this.spectrum = spectrum;
    }

    /** @return {@code π} (a copy) */
    public double[] state() {
        return state.clone();
    }

    /** @return {@code ‖f(π)‖∞} */
    public double residual() {
        return residual;
    }

    /**
     * @param recomputed the residual {@code ‖f(π)‖∞} computed again, e.g. in extended precision
     * @return this fixed point with that residual
     */
    public FixedPoint withResidual(double recomputed) {
        return new FixedPoint(state, recomputed, iterations, spectrum);
    }

    /** @return Newton (pseudo-transient) iterations used */
    public int iterations() {
        return iterations;
    }

    /**
     * @return the eigenvalues of {@code Df(π)}; empty when the dimension exceeded the limit for a
     *         dense eigen-decomposition ({@link FixedPointSolver.Settings#spectrumLimit()})
     */
    public Optional<Complex[]> spectrum() {
        return spectrum == null ? Optional.empty() : Optional.of(spectrum.clone());
    }

    /** @return the largest real part of the spectrum ({@code NaN} when it was not computed) */
    public double spectralAbscissa() {
        if (spectrum == null) {
            return Double.NaN;
        }
        double max = Double.NEGATIVE_INFINITY;
        for (Complex c : spectrum) {
            max = Math.max(max, c.getReal());
        }
        return max;
    }

    /**
     * @return whether {@code π} is locally exponentially stable; when the spectrum was not computed,
     *         this rests on the pseudo-transient iteration having converged, which only reaches
     *         attracting equilibria
     */
    public boolean isStable() {
        return spectrum == null || spectralAbscissa() < 0;
    }
}
