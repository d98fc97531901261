package org.mflb.pde;

import java.util.function.DoubleUnaryOperator;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.sojourn.SojournLaw;

/**
 * A waiting- or response-time law computed on a uniform grid by {@link SojournGrid}: an exact part
 * (the atom of the waiting time at 0, carried through the service law for the response time) plus a
 * continuous part known by its masses at the nodes {@code nδ}, {@code n < M}. Its CDF at a node
 * counts half the node's mass and is interpolated linearly between nodes (second order in
 * {@code δ}). Defined on {@code [0, (M−1)δ]}; a quantile beyond the grid's end is an error
 * (the PDE's sojourn computation widens the grid before that happens). Immutable.
 */
public final class GridLaw implements SojournLaw {

    private final double delta;
    private final double[] cdf;
    private final double continuousMass;
    private final DoubleUnaryOperator exactPart;
    private final double mean;

    GridLaw(double delta, double[] nodeMasses, double continuousMass, DoubleUnaryOperator exactPart, double mean) {
        this.delta = delta;
        this.cdf = new double[nodeMasses.length];
        double below = 0;
        int last = nodeMasses.length - 1;
        for (int n = 0; n <= last; n++) {
            cdf[n] = n == 0 ? 0.0 : below + leftShare(nodeMasses, n) * nodeMasses[n];
            below += nodeMasses[n];
        }
        this.continuousMass = continuousMass;
        this.exactPart = exactPart;
        this.mean = mean;
    }

    /**
     * The share of node {@code n}'s mass that lies left of it: half for a smooth density, and
     * {@code f_L/(f_L + f_R)} when the density jumps at the node (M/D/1 at the integers), estimated
     * from the neighbours' masses {@code m_{n±1} ≈ f_{L,R} δ}; second order either way.
     */
    private static double leftShare(double[] m, int n) {
        if (n + 1 >= m.length) {
            return 0.5;
        }
        double left = n == 1 ? 2 * m[0] : m[n - 1]; // node 0 carries a half hat only
        double right = m[n + 1];
        if (!(left >= 0 && right >= 0 && left + right > 0)) {
            return 0.5;
        }
        return left / (left + right);
    }

    /** @return the end {@code (M−1)δ} of the grid */
    public double end() {
        return (cdf.length - 1) * delta;
    }

    /** @return the grid step {@code δ} */
    public double step() {
        return delta;
    }

    @Override
    public double survival(double t) {
        if (!(t >= 0)) {
            return 1.0;
        }
        double u = Math.min(t, end()) / delta;
        int n = Math.min((int) Math.floor(u), cdf.length - 2);
        double w = u - n;
        double f = n < 0 ? 0.0 : cdf[n] + w * (cdf[n + 1] - cdf[n]);
        double s = exactPart.applyAsDouble(t) + Math.max(0.0, continuousMass - f);
        return Math.min(1.0, s);
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double quantile(double p) {
        double q = SojournLaw.quantile(new SojournLaw() {
            @Override
            public double survival(double t) {
                return t >= end() ? 0.0 : GridLaw.this.survival(t);
            }

            @Override
            public double mean() {
                return Math.min(mean, 0.5 * end());
            }
        }, p);
        if (q >= end() * (1 - 1e-12)) {
            throw new MflbException(ErrorKind.TRUNCATION, "percentiles", "the " + 100 * p
                    + "th percentile lies beyond the grid's end " + end() + " (P(T > end) = " + survival(end()) + ")");
        }
        return q;
    }
}
