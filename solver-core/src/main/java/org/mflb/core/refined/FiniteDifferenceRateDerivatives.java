package org.mflb.core.refined;

import java.util.Random;

import org.mflb.core.MflbException;
import org.mflb.core.model.PopulationModel;

/**
 * Derivatives of the rates of a plain {@link PopulationModel} (one that offers neither closed-form
 * derivatives nor field-typed rates) by central finite differences on each rate's support. Only
 * the value, gradient and Hessian are supplied: enough for the 1/N refined mean field and the
 * covariance, not for the 1/N² term, whose third and fourth derivatives finite differences cannot
 * give accurately (implement {@link SmoothPopulationModel} for that).
 *
 * <p>Supports are discovered once, by perturbing each coordinate at three pseudo-random interior
 * points and noting which rates change. Steps: {@code h = ε^{1/3}·max(1, |x_j|)} for the gradient
 * (error {@code O(h²) + O(ε/h)} ≈ 1e-10 for rates of order one) and {@code h = ε^{1/4}·max(1, |x_j|)}
 * for the Hessian (≈ 1e-8). Supports are coloured as in {@link AutomaticRateDerivatives}, so one
 * group of disjoint supports is differenced with the same few rate evaluations.
 */
public final class FiniteDifferenceRateDerivatives implements RateDerivatives {

    /** Highest derivative order supplied. */
    public static final int MAX_ORDER = 2;

    private final PopulationModel model;
    private final int dimension;
    private final int count;
    private final int[][] supports;
    private final SupportColouring colouring;

    /**
     * Discovers the sparsity of {@code model}'s rates.
     *
     * @param model the model
     */
    public FiniteDifferenceRateDerivatives(PopulationModel model) {
        this.model = model;
        this.dimension = model.getDimension();
        this.count = model.transitions().size();
        boolean[][] depends = new boolean[count][dimension];
        Random rng = new Random(0x5eed_2019L);
        double[] times = {0.37, 1.91, 7.3};
        double[] base = new double[count];
        double[] moved = new double[count];
        for (double t : times) {
            double[] x = new double[dimension];
            for (int j = 0; j < dimension; j++) {
                x[j] = 0.15 + 0.7 * rng.nextDouble();
            }
            model.rates(t, x, base);
            for (int j = 0; j < dimension; j++) {
                double keep = x[j];
                x[j] = keep + 1e-3;
                model.rates(t, x, moved);
                x[j] = keep;
                for (int l = 0; l < count; l++) {
                    if (moved[l] != base[l]) { // NaN ≠ NaN: a NaN counts as a dependence
                        depends[l][j] = true;
                    }
                }
            }
        }
        this.supports = SupportColouring.toSupports(depends);
        this.colouring = new SupportColouring(supports, dimension);
    }

    @Override
    public int maxOrder() {
        return MAX_ORDER;
    }

    @Override
    public int[] support(int transition) {
        return supports[transition].clone();
    }

    @Override
    public void evaluate(double t, double[] x, RateJets jets) {
        if (jets.order() > MAX_ORDER) {
            throw new MflbException(org.mflb.core.ErrorKind.INVALID_PARAMETER, "order",
                    "the 1/N² expansion needs exact third and fourth derivatives of the rates: the model must implement "
                            + "SmoothPopulationModel or RateDerivatives (finite differences give only first and second)");
        }
        double[] beta = new double[count];
        double[] plus = new double[count];
        double[] minus = new double[count];
        double[] pp = new double[count];
        double[] pm = new double[count];
        double[] mp = new double[count];
        double[] mm = new double[count];
        double[] y = x.clone();
        double h1Unit = Math.cbrt(Math.ulp(1.0));
        double h2Unit = Math.sqrt(Math.sqrt(Math.ulp(1.0)));
        model.rates(t, x, beta);
        for (int l = 0; l < count; l++) {
            jets.setValue(l, beta[l]);
        }
        for (int g = 0; g < colouring.groupCount(); g++) {
            int[] slot = colouring.slot[g];
            int m = colouring.variables[g];
            for (int a = 0; a < m; a++) {
                // Gradient: central difference with step ε^{1/3}.
                shift(y, x, slot, a, h1Unit, -1, 0);
                model.rates(t, y, plus);
                shift(y, x, slot, a, -h1Unit, -1, 0);
                model.rates(t, y, minus);
                for (int l : colouring.transitions[g]) {
                    if (a < supports[l].length) {
                        double h = h1Unit * Math.max(1.0, Math.abs(x[supports[l][a]]));
                        jets.gradient(l)[a] = (plus[l] - minus[l]) / (2 * h);
                    }
                }
                if (jets.order() < 2) {
                    continue;
                }
                // Diagonal of the Hessian: second central difference with step ε^{1/4}.
                shift(y, x, slot, a, h2Unit, -1, 0);
                model.rates(t, y, plus);
                shift(y, x, slot, a, -h2Unit, -1, 0);
                model.rates(t, y, minus);
                for (int l : colouring.transitions[g]) {
                    int ml = supports[l].length;
                    if (a < ml) {
                        double h = h2Unit * Math.max(1.0, Math.abs(x[supports[l][a]]));
                        jets.hessian(l)[a * ml + a] = (plus[l] - 2 * beta[l] + minus[l]) / (h * h);
                    }
                }
                // Off-diagonal: four-point cross difference.
                for (int b = a + 1; b < m; b++) {
                    shift(y, x, slot, a, h2Unit, b, h2Unit);
                    model.rates(t, y, pp);
                    shift(y, x, slot, a, h2Unit, b, -h2Unit);
                    model.rates(t, y, pm);
                    shift(y, x, slot, a, -h2Unit, b, h2Unit);
                    model.rates(t, y, mp);
                    shift(y, x, slot, a, -h2Unit, b, -h2Unit);
                    model.rates(t, y, mm);
                    for (int l : colouring.transitions[g]) {
                        int ml = supports[l].length;
                        if (b < ml) {
                            double ha = h2Unit * Math.max(1.0, Math.abs(x[supports[l][a]]));
                            double hb = h2Unit * Math.max(1.0, Math.abs(x[supports[l][b]]));
                            double v = (pp[l] - pm[l] - mp[l] + mm[l]) / (4 * ha * hb);
                            jets.hessian(l)[a * ml + b] = v;
                            jets.hessian(l)[b * ml + a] = v;
                        }
                    }
                }
            }
        }
    }

    /**
     * {@code y = x} moved by {@code ua·max(1,|x_j|)} on the coordinates driven by variable {@code a}
     * and by {@code ub·max(1,|x_j|)} on those driven by {@code b} ({@code b < 0}: none).
     */
    private static void shift(double[] y, double[] x, int[] slot, int a, double ua, int b, double ub) {
        for (int j = 0; j < x.length; j++) {
            double step = 0;
            if (slot[j] == a) {
                step = ua;
            } else if (slot[j] == b) {
                step = ub;
            }
            y[j] = x[j] + step * Math.max(1.0, Math.abs(x[j]));
        }
    }
}
