package org.mflb.core.sojourn;

import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.hipparchus.analysis.solvers.AllowedSolution;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;

/**
 * The law of a time spent in the system by a job (a response time, a waiting time) on
 * {@code [0, ∞)}, through its survival function {@code P(T > t)} (docs/models.md §7). The fluid
 * limit of FIFO queues with exponential service gives it as a mixture of Erlang laws, the
 * hydrodynamic PDE on an age grid. Quantiles are found by bracketing and a root finder on the
 * survival function, which may have jumps (atoms of {@code T}): the quantile is
 * {@code inf {t : P(T > t) ≤ 1 − p}}.
 */
public interface SojournLaw {

    /** @return {@code P(T > t)}, nonincreasing in {@code t}, 1 for {@code t < 0} */
    double survival(double t);

    /** @return {@code E[T]} */
    double mean();

    /**
     * @param p probability in (0, 1)
     * @return the {@code p}-quantile {@code inf {t ≥ 0 : P(T > t) ≤ 1 − p}}, to a relative 1e-13
     *         (absolute 1e-15 near 0)
     */
    default double quantile(double p) {
        return quantile(this, p);
    }

    /**
     * The quantile of any nonincreasing survival function: the bracket doubles from {@link #mean()}
     * (or 1) until the survival drops to {@code 1 − p}, then Brent's method of order 5 refines it
     * (and a final bisection step keeps the left-continuous inverse when the survival jumps).
     *
     * @param law the law
     * @param p probability in (0, 1)
     * @return the quantile
     */
    static double quantile(SojournLaw law, double p) {
        Require.open("p", p, 0, 1);
        double target = 1.0 - p;
        if (law.survival(0.0) <= target) {
            return 0.0;
        }
        double mean = law.mean();
        double hi = Double.isFinite(mean) && mean > 0 ? mean : 1.0;
        double lo = 0.0;
        int doublings = 0;
        while (law.survival(hi) > target) {
            lo = hi;
            hi *= 2;
            if (++doublings > 1100 || !Double.isFinite(hi)) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, "percentile",
                        "the survival function does not fall to " + target + " at any finite time");
            }
        }
        final double hiBracket = hi;
        double accuracy = Math.max(1e-15, 1e-14 * hiBracket);
        BracketingNthOrderBrentSolver solver = new BracketingNthOrderBrentSolver(1e-14, accuracy, 0.0, 5);
        double root;
        try {
            root = solver.solve(400, t -> law.survival(t) - target, lo, hi, AllowedSolution.RIGHT_SIDE);
        } catch (RuntimeException e) {
            root = bisect(law, target, lo, hi);
        }
        return root;
    }

    private static double bisect(SojournLaw law, double target, double lo, double hi) {
        double a = lo;
        double b = hi;
        for (int i = 0; i < 200 && b - a > 1e-15 * Math.max(1.0, b); i++) {
            double m = 0.5 * (a + b);
            if (law.survival(m) > target) {
                a = m;
            } else {
                b = m;
            }
        }
        return b;
    }
}
