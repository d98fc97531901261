package org.mflb.fluid;

/** Closed forms used as test oracles: Poisson tails and the Erlang-B formula. */
final class Poisson {

    private Poisson() {
    }

    /** @return {@code P(Poisson(mean) ≥ i)} for {@code i = 0..levels}, summed from the far tail for accuracy */
    static double[] tail(double mean, int levels) {
        int far = levels + (int) (mean + 40 * Math.sqrt(mean + 1) + 50);
        double[] pmf = new double[far + 1];
        double logP = -mean;
        for (int k = 0; k <= far; k++) {
            if (k > 0) {
                logP += Math.log(mean) - Math.log(k);
            }
            pmf[k] = mean > 0 ? Math.exp(logP) : (k == 0 ? 1 : 0);
        }
        double[] tail = new double[levels + 1];
        double sum = 0;
        for (int k = far; k >= 0; k--) {
            sum += pmf[k];
            if (k <= levels) {
                tail[k] = sum;
            }
        }
        tail[0] = 1.0;
        return tail;
    }

    /** Erlang-B blocking {@code B(C, a)} by the stable recursion {@code B(c) = a B(c−1)/(c + a B(c−1))}. */
    static double erlangB(int capacity, double load) {
        double b = 1.0;
        for (int c = 1; c <= capacity; c++) {
            b = load * b / (c + load * b);
        }
        return b;
    }
}
