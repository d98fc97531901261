package org.mflb.simulation;

/** Closed-form truths used by the statistical tests (written here, independent of the fluid code). */
final class ClosedForms {

    private ClosedForms() {
    }

    /** @return {@code P(Poisson(m) ≥ i)} for i = 0..len−1 */
    static double[] poissonTail(double m, int len) {
        double[] pmf = new double[len];
        double p = Math.exp(-m);
        for (int k = 0; k < len; k++) {
            pmf[k] = p;
            p *= m / (k + 1);
        }
        return tailOf(pmf, 1.0);
    }

    /** @return the tail {@code P(Q ≥ i)} of a pmf whose total mass is {@code total} */
    static double[] tailOf(double[] pmf, double total) {
        double[] tail = new double[pmf.length];
        double below = 0;
        for (int i = 0; i < pmf.length; i++) {
            tail[i] = total - below;
            below += pmf[i];
        }
        return tail;
    }

    /** @return the Erlang-B blocking probability of C servers offered load a: (a^C/C!) / Σ_{k≤C} a^k/k! */
    static double erlangB(double a, int c) {
        // stable recursion B(0) = 1, B(k) = a B(k−1) / (k + a B(k−1))
        double b = 1;
        for (int k = 1; k <= c; k++) {
            b = a * b / (k + a * b);
        }
        return b;
    }

    /** @return the tail of the Poisson(a) law truncated to {0..C} (the occupancy of an Erlang loss pool) */
    static double[] truncatedPoissonTail(double a, int c) {
        double[] pmf = new double[c + 1];
        double p = 1;
        double sum = 0;
        for (int k = 0; k <= c; k++) {
            pmf[k] = p;
            sum += p;
            p *= a / (k + 1);
        }
        for (int k = 0; k <= c; k++) {
            pmf[k] /= sum;
        }
        return tailOf(pmf, 1.0);
    }
}
