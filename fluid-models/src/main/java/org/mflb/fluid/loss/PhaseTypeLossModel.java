package org.mflb.fluid.loss;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.ejml.data.DMatrixRMaj;
import org.hipparchus.CalculusFieldElement;
import org.hipparchus.analysis.differentiation.Gradient;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.distribution.PhaseType;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.Transition;
import org.mflb.core.refined.RateDerivatives;
import org.mflb.core.refined.RateJets;
import org.mflb.core.refined.SizeDependentPopulationModel;
import org.hipparchus.analysis.differentiation.DSFactory;
import org.hipparchus.analysis.differentiation.DerivativeStructure;
import org.mflb.fluid.PowerOfD;
import org.mflb.fluid.SmoothRouting;

/**
 * Loss pools of capacity {@code C} under JSQ(d) with phase-type service {@code PH(α, T)} of mean 1,
 * as a population process on the pools' detailed states ({@code docs/models.md §8, sensitivity}).
 * A pool's state is the vector {@code s = (m_1, ..., m_K)} of its jobs per phase,
 * {@code |s| = Σ m_k ≤ C}; the model's coordinates are the fractions {@code y_s} of pools in each
 * non-empty state ({@code y_∅ = 1 − Σ y_s}, the conservation law removed). With
 * {@code x_n = Σ_{|s| ≥ n} y_s} ({@code x_0 = 1}) the tail vector and {@code D(a, b) = (h(a) − h(b))/(a − b)}
 * the divided difference of the selection function (a polynomial: smooth where {@code a = b}),
 * the transitions of one pool are
 * <pre>
 *   arrival in phase k   s → s + e_k   (|s| &lt; C)   at rate  λ α_k y_s D(x_{|s|}, x_{|s|+1}),
 *   phase change k → l   s → s − e_k + e_l          at rate  y_s m_k T_kl,
 *   departure from k     s → s − e_k                at rate  y_s m_k t_k,   t = −T 1,
 * </pre>
 * since an arrival joins a pool with exactly {@code n} jobs with probability
 * {@code h(x_n) − h(x_{n+1})}, uniformly among those pools. With {@code d} distinct pools sampled
 * ({@link PowerOfD#distinct}) the selection is {@code h_N(y) = Π_{j<d} (y − j/N)/(1 − j/N)}, and the
 * rates depend on {@code ε = 1/N} ({@link SizeDependentPopulationModel}). One phase reproduces the
 * scalar model of {@link LossPoolLimit}.
 *
 * <p>The fixed point is insensitive (a product form): {@code y*_s = π*_n · n!/Π m_k! · Π θ_k^{m_k}},
 * {@code n = |s|}, with {@code π*_n = x*_n − x*_{n+1}} the exponential model's occupancy and
 * {@code θ = α(−T)⁻¹} (the phase occupancy of a job in progress).
 *
 * <p>Derivatives: every rate is {@code c · u(y) · D(a(y), b(y))} with {@code u, a, b} affine
 * ({@code y_s} or {@code y_∅}, {@code x_n}, {@code x_{n+1}}), so its gradient and Hessian (and those of
 * the 1/N correction) follow by the chain rule from the partial derivatives of {@code D} in
 * {@code (a, b, ε)}, computed with a three-variable {@code DerivativeStructure}: this is the closed
 * form of {@link RateDerivatives} to order 2 (the 1/N term and the covariance). Immutable.
 */
public final class PhaseTypeLossModel implements SizeDependentPopulationModel, RateDerivatives {

    /**
     * Largest number of pool states accepted: the rates' Hessians are dense over the states with at
     * least n jobs (209 states, Erlang-4 at C = 6: 2 s and about 1 GB; 461 states: 8 s and 3 GB).
     */
    public static final int MAX_STATES = 250;

    private final int capacity;
    private final SmoothRouting policy;
    private final int d;
    private final boolean distinct;
    private final double lambda;
    private final PhaseType service;
    private final int phases;
    /** Non-empty pool states (jobs per phase), ordered by total jobs. */
    private final int[][] states;
    private final int[] jobs;
    private final List<Transition> transitions;
    /** Per transition: kind (0 arrival, 1 phase change, 2 departure), source state (−1: empty), constant factor. */
    private final int[] kind;
    private final int[] source;
    private final double[] factor;
    /** {@code levelStart[n]}: first coordinate with at least {@code n} jobs ({@code n = 1..C+1}). */
    private final int[] levelStart;
    private final int[][] supports;

    private PhaseTypeLossModel(int capacity, SmoothRouting policy, double lambda, PhaseType service) {
        this.capacity = capacity;
        this.policy = policy;
        this.d = policy.d();
        this.distinct = policy.dependsOnSize();
        this.lambda = lambda;
        this.service = service;
        this.phases = service.phases();
        double count = ExactLossChain.stateCount(phases, capacity) - 1; // C(C+K, K) − 1
        if (count > MAX_STATES) {
            throw MflbException.invalid("service", service.spec(), String.format(java.util.Locale.ROOT,
                    "a phase-type law with at most %d pool states C(C+K, K) - 1 (here %.0f with K = %d phases, C = %d)",
                    MAX_STATES, count, phases, capacity));
        }
        List<int[]> all = new ArrayList<>();
        enumerate(new int[phases], 0, capacity, all);
        all.removeIf(s -> total(s) == 0);
        all.sort((p, q) -> Integer.compare(total(p), total(q)));
        this.states = all.toArray(new int[0][]);
        this.jobs = new int[states.length];
        Map<java.nio.IntBuffer, Integer> index = new HashMap<>();
        for (int s = 0; s < states.length; s++) {
            jobs[s] = total(states[s]);
            index.put(java.nio.IntBuffer.wrap(states[s]), s);
        }
        double[] alpha = service.alpha();
        double[][] t = service.subGenerator();
        double[] exit = service.exitRates();
        List<Transition> jumps = new ArrayList<>();
        List<int[]> meta = new ArrayList<>();
        List<Double> factors = new ArrayList<>();
        int[] empty = new int[phases];
        for (int s = -1; s < states.length; s++) {
            int[] m = s < 0 ? empty : states[s];
            if (total(m) == capacity) {
                continue;
            }
            for (int k = 0; k < phases; k++) {
                if (alpha[k] > 0) {
                    jumps.add(jump(s, index.get(java.nio.IntBuffer.wrap(shifted(m, -1, k)))));
                    meta.add(new int[] {0, s});
                    factors.add(lambda * alpha[k]);
                }
            }
        }
        for (int s = 0; s < states.length; s++) {
            int[] m = states[s];
            for (int k = 0; k < phases; k++) {
                if (m[k] == 0) {
                    continue;
                }
                for (int l = 0; l < phases; l++) {
                    if (l != k && t[k][l] > 0) {
                        jumps.add(jump(s, index.get(java.nio.IntBuffer.wrap(shifted(m, k, l)))));
                        meta.add(new int[] {1, s});
                        factors.add(m[k] * t[k][l]);
                    }
                }
                if (exit[k] > 0) {
                    int[] after = shifted(m, k, -1);
                    jumps.add(jump(s, total(after) == 0 ? -1 : index.get(java.nio.IntBuffer.wrap(after))));
                    meta.add(new int[] {2, s});
                    factors.add(m[k] * exit[k]);
                }
            }
        }
        this.transitions = Collections.unmodifiableList(jumps);
        this.kind = new int[jumps.size()];
        this.source = new int[jumps.size()];
        this.factor = new double[jumps.size()];
        for (int l = 0; l < kind.length; l++) {
            kind[l] = meta.get(l)[0];
            source[l] = meta.get(l)[1];
            factor[l] = factors.get(l);
        }
        this.levelStart = new int[capacity + 2];
        for (int n = 1; n <= capacity + 1; n++) {
            int first = 0;
            while (first < states.length && jobs[first] < n) {
                first++;
            }
            levelStart[n] = first;
        }
        this.supports = new int[kind.length][];
        for (int l = 0; l < kind.length; l++) {
            if (kind[l] != 0) {
                supports[l] = new int[] {source[l]};
            } else {
                // y_∅ = 1 − Σ y depends on every coordinate; x_n (n ≥ 1) on those with ≥ n jobs, y_s among them
                int from = source[l] < 0 ? 0 : levelStart[jobs[source[l]]];
                supports[l] = java.util.stream.IntStream.range(from, states.length).toArray();
            }
        }
    }

    /**
     * @param capacity pool capacity {@code C ≥ 1}
     * @param policy random routing or SQ(d) (with replacement or distinct pools)
     * @param lambda per-pool arrival rate {@code λ > 0}
     * @param service a phase-type service law of mean 1
     * @return the population model
     */
    public static PhaseTypeLossModel of(int capacity, SmoothRouting policy, double lambda, PhaseType service) {
        Require.atLeast("capacity", capacity, 1);
        Require.positive("lambda", lambda);
        if (Math.abs(service.mean() - 1) > 1e-9) {
            throw MflbException.invalid("service", service.spec(), "a law of mean 1 (the load is lambda)");
        }
        return new PhaseTypeLossModel(capacity, policy, lambda, service);
    }

    private static Transition jump(int from, int to) {
        TreeMap<Integer, Double> entries = new TreeMap<>();
        if (from >= 0) {
            entries.merge(from, -1.0, Double::sum);
        }
        if (to >= 0) {
            entries.merge(to, 1.0, Double::sum);
        }
        entries.values().removeIf(v -> v == 0.0);
        int[] idx = new int[entries.size()];
        double[] val = new double[entries.size()];
        int i = 0;
        for (Map.Entry<Integer, Double> e : entries.entrySet()) {
            idx[i] = e.getKey();
            val[i++] = e.getValue();
        }
        return new Transition(idx, val);
    }

    /** {@code m − e_from + e_to} (−1: none). */
    private static int[] shifted(int[] m, int from, int to) {
        int[] next = m.clone();
        if (from >= 0) {
            next[from]--;
        }
        if (to >= 0) {
            next[to]++;
        }
        return next;
    }

    private static void enumerate(int[] m, int phase, int left, List<int[]> all) {
        if (phase == m.length) {
            all.add(m.clone());
            return;
        }
        for (int c = 0; c <= left; c++) {
            m[phase] = c;
            enumerate(m, phase + 1, left - c, all);
        }
        m[phase] = 0;
    }

    private static int total(int[] m) {
        int n = 0;
        for (int v : m) {
            n += v;
        }
        return n;
    }

    /** @return the capacity {@code C} */
    public int capacity() {
        return capacity;
    }

    /** @return the policy */
    public SmoothRouting policy() {
        return policy;
    }

    /** @return the load {@code λ} */
    public double lambda() {
        return lambda;
    }

    /** @return the service law */
    public PhaseType service() {
        return service;
    }

    /** @return the pool state of coordinate {@code s} (jobs per phase; a copy) */
    public int[] state(int s) {
        return states[s].clone();
    }

    /** @return the number of jobs of the pool state of coordinate {@code s} */
    public int jobs(int s) {
        return jobs[s];
    }

    @Override
    public int getDimension() {
        return states.length;
    }

    @Override
    public List<Transition> transitions() {
        return transitions;
    }

    @Override
    public ArrivalRate arrivalRate() {
        return ArrivalRate.constant(lambda);
    }

    /**
     * @param y the coordinates {@code y_s}
     * @return the tail vector {@code x_1..x_C}, {@code x_n = Σ_{|s| ≥ n} y_s}
     */
    public double[] tail(double[] y) {
        double[] x = new double[capacity];
        for (int s = 0; s < y.length; s++) {
            for (int n = 0; n < jobs[s]; n++) {
                x[n] += y[s];
            }
        }
        return x;
    }

    /** @return the tail map {@code L} ({@code C × S}, {@code L_{n,s} = 1} if {@code |s| ≥ n}), so {@code x = L y} */
    public DMatrixRMaj tailMap() {
        DMatrixRMaj l = new DMatrixRMaj(capacity, states.length);
        for (int s = 0; s < states.length; s++) {
            for (int n = 0; n < jobs[s]; n++) {
                l.set(n, s, 1.0);
            }
        }
        return l;
    }

    /**
     * The insensitive fixed point {@code y*_s = π*_n · multinomial(n; θ)} built from an exponential
     * tail vector.
     *
     * @param exponentialTail {@code x*_1..x*_C} of the exponential model at the same load
     * @return {@code y*}
     */
    public double[] productForm(double[] exponentialTail) {
        double[] theta = phaseOccupancy();
        double[] y = new double[states.length];
        for (int s = 0; s < states.length; s++) {
            int n = jobs[s];
            double pi = exponentialTail[n - 1] - (n < capacity ? exponentialTail[n] : 0.0);
            double multinomial = 1;
            int placed = 0;
            for (int k = 0; k < phases; k++) {
                for (int j = 1; j <= states[s][k]; j++) {
                    multinomial *= theta[k] * (++placed) / j;
                }
            }
            y[s] = pi * multinomial;
        }
        return y;
    }

    /** @return {@code θ = α(−T)⁻¹}: the fraction of a job's (mean-1) lifetime spent in each phase */
    public double[] phaseOccupancy() {
        double[] alpha = service.alpha();
        double[][] t = service.subGenerator();
        // θ(−T) = α, solved as (−T)ᵀ θᵀ = αᵀ
        DMatrixRMaj m = new DMatrixRMaj(phases, phases);
        for (int i = 0; i < phases; i++) {
            for (int j = 0; j < phases; j++) {
                m.set(j, i, -t[i][j]);
            }
        }
        DMatrixRMaj theta = new DMatrixRMaj(phases, 1);
        org.ejml.dense.row.CommonOps_DDRM.solve(m, new DMatrixRMaj(phases, 1, true, alpha), theta);
        return theta.getData();
    }

    @Override
    public void rates(double t, double[] y, double[] beta) {
        double[] x = new double[capacity + 2];
        x[0] = 1.0;
        double occupied = 0;
        for (int s = 0; s < y.length; s++) {
            occupied += y[s];
            for (int n = 1; n <= jobs[s]; n++) {
                x[n] += y[s];
            }
        }
        double[] dd = new double[capacity];
        for (int n = 0; n < capacity; n++) {
            dd[n] = dividedDifference(x[n], x[n + 1]);
        }
        for (int l = 0; l < beta.length; l++) {
            int s = source[l];
            double ys = s < 0 ? 1.0 - occupied : y[s];
            beta[l] = kind[l] == 0 ? factor[l] * ys * dd[s < 0 ? 0 : jobs[s]] : factor[l] * ys;
        }
    }

    /** {@code (a^d − b^d)/(a − b) = Σ_{j<d} a^j b^{d−1−j}} (with replacement, the limit). */
    private double dividedDifference(double a, double b) {
        double sum = 0;
        double ap = 1;
        for (int j = 0; j < d; j++) {
            double bp = 1;
            for (int r = 0; r < d - 1 - j; r++) {
                bp *= b;
            }
            sum += ap * bp;
            ap *= a;
        }
        return sum;
    }

    @Override
    public <T extends CalculusFieldElement<T>> void fieldRates(double t, T[] y, T inverseSize, T[] beta) {
        T one = y[0].getField().getOne();
        T zero = one.getField().getZero();
        T[] x = org.hipparchus.util.MathArrays.buildArray(one.getField(), capacity + 2);
        java.util.Arrays.fill(x, zero);
        x[0] = one;
        T occupied = zero;
        for (int s = 0; s < y.length; s++) {
            occupied = occupied.add(y[s]);
            for (int n = 1; n <= jobs[s]; n++) {
                x[n] = x[n].add(y[s]);
            }
        }
        T[] dd = org.hipparchus.util.MathArrays.buildArray(one.getField(), capacity);
        for (int n = 0; n < capacity; n++) {
            dd[n] = dividedDifference(x[n], x[n + 1], inverseSize);
        }
        for (int l = 0; l < beta.length; l++) {
            int s = source[l];
            T ys = s < 0 ? one.subtract(occupied) : y[s];
            beta[l] = kind[l] == 0 ? ys.multiply(dd[s < 0 ? 0 : jobs[s]]).multiply(factor[l]) : ys.multiply(factor[l]);
        }
    }

    /**
     * {@code D(a, b) = (h_ε(a) − h_ε(b))/(a − b)} as a polynomial: with
     * {@code h_ε(y) = Σ_r c_r y^r} ({@code Π_{j<d} (y − jε)/(1 − jε)} for distinct pools, {@code y^d}
     * with replacement), {@code D = Σ_r c_r Σ_{i<r} a^i b^{r−1−i}}.
     */
    private <T extends CalculusFieldElement<T>> T dividedDifference(T a, T b, T inverseSize) {
        T one = a.getField().getOne();
        T zero = one.getField().getZero();
        T[] c = org.hipparchus.util.MathArrays.buildArray(one.getField(), d + 1);
        java.util.Arrays.fill(c, zero);
        c[0] = one;
        T norm = one;
        for (int j = 0; j < d; j++) {
            T shift = distinct ? inverseSize.multiply(j) : zero;
            for (int r = j + 1; r >= 1; r--) {
                c[r] = c[r - 1].subtract(c[r].multiply(shift));
            }
            c[0] = c[0].multiply(shift).negate();
            if (distinct) {
                norm = norm.multiply(one.subtract(shift));
            }
        }
        T sum = zero;
        for (int r = 1; r <= d; r++) {
            T inner = zero;
            for (int i = 0; i < r; i++) {
                inner = inner.add(a.pow(i).multiply(b.pow(r - 1 - i)));
            }
            sum = sum.add(c[r].multiply(inner));
        }
        return sum.divide(norm);
    }

    @Override
    public int maxOrder() {
        return 2;
    }

    @Override
    public int[] support(int transition) {
        return supports[transition];
    }

    @Override
    public boolean hasSizeCorrections() {
        return distinct;
    }

    @Override
    public void evaluate(double t, double[] y, RateJets jets) {
        double[] x = new double[capacity + 2];
        x[0] = 1.0;
        double occupied = 0;
        for (int s = 0; s < y.length; s++) {
            occupied += y[s];
            for (int n = 1; n <= jobs[s]; n++) {
                x[n] += y[s];
            }
        }
        // Partial derivatives of D in (a, b, ε) at (x_n, x_{n+1}, 0), per level n.
        DSFactory factory = new DSFactory(3, 3);
        double[][] partial = new double[capacity][];
        for (int n = 0; n < capacity; n++) {
            DerivativeStructure dd = dividedDifference(factory.variable(0, x[n]), factory.variable(1, x[n + 1]),
                    factory.variable(2, 0.0));
            partial[n] = new double[] {dd.getValue(), dd.getPartialDerivative(1, 0, 0), dd.getPartialDerivative(0, 1, 0),
                dd.getPartialDerivative(2, 0, 0), dd.getPartialDerivative(1, 1, 0), dd.getPartialDerivative(0, 2, 0),
                dd.getPartialDerivative(0, 0, 1), dd.getPartialDerivative(1, 0, 1), dd.getPartialDerivative(0, 1, 1),
                dd.getPartialDerivative(2, 0, 1), dd.getPartialDerivative(1, 1, 1), dd.getPartialDerivative(0, 2, 1),
                0.5 * dd.getPartialDerivative(0, 0, 2)};
        }
        boolean corrections = jets.hasSizeCorrections();
        boolean second = jets.order() >= 2;
        for (int l = 0; l < kind.length; l++) {
            int s = source[l];
            double[] gradient = jets.gradient(l);
            double[] hessian = second ? jets.hessian(l) : null;
            if (kind[l] != 0) {
                jets.setValue(l, factor[l] * y[s]);
                gradient[0] = factor[l];
                if (second) {
                    hessian[0] = 0.0;
                }
                if (corrections) {
                    jets.setCorrectionValue(l, 0.0);
                    jets.setSecondCorrectionValue(l, 0.0);
                    jets.correctionGradient(l)[0] = 0.0;
                    jets.correctionHessian(l)[0] = 0.0;
                }
                continue;
            }
            int[] support = supports[l];
            int m = support.length;
            int n = s < 0 ? 0 : jobs[s];
            double u = s < 0 ? 1.0 - occupied : y[s];
            double[] gu = new double[m];
            double[] ga = new double[m];
            double[] gb = new double[m];
            for (int j = 0; j < m; j++) {
                gu[j] = s < 0 ? -1.0 : support[j] == s ? 1.0 : 0.0;
                ga[j] = n == 0 ? 0.0 : 1.0;
                gb[j] = jobs[support[j]] >= n + 1 ? 1.0 : 0.0;
            }
            double c = factor[l];
            double[] p = partial[n];
            jets.setValue(l, c * u * p[0]);
            chainRule(c, u, gu, ga, gb, p[0], p[1], p[2], p[3], p[4], p[5], gradient, hessian);
            if (corrections) {
                jets.setCorrectionValue(l, c * u * p[6]);
                jets.setSecondCorrectionValue(l, c * u * p[12]);
                chainRule(c, u, gu, ga, gb, p[6], p[7], p[8], p[9], p[10], p[11], jets.correctionGradient(l),
                        jets.correctionHessian(l));
            }
        }
    }

    /** Gradient and Hessian of {@code c·u·D(a, b)} over the support, {@code u, a, b} affine with gradients {@code gu, ga, gb}. */
    private static void chainRule(double c, double u, double[] gu, double[] ga, double[] gb, double dv, double da,
            double db, double daa, double dab, double dbb, double[] gradient, double[] hessian) {
        int m = gu.length;
        double[] gd = new double[m];
        for (int j = 0; j < m; j++) {
            gd[j] = da * ga[j] + db * gb[j];
            gradient[j] = c * (dv * gu[j] + u * gd[j]);
        }
        if (hessian == null) {
            return;
        }
        for (int j = 0; j < m; j++) {
            for (int k = 0; k < m; k++) {
                hessian[j * m + k] = c * (gu[j] * gd[k] + gu[k] * gd[j] + u * (daa * ga[j] * ga[k]
                        + dab * (ga[j] * gb[k] + gb[j] * ga[k]) + dbb * gb[j] * gb[k]));
            }
        }
    }

    /** The exact Jacobian of the limit drift, by forward automatic differentiation of the rates. */
    @Override
    public void jacobian(double t, double[] y, DMatrixRMaj jacobian) {
        int n = y.length;
        Gradient[] yg = new Gradient[n];
        for (int j = 0; j < n; j++) {
            yg[j] = Gradient.variable(n, j, y[j]);
        }
        Gradient[] beta = new Gradient[transitions.size()];
        fieldRates(t, yg, Gradient.constant(n, 0.0), beta);
        jacobian.reshape(n, n);
        jacobian.zero();
        for (int l = 0; l < beta.length; l++) {
            Transition jump = transitions.get(l);
            double[] g = beta[l].getGradient();
            for (int k = 0; k < jump.size(); k++) {
                int i = jump.index(k);
                double v = jump.value(k);
                for (int j = 0; j < n; j++) {
                    if (g[j] != 0) {
                        jacobian.add(i, j, v * g[j]);
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return policy.limit().name() + (distinct ? " (distinct pools)" : "") + " on loss pools (C = " + capacity
                + "), lambda = " + lambda + ", service " + service.spec() + " (" + states.length + " pool states)";
    }
}
