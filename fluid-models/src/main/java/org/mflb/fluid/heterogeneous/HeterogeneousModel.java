package org.mflb.fluid.heterogeneous;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import org.hipparchus.CalculusFieldElement;
import org.mflb.core.Require;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;
import org.mflb.core.refined.SmoothPopulationModel;
import org.mflb.core.system.ServerClasses;

/**
 * The density-dependent population process of single-server FIFO queues in classes of speeds
 * (docs/models.md §10). The state is {@code y_{k,i}}, the fraction of all servers that are of class
 * {@code k} and hold at least {@code i} jobs, {@code i = 1..L} ({@code y_{k,0} = a_k},
 * {@code y_{k,L+1} = 0}), stored level by level: index {@code (i−1)·K + k}. With
 * {@code p_{k,q} = y_{k,q} − y_{k,q+1}} and the arrival shares {@code r_{k,q}(y)} of the policy,
 * <pre>
 *   dy_{k,i}/dt = λ(t)·r_{k,i−1}(y) − s_k·p_{k,i},     i = 1..L,  k = 1..K,
 * </pre>
 * transitions {@code +e_{k,i}} at rate {@code λ r_{k,i−1}} and {@code −e_{k,i}} at rate {@code s_k p_{k,i}}.
 * The shares are written with the sampling weights {@code w_{k,q} = p_{k,q}} (uniform sampling) or
 * {@code w_{k,q} = s_k p_{k,q}/C} (speed-weighted sampling) and {@code h_d(A, B) = Σ_{j<d} A^j B^{d−1−j}}:
 * random {@code r = w}; SQ(d) {@code r_{k,q} = w_{k,q} h_d(W_q, W_{q+1})} with the weighted tails
 * {@code W_q = Σ_k} (weight of {@code y_{k,q}}); SED(d) {@code r_{k,q} = w_{k,q} h_d(T_v, T_v − M_v)},
 * {@code v = (q+1)/s_k}. With sampling with replacement this is the exact law of the finite system
 * at every {@code N}, so the refined expansions apply (the rates are polynomials, written once over
 * a field for exact derivatives).
 *
 * <p>An arrival that would be the {@code (L+1)}-th job of its server is lost: the truncation, kept
 * below a tolerance by {@link HeterogeneousFluid}.
 */
public final class HeterogeneousModel implements SmoothPopulationModel {

    private final ServerClasses classes;
    private final ClassRule rule;
    private final int d;
    private final boolean speedWeighted;
    private final ArrivalRate lambda;
    private final int levels;
    private final int k;
    private final double[] weight;
    private final List<Transition> transitions;
    /** SED: the pairs (k, q), q = 0..L, in decreasing value; bucketStart marks where each value begins. */
    private final int[] sedOrder;
    private final boolean[] bucketStart;

    /**
     * @param classes the server classes
     * @param rule the dispatching rule
     * @param d servers sampled per arrival ({@code 1} for random)
     * @param speedWeighted whether each sample picks a server with probability proportional to its speed
     * @param lambda arrival rate per server
     * @param levels levels {@code L ≥ 1} kept per class
     */
    public HeterogeneousModel(ServerClasses classes, ClassRule rule, int d, boolean speedWeighted, ArrivalRate lambda,
            int levels) {
        this.classes = classes;
        this.rule = rule;
        this.d = rule == ClassRule.RANDOM ? 1 : Require.atLeast("d", d, 1);
        this.speedWeighted = speedWeighted;
        this.lambda = lambda;
        this.levels = Require.atLeast("levels", levels, 1);
        this.k = classes.count();
        this.weight = new double[k];
        double capacity = classes.capacity();
        for (int c = 0; c < k; c++) {
            weight[c] = speedWeighted ? classes.speed(c) / capacity : 1.0;
        }
        List<Transition> jumps = new ArrayList<>(2 * k * levels);
        for (int i = 0; i < k * levels; i++) {
            jumps.add(Transition.unit(i, +1.0));
            jumps.add(Transition.unit(i, -1.0));
        }
        this.transitions = Collections.unmodifiableList(jumps);
        if (rule == ClassRule.SHORTEST_EXPECTED_DELAY) {
            int pairs = k * (levels + 1);
            Integer[] order = new Integer[pairs];
            for (int p = 0; p < pairs; p++) {
                order[p] = p;
            }
            // pair p = q·K + c; decreasing value (q+1)/s_c, compared exactly
            Comparator<Integer> byValue = (p1, p2) -> classes.compareValues(p2 % k, p2 / k, p1 % k, p1 / k);
            java.util.Arrays.sort(order, byValue);
            sedOrder = new int[pairs];
            bucketStart = new boolean[pairs];
            for (int p = 0; p < pairs; p++) {
                sedOrder[p] = order[p];
                bucketStart[p] = p == 0 || byValue.compare(order[p - 1], order[p]) != 0;
            }
        } else {
            sedOrder = null;
            bucketStart = null;
        }
    }

    /** @return a copy with {@code levels} levels per class */
    public HeterogeneousModel withLevels(int newLevels) {
        return new HeterogeneousModel(classes, rule, d, speedWeighted, lambda, newLevels);
    }

    /** @return a copy with another arrival rate */
    public HeterogeneousModel withArrivalRate(ArrivalRate rate) {
        return new HeterogeneousModel(classes, rule, d, speedWeighted, rate, levels);
    }

    /** @return the server classes */
    public ServerClasses classes() {
        return classes;
    }

    /** @return the rule */
    public ClassRule rule() {
        return rule;
    }

    /** @return servers sampled per arrival */
    public int d() {
        return d;
    }

    /** @return whether sampling is speed-weighted */
    public boolean speedWeighted() {
        return speedWeighted;
    }

    /** @return levels {@code L} per class */
    public int levels() {
        return levels;
    }

    /** @return index of {@code y_{c,i}} in the state, {@code i = 1..L} */
    public int index(int c, int i) {
        return (i - 1) * k + c;
    }

    @Override
    public int getDimension() {
        return k * levels;
    }

    @Override
    public List<Transition> transitions() {
        return transitions;
    }

    @Override
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    @Override
    public int[] jacobianBandwidth() {
        if (rule == ClassRule.SHORTEST_EXPECTED_DELAY) {
            return SmoothPopulationModel.super.jacobianBandwidth();
        }
        // y_{c,i}' depends on the levels i−1, i, i+1 of every class
        int band = Math.min(getDimension() - 1, 2 * k - 1);
        return new int[] {band, band};
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] y, T[] beta) {
        T zero = y[0].getField().getZero();
        int pairs = k * (levels + 1);
        // weighted masses w_{c,q}, pair q·K + c, q = 0..L
        T[] w = org.hipparchus.util.MathArrays.buildArray(y[0].getField(), pairs);
        for (int q = 0; q <= levels; q++) {
            for (int c = 0; c < k; c++) {
                T upper = q == 0 ? zero.add(classes.fraction(c)) : y[index(c, q)];
                T p = q == levels ? upper : upper.subtract(y[index(c, q + 1)]);
                w[q * k + c] = p.multiply(weight[c]);
            }
        }
        T[] share = org.hipparchus.util.MathArrays.buildArray(y[0].getField(), pairs);
        switch (rule) {
            case RANDOM -> System.arraycopy(w, 0, share, 0, pairs);
            case SHORTEST_QUEUE -> {
                // W_q from the top level down: W_{L+1} = 0
                T below = zero;
                for (int q = levels; q >= 0; q--) {
                    T levelMass = zero;
                    for (int c = 0; c < k; c++) {
                        levelMass = levelMass.add(w[q * k + c]);
                    }
                    T above = below.add(levelMass);
                    T h = selection(above, below);
                    for (int c = 0; c < k; c++) {
                        share[q * k + c] = w[q * k + c].multiply(h);
                    }
                    below = above;
                }
            }
            case SHORTEST_EXPECTED_DELAY -> {
                // buckets of equal value, from the largest value down: T_v accumulates
                T atLeast = zero;
                int p = 0;
                while (p < pairs) {
                    int end = p + 1;
                    while (end < pairs && !bucketStart[end]) {
                        end++;
                    }
                    T bucket = zero;
                    for (int j = p; j < end; j++) {
                        bucket = bucket.add(w[sedOrder[j]]);
                    }
                    T strictlyAbove = atLeast;
                    atLeast = atLeast.add(bucket);
                    T h = selection(atLeast, strictlyAbove);
                    for (int j = p; j < end; j++) {
                        share[sedOrder[j]] = w[sedOrder[j]].multiply(h);
                    }
                    p = end;
                }
            }
            default -> throw new IllegalStateException(rule.toString());
        }
        double rate = lambda.at(t);
        for (int i = 1; i <= levels; i++) {
            for (int c = 0; c < k; c++) {
                int x = index(c, i);
                beta[2 * x] = share[(i - 1) * k + c].multiply(rate);
                T p = i == levels ? y[x] : y[x].subtract(y[index(c, i + 1)]);
                beta[2 * x + 1] = p.multiply(classes.speed(c));
            }
        }
    }

    /** {@code h_d(A, B) = Σ_{j=0}^{d−1} A^j B^{d−1−j}} ({@code = (A^d − B^d)/(A − B)}, no 0/0). */
    private <T extends CalculusFieldElement<T>> T selection(T a, T b) {
        T sum = a.getField().getZero();
        T aPower = a.getField().getOne();
        for (int j = 0; j < d; j++) {
            sum = sum.add(aPower.multiply(b.pow(d - 1 - j)));
            aPower = aPower.multiply(a);
        }
        return sum;
    }
}
