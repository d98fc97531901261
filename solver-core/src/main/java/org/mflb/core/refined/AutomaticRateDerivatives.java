package org.mflb.core.refined;

import java.util.Map;
import java.util.Random;

import org.hipparchus.analysis.differentiation.DSCompiler;
import org.hipparchus.analysis.differentiation.DSFactory;
import org.hipparchus.analysis.differentiation.DerivativeStructure;
import org.hipparchus.analysis.differentiation.Gradient;
import org.mflb.core.MflbException;

/**
 * Exact derivatives of any {@link SmoothPopulationModel} by forward-mode automatic differentiation
 * (Hipparchus {@link DerivativeStructure}), exploiting that each rate depends on few coordinates.
 *
 * <p><b>Sparsity.</b> At construction the support of every rate is discovered once, by evaluating
 * the rates on first-order {@link Gradient}s at three pseudo-random interior points and times and
 * keeping every coordinate with a non-zero (or NaN) partial derivative. A coordinate whose
 * derivative vanishes at all three random points is taken as structurally absent.
 *
 * <p><b>Local differentiation.</b> Transitions are then grouped so that, within a group, any two
 * supports are identical or disjoint (greedy colouring; two groups suffice for the nearest-neighbour
 * rates of the SQ(d) family). One evaluation of the rates per group, with {@code DerivativeStructure}s
 * in as many variables as the largest support of the group, gives every rate of the group with all
 * its derivatives: variable {@code a} stands for coordinate {@code s_a} of each support, and since
 * the supports are disjoint a rate never sees another transition's variables. The cost per point
 * is a handful of rate evaluations on {@code C(m + order, order)}-term structures ({@code m} the
 * largest support), independent of the dimension {@code K}.
 *
 * <p>Instances are immutable after construction and may be shared between threads.
 */
public final class AutomaticRateDerivatives implements RateDerivatives {

    /** Highest derivative order supplied: the 1/N² expansion needs fourth derivatives. */
    public static final int MAX_ORDER = 4;

    private final SmoothPopulationModel model;
    /** The same model when its rates depend on N (then ε = 1/N is differentiated too), else null. */
    private final SizeDependentPopulationModel sized;
    private final int dimension;
    private final int[][] supports;
    /** Per group: the transitions it evaluates. */
    private final int[][] groupTransitions;
    /** Per group: coordinate → slot (variable index), or −1 when the coordinate is a constant. */
    private final int[][] groupSlot;
    /** Per group: number of variables. */
    private final int[] groupVariables;
    /** Index tables per (variables, order), built on first use. */
    private final Map<Long, IndexTables> tables = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Discovers the sparsity of {@code model}'s rates.
     *
     * @param model the model
     */
    public AutomaticRateDerivatives(SmoothPopulationModel model) {
        this(model, discoverSupports(model, model.getDimension(), model.transitions().size()));
    }

    /**
     * Uses supports the model knows structurally (e.g. read off its rate expressions) instead of
     * discovering them at random points.
     *
     * @param model the model
     * @param supports for every transition, the coordinates its rate depends on, strictly increasing
     */
    public AutomaticRateDerivatives(SmoothPopulationModel model, int[][] supports) {
        this.model = model;
        this.sized = model instanceof SizeDependentPopulationModel s ? s : null;
        this.dimension = model.getDimension();
        int count = model.transitions().size();
        if (supports.length != count) {
            throw MflbException.invalid("supports.length", supports.length, "the number of transitions, " + count);
        }
        this.supports = new int[count][];
        for (int l = 0; l < count; l++) {
            this.supports[l] = supports[l].clone();
        }

        SupportColouring colouring = new SupportColouring(supports, dimension);
        this.groupTransitions = colouring.transitions;
        this.groupSlot = colouring.slot;
        this.groupVariables = colouring.variables;
    }

    private static int[][] discoverSupports(SmoothPopulationModel model, int n, int count) {
        boolean[][] depends = new boolean[count][n];
        Random rng = new Random(0x5eed_2019L);
        double[] times = {0.37, 1.91, 7.3};
        for (double t : times) {
            Gradient[] x = new Gradient[n];
            for (int j = 0; j < n; j++) {
                x[j] = Gradient.variable(n, j, 0.15 + 0.7 * rng.nextDouble());
            }
            Gradient[] beta = new Gradient[count];
            if (model instanceof SizeDependentPopulationModel sd) {
                // The corrections may depend on coordinates the limit rates do not: probe at ε ≠ 0.
                sd.fieldRates(t, x, Gradient.constant(n, 0.05 + 0.1 * rng.nextDouble()), beta);
            } else {
                model.fieldRates(t, x, beta);
            }
            for (int l = 0; l < count; l++) {
                if (beta[l] == null) {
                    throw new MflbException(org.mflb.core.ErrorKind.INVALID_PARAMETER, "model",
                            "model.fieldRates left rate " + l + " unset");
                }
                double[] g = beta[l].getGradient();
                for (int j = 0; j < n; j++) {
                    if (g[j] != 0.0) { // NaN counts as a dependence too
                        depends[l][j] = true;
                    }
                }
            }
        }
        return SupportColouring.toSupports(depends);
    }

    @Override
    public int maxOrder() {
        return MAX_ORDER;
    }

    @Override
    public int[] support(int transition) {
        return supports[transition].clone();
    }

    /** @return whether the model's rates depend on {@code N} ({@link SizeDependentPopulationModel}) */
    @Override
    public boolean hasSizeCorrections() {
        return sized != null;
    }

    /** @return number of rate evaluations per point (the number of colour groups) */
    public int groupCount() {
        return groupTransitions.length;
    }

    @Override
    public void evaluate(double t, double[] x, RateJets jets) {
        int order = jets.order();
        if (order > MAX_ORDER) {
            throw MflbException.invalid("jets.order", order, "at most " + MAX_ORDER);
        }
        int count = supports.length;
        DerivativeStructure[] xs = new DerivativeStructure[dimension];
        DerivativeStructure[] beta = new DerivativeStructure[count];
        boolean corrections = sized != null && jets.hasSizeCorrections();
        for (int g = 0; g < groupTransitions.length; g++) {
            int mg = groupVariables[g];
            // With size corrections ε = 1/N is variable mg, and β¹'s Hessian needs total order 3.
            IndexTables tab = tables(mg, corrections ? Math.max(order, 3) : order, corrections);
            int[] slot = groupSlot[g];
            for (int j = 0; j < dimension; j++) {
                xs[j] = slot[j] >= 0 ? tab.factory.variable(slot[j], x[j]) : tab.factory.constant(x[j]);
            }
            if (corrections) {
                sized.fieldRates(t, xs, tab.factory.variable(mg, 0.0), beta);
            } else {
                model.fieldRates(t, xs, beta, groupTransitions[g]);
            }
            for (int l : groupTransitions[g]) {
                double[] all = beta[l].getAllDerivatives();
                jets.setValue(l, all[0]);
                int m = supports[l].length;
                double[] grad = jets.gradient(l);
                for (int a = 0; a < m; a++) {
                    grad[a] = all[tab.first[a]];
                }
                if (order >= 2) {
                    double[] h = jets.hessian(l);
                    for (int a = 0; a < m; a++) {
                        for (int b = 0; b < m; b++) {
                            h[a * m + b] = all[tab.second[a * mg + b]];
                        }
                    }
                }
                if (order >= 3) {
                    double[] d3 = jets.third(l);
                    for (int a = 0; a < m; a++) {
                        for (int b = 0; b < m; b++) {
                            for (int c = 0; c < m; c++) {
                                d3[(a * m + b) * m + c] = all[tab.third[(a * mg + b) * mg + c]];
                            }
                        }
                    }
                }
                if (corrections) {
                    jets.setCorrectionValue(l, all[tab.epsilon]);
                    jets.setSecondCorrectionValue(l, 0.5 * all[tab.epsilonSquared]);
                    double[] cg = jets.correctionGradient(l);
                    double[] ch = jets.correctionHessian(l);
                    for (int a = 0; a < m; a++) {
                        cg[a] = all[tab.epsilonFirst[a]];
                        for (int b = 0; b < m; b++) {
                            ch[a * m + b] = all[tab.epsilonSecond[a * mg + b]];
                        }
                    }
                }
                if (order >= 4) {
                    double[] d4 = jets.fourth(l);
                    for (int a = 0; a < m; a++) {
                        for (int b = 0; b < m; b++) {
                            for (int c = 0; c < m; c++) {
                                for (int d = 0; d < m; d++) {
                                    d4[((a * m + b) * m + c) * m + d] = all[tab.fourth[((a * mg + b) * mg + c) * mg + d]];
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private IndexTables tables(int variables, int order, boolean epsilon) {
        return tables.computeIfAbsent(((long) variables << 9) | ((long) order << 1) | (epsilon ? 1 : 0),
                k -> new IndexTables(variables, order, epsilon));
    }

    /** Where each partial derivative of a symmetric tensor index sits in {@code getAllDerivatives()}. */
    private static final class IndexTables {
        final DSFactory factory;
        final int[] first;
        final int[] second;
        final int[] third;
        final int[] fourth;
        /** Indices of ∂/∂ε, ∂²/∂ε², ∂²/∂ε∂x_a and ∂³/∂ε∂x_a∂x_b, when ε is variable {@code m}. */
        final int epsilon;
        final int epsilonSquared;
        final int[] epsilonFirst;
        final int[] epsilonSecond;

        IndexTables(int m, int order, boolean withEpsilon) {
            int parameters = m + (withEpsilon ? 1 : 0);
            // A structure needs at least one parameter even when every support is empty.
            factory = new DSFactory(Math.max(parameters, 1), order);
            DSCompiler compiler = factory.getCompiler();
            first = new int[m];
            second = order >= 2 ? new int[m * m] : null;
            third = order >= 3 ? new int[m * m * m] : null;
            fourth = order >= 4 ? new int[m * m * m * m] : null;
            int[] orders = new int[Math.max(parameters, 1)];
            if (withEpsilon) {
                epsilonFirst = new int[m];
                epsilonSecond = new int[m * m];
                orders[m] = 1;
                epsilon = compiler.getPartialDerivativeIndex(orders);
                for (int a = 0; a < m; a++) {
                    orders[a]++;
                    epsilonFirst[a] = compiler.getPartialDerivativeIndex(orders);
                    for (int b = 0; b < m; b++) {
                        orders[b]++;
                        epsilonSecond[a * m + b] = compiler.getPartialDerivativeIndex(orders);
                        orders[b]--;
                    }
                    orders[a]--;
                }
                orders[m] = 2;
                epsilonSquared = compiler.getPartialDerivativeIndex(orders);
                orders[m] = 0;
            } else {
                epsilon = -1;
                epsilonSquared = -1;
                epsilonFirst = null;
                epsilonSecond = null;
            }
            for (int a = 0; a < m; a++) {
                orders[a]++;
                first[a] = compiler.getPartialDerivativeIndex(orders);
                for (int b = 0; b < m && order >= 2; b++) {
                    orders[b]++;
                    second[a * m + b] = compiler.getPartialDerivativeIndex(orders);
                    for (int c = 0; c < m && order >= 3; c++) {
                        orders[c]++;
                        third[(a * m + b) * m + c] = compiler.getPartialDerivativeIndex(orders);
                        for (int d = 0; d < m && order >= 4; d++) {
                            orders[d]++;
                            fourth[((a * m + b) * m + c) * m + d] = compiler.getPartialDerivativeIndex(orders);
                            orders[d]--;
                        }
                        orders[c]--;
                    }
                    orders[b]--;
                }
                orders[a]--;
            }
        }
    }
}
