package org.mflb.core.ode;

import java.util.Arrays;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PiecewiseLinearRate;

/**
 * The common steps of the piecewise-smooth fluid solvers, which integrate a drift that is smooth
 * within each piece and switches on surfaces {@code g(x) = 0} ({@link SwitchedIntegrator}): where
 * the integration stops besides the crossings (the knots of a piecewise-linear {@code λ(t)},
 * {@link #nextStop}, so that no step straddles a kink), and the tolerances of a piece. Nothing here
 * smooths the drift.
 */
public final class PieceIntegration {

    private PieceIntegration() {
    }

    /**
     * @param lambda arrival rate
     * @return the knot times of a piecewise-linear {@code λ(t)} (a new array), else an empty array
     */
    public static double[] knots(ArrivalRate lambda) {
        return lambda instanceof PiecewiseLinearRate p ? p.times() : new double[0];
    }

    /**
     * @param knots increasing knot times ({@link #knots})
     * @param t the current time
     * @param end the end of the integration
     * @return the first knot after {@code t} if it comes before {@code end}, else {@code end}
     */
    public static double nextStop(double[] knots, double t, double end) {
        int i = Arrays.binarySearch(knots, t);
        i = i >= 0 ? i + 1 : -i - 1;
        return i < knots.length && knots[i] < end ? knots[i] : end;
    }

    /**
     * Whether two times are the same within rounding ({@code 1000 ulp} of the larger): a switch located
     * that close after a grid time is where an integration from that grid time starts (the piece in
     * force there is the one after the switch), and a piece that comes to rest that close to now is at
     * rest now. ({@link SwitchedIntegrator} integrates a stretch of any positive length.)
     *
     * @param t the earlier time
     * @param target the later time, {@code >= t} or within rounding below it
     * @return whether they count as one
     */
    public static boolean negligible(double t, double target) {
        return target - t < 1000 * Math.ulp(Math.max(Math.abs(t), Math.abs(target)));
    }

    /**
     * The absolute tolerances of a piece: {@code settings.absoluteTolerance()} for every coordinate
     * but {@code tight}, whose tolerance is 1e-10 times that, so that the coordinate is integrated to
     * the relative tolerance alone and its zero (a switching surface approached like {@code e^{−t}})
     * is located at the right time, not when it sinks below the absolute tolerance.
     *
     * @param settings integrator tolerances
     * @param dimension the dimension of the piece
     * @param tight the coordinate measuring the distance to the surface
     * @return the tolerances (a new array)
     */
    public static double[] absoluteTolerances(IntegratorSettings settings, int dimension, int tight) {
        double[] tolerance = new double[dimension];
        Arrays.fill(tolerance, settings.absoluteTolerance());
        tolerance[tight] *= 1e-10;
        return tolerance;
    }

    /**
     * @param settings integrator tolerances
     * @param dimension the dimension of the piece
     * @return {@code settings.relativeTolerance()} for every coordinate (a new array)
     */
    public static double[] relativeTolerances(IntegratorSettings settings, int dimension) {
        double[] tolerance = new double[dimension];
        Arrays.fill(tolerance, settings.relativeTolerance());
        return tolerance;
    }
}
