package org.mflb.validation;

/** Exact results used as independent truths by the validation catalogue. */
public final class ClosedForms {

    private ClosedForms() {
    }

    /**
     * Erlang-B blocking of an M/M/C/C (equivalently M/G/C/C) system with offered load {@code a}, by
     * the stable recursion {@code B(c) = a B(c−1) / (c + a B(c−1))}, {@code B(0) = 1}.
     */
    public static double erlangB(int capacity, double load) {
        double b = 1.0;
        for (int c = 1; c <= capacity; c++) {
            b = load * b / (c + load * b);
        }
        return b;
    }
}
