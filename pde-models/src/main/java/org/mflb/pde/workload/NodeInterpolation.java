package org.mflb.pde.workload;

/**
 * Values at the nodes {@code k h}, {@code 0 ≤ k < n}, read between nodes by the cubic through the four
 * nearest nodes (error {@code O(h⁴)}, below the {@code O(h²)} of the nodal values, so that
 * Richardson extrapolation in {@code h} also holds between nodes). A function that is not smooth at
 * a few known points (the kinks of the workload ccdf of a deterministic job size at the integers,
 * of a Pareto size at {@code x_m}) is interpolated piecewise: the four nodes are taken inside the
 * piece between two such breakpoints (a node on a breakpoint belongs to both pieces), unless the
 * piece holds fewer than four nodes. Immutable.
 */
final class NodeInterpolation {

    private final double h;
    private final double[] v;
    private final double[] breakpoints;

    /**
     * @param h node spacing
     * @param values the node values (kept, not copied)
     * @param breakpoints increasing points {@code > 0} where the function may have a kink
     */
    NodeInterpolation(double h, double[] values, double[] breakpoints) {
        this.h = h;
        this.v = values;
        this.breakpoints = breakpoints;
    }

    /** @return the last node's abscissa */
    double end() {
        return (v.length - 1) * h;
    }

    /** @return the value at node {@code k} */
    double node(int k) {
        return v[k];
    }

    /** @return the number of nodes */
    int size() {
        return v.length;
    }

    /** @return the interpolated value at {@code t ∈ [0, end()]} */
    double at(double t) {
        int n = v.length;
        double x = t / h;
        int j = (int) Math.floor(x);
        if (j >= n - 1) {
            return v[n - 1];
        }
        if (j < 0) {
            return v[0];
        }
        if (x == j) {
            return v[j];
        }
        int lo = 0;
        int hi = n - 1;
        for (double b : breakpoints) {
            double bx = b / h;
            if (bx <= x) {
                lo = Math.max(lo, (int) Math.ceil(bx - 1e-9));
            } else {
                hi = Math.min(hi, (int) Math.floor(bx + 1e-9));
                break;
            }
        }
        if (hi - lo < 3) {
            lo = 0;
            hi = n - 1;
        }
        int s = Math.max(lo, Math.min(j - 1, hi - 3));
        if (hi - lo < 3) {
            // fewer than four nodes in all: linear
            return v[j] + (x - j) * (v[j + 1] - v[j]);
        }
        double u = x - s;
        // Lagrange cubic on the nodes s, s+1, s+2, s+3 at offset u
        double u0 = u;
        double u1 = u - 1;
        double u2 = u - 2;
        double u3 = u - 3;
        return -v[s] * u1 * u2 * u3 / 6 + v[s + 1] * u0 * u2 * u3 / 2 - v[s + 2] * u0 * u1 * u3 / 2
                + v[s + 3] * u0 * u1 * u2 / 6;
    }
}
