package org.mflb.fluid.nonsmooth;

import org.mflb.core.ode.LocalRate;
import org.mflb.core.ode.SwitchedIntegrator;

/**
 * One smooth piece ({@link Regime}) in the coordinates the solver integrates it in. Every time a
 * piece is given is on the clock of {@link #lambda} (the time since the start of the stretch being
 * integrated, see {@link LocalRate}). The full state
 * is handed between pieces as two arrays: the tail {@code x_j} and the gaps {@code 1 − x_j}, each
 * accurate on its own side (levels near 1 need their gap to full relative precision: the deficit of
 * regime (a) can be 1e-14 and less). Switching functions are negative while the piece goes on and
 * end it when they cross 0 upward; each one stands for a {@link Regime.Surface} of the policy, or
 * ({@code null}) for a change of coordinates within the same piece.
 */
abstract class Piece {

    final Regime regime;
    final int levels;
    final double[] mu;
    final LocalRate lambda;

    Piece(Regime regime, int levels, double[] mu, LocalRate lambda) {
        this.regime = regime;
        this.levels = levels;
        this.mu = mu;
        this.lambda = lambda;
    }

    /** @return the number of integrated coordinates */
    abstract int dimension();

    /**
     * @param t time
     * @param x tail {@code (x_1..x_K)}; not modified
     * @param gap {@code (1 − x_1..1 − x_K)}; not modified
     * @return the coordinates at the start of the piece
     */
    abstract double[] encode(double t, double[] x, double[] gap);

    /** @param f the drift in the piece's coordinates; modified */
    abstract void derivatives(double t, double[] y, double[] f);

    /** @return the number of switching functions */
    abstract int switches();

    /** @return switching function {@code k}: the piece ends when it crosses 0 upward */
    abstract double switchingFunction(int k, double t, double[] y);

    /** The first coordinate alone. */
    static final int[] FIRST = {0};

    /**
     * @return the coordinates the switching functions read (the solver interpolates only these to find
     *         their roots), or {@code null} for all
     */
    int[] switchingCoordinates() {
        return null;
    }

    /** @return the surface switching function {@code k} stands for, or {@code null} for a change of coordinates */
    abstract Regime.Surface surface(int k);

    /**
     * The full state at {@code t}, where the integration stands; for {@link DeficitPiece} the lower
     * gaps must have been advanced to {@code t} ({@link #stepDone}).
     *
     * @param x the tail; modified
     * @param gap the gaps; modified
     */
    abstract void decode(double t, double[] y, double[] x, double[] gap);

    /**
     * The full state at a time {@code t} within an accepted step, before {@link #stepDone} is called for it
     * (a grid time passed by the step).
     *
     * @param step the step
     * @param y the coordinates at {@code t}, from the step's polynomial
     * @param x the tail; modified
     * @param gap the gaps; modified
     */
    void decodeWithin(SwitchedIntegrator.Step step, double t, double[] y, double[] x, double[] gap) {
        decode(t, y, x, gap);
    }

    /**
     * The clock of {@link #lambda} has been restarted where the integration stands (at a knot of
     * {@code λ(t)}, or where the piece starts): what the piece integrates on its own follows.
     */
    void clockRestarted() {
        // nothing outside the integrated coordinates
    }

    /** Called once per accepted step, in time order: brings what is not integrated to the step's end. */
    void stepDone(SwitchedIntegrator.Step step) {
        // nothing outside the integrated coordinates
    }

    /**
     * @param t a time from which {@code λ} stays constant
     * @return the piece's drift from {@code t} on when it is a {@link LinearRelaxation} and every
     *         switching function depends on {@code y_0} alone, affinely; else {@code null}
     */
    LinearRelaxation relaxation(double t) {
        return null;
    }

    /** Sets {@code gap[j] = 1 − x[j]} for levels {@code from..K} (0-based index from). */
    static void gapsFromTail(double[] x, double[] gap, int from) {
        for (int j = from; j < x.length; j++) {
            gap[j] = 1.0 - x[j];
        }
    }
}
