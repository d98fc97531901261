package org.mflb.fluid.nonsmooth;

import org.hipparchus.ode.sampling.ODEStateInterpolator;
import org.mflb.core.model.ArrivalRate;

/**
 * One smooth piece ({@link Regime}) in the coordinates the solver integrates it in. The full state
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
    final ArrivalRate lambda;

    Piece(Regime regime, int levels, double[] mu, ArrivalRate lambda) {
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

    /** @return the surface switching function {@code k} stands for, or {@code null} for a change of coordinates */
    abstract Regime.Surface surface(int k);

    /**
     * The full state at {@code t}; for {@link DeficitPiece} the lower gaps must have been advanced to
     * {@code t} ({@link #advance}).
     *
     * @param x the tail; modified
     * @param gap the gaps; modified
     */
    abstract void decode(double t, double[] y, double[] x, double[] gap);

    /** Called at each grid time within a step and at its end, in increasing time order. */
    void advance(double t, ODEStateInterpolator interpolator) {
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
