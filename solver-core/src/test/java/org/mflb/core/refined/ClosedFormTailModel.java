package org.mflb.core.refined;

/**
 * The test SQ(d) model with hand-written derivatives of its rates (the "closed-form" path):
 * arrivals {@code λ(y^d − z^d)} on support {@code {i−1, i}} (just {@code {i}} at level 1),
 * departures {@code μ(y − z)} on {@code {i, i+1}} (just {@code {K}} at level K).
 */
final class ClosedFormTailModel extends TailModel implements RateDerivatives {

    ClosedFormTailModel(int k, double lambda, int d, boolean pools) {
        super(k, lambda, d, pools);
    }

    @Override
    public int maxOrder() {
        return 4;
    }

    @Override
    public int[] support(int transition) {
        int i = transition / 2;
        boolean arrival = transition % 2 == 0;
        if (arrival) {
            return i == 0 ? new int[] {0} : new int[] {i - 1, i};
        }
        return i == k - 1 ? new int[] {i} : new int[] {i, i + 1};
    }

    /** {@code j}-th derivative of {@code y ↦ y^d}. */
    private double powerDerivative(double y, int j) {
        if (j > d) {
            return 0;
        }
        double c = 1;
        for (int r = 0; r < j; r++) {
            c *= d - r;
        }
        return c * Math.pow(y, d - j);
    }

    @Override
    public void evaluate(double t, double[] x, RateJets jets) {
        double[] beta = new double[2 * k];
        rates(t, x, beta);
        for (int i = 0; i < k; i++) {
            int arrival = 2 * i;
            jets.setValue(arrival, beta[arrival]);
            fill(jets, arrival, i == 0 ? new double[] {x[0]} : new double[] {x[i - 1], x[i]}, i == 0);
            int departure = 2 * i + 1;
            jets.setValue(departure, beta[departure]);
            int m = i == k - 1 ? 1 : 2;
            java.util.Arrays.fill(jets.gradient(departure), 0);
            jets.gradient(departure)[0] = mu(i + 1);
            if (m == 2) {
                jets.gradient(departure)[1] = -mu(i + 1);
            }
            clearHigher(jets, departure);
        }
    }

    /** Arrival jets: +λ y^d on the first coordinate, −λ z^d on the last (only −λ z^d at level 1). */
    private void fill(RateJets jets, int l, double[] vars, boolean levelOne) {
        clearHigher(jets, l);
        int m = vars.length;
        for (int a = 0; a < m; a++) {
            double sign = (levelOne || a == 1) ? -1 : +1;
            double y = vars[a];
            jets.gradient(l)[a] = sign * lambda * powerDerivative(y, 1);
            if (jets.order() >= 2) {
                jets.hessian(l)[a * m + a] = sign * lambda * powerDerivative(y, 2);
            }
            if (jets.order() >= 3) {
                jets.third(l)[(a * m + a) * m + a] = sign * lambda * powerDerivative(y, 3);
            }
            if (jets.order() >= 4) {
                jets.fourth(l)[((a * m + a) * m + a) * m + a] = sign * lambda * powerDerivative(y, 4);
            }
        }
    }

    private static void clearHigher(RateJets jets, int l) {
        if (jets.order() >= 2) {
            java.util.Arrays.fill(jets.hessian(l), 0);
        }
        if (jets.order() >= 3) {
            java.util.Arrays.fill(jets.third(l), 0);
        }
        if (jets.order() >= 4) {
            java.util.Arrays.fill(jets.fourth(l), 0);
        }
    }
}
