package org.mflb.core.refined;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hipparchus.ode.ODEState;
import org.hipparchus.ode.OrdinaryDifferentialEquation;
import org.hipparchus.ode.nonstiff.DormandPrince853Integrator;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/**
 * Test oracle: the exact law of a density-dependent population process with a finite reachable
 * state space, for a given N. States {@code x = k/N} with integer {@code k} in {@code [0, N]^K} are
 * enumerated from a start state; transition {@code ℓ} (integer jump) fires at rate
 * {@code N β_ℓ(k/N, t)}.
 * <ul>
 * <li>Stationary law: GTH (Grassmann–Taksar–Heyman) state reduction, which involves no
 *     subtraction and is accurate to a few ulps whatever the conditioning; states are ordered
 *     lexicographically with the last coordinate most significant, which makes the generator
 *     banded and the cost {@code O(S·bw²)}.</li>
 * <li>Transient law: Kolmogorov forward equations integrated by Dormand–Prince 8(5,3) with
 *     tolerances 1e-13/1e-12.</li>
 * </ul>
 * Independent of everything it checks: only the model's plain rates are used.
 */
final class ExactCtmc {

    final int dimension;
    final int n;
    final int[][] states;
    private final PopulationModel model;
    /** {@code next[s][l]}: index of the state reached by transition {@code l}, or −1 outside the space. */
    private final int[][] next;
    private double[] stationary;

    ExactCtmc(PopulationModel model, int n, int[] start) {
        this.model = model;
        this.dimension = model.getDimension();
        this.n = n;
        List<Transition> jumps = model.transitions();
        int count = jumps.size();
        int[][] steps = new int[count][dimension];
        for (int l = 0; l < count; l++) {
            Transition t = jumps.get(l);
            for (int k = 0; k < t.size(); k++) {
                steps[l][t.index(k)] = (int) Math.round(t.value(k));
            }
        }
        Map<Long, Integer> seen = new HashMap<>();
        List<int[]> list = new ArrayList<>();
        list.add(start.clone());
        seen.put(key(start), 0);
        double[] beta = new double[count];
        double[] x = new double[dimension];
        for (int s = 0; s < list.size(); s++) {
            int[] k = list.get(s);
            rates(k, 0.0, x, beta);
            for (int l = 0; l < count; l++) {
                if (beta[l] > 0) {
                    int[] target = add(k, steps[l]);
                    if (seen.putIfAbsent(key(target), list.size()) == null) {
                        list.add(target);
                    }
                }
            }
        }
        Comparator<int[]> lastMajor = (p, q) -> {
            for (int i = dimension - 1; i >= 0; i--) {
                if (p[i] != q[i]) {
                    return Integer.compare(p[i], q[i]);
                }
            }
            return 0;
        };
        list.sort(lastMajor);
        states = list.toArray(new int[0][]);
        Map<Long, Integer> index = new HashMap<>();
        for (int s = 0; s < states.length; s++) {
            index.put(key(states[s]), s);
        }
        next = new int[states.length][count];
        for (int s = 0; s < states.length; s++) {
            for (int l = 0; l < count; l++) {
                Integer j = index.get(key(add(states[s], steps[l])));
                next[s][l] = j == null ? -1 : j;
            }
        }
    }

    private long key(int[] k) {
        long key = 0;
        for (int i = dimension - 1; i >= 0; i--) {
            key = key * (2L * n + 3) + (k[i] + n + 1);
        }
        return key;
    }

    private void rates(int[] k, double t, double[] x, double[] beta) {
        for (int i = 0; i < dimension; i++) {
            x[i] = k[i] / (double) n;
        }
        model.rates(t, x, beta);
    }

    private static int[] add(int[] k, int[] step) {
        int[] r = k.clone();
        for (int i = 0; i < r.length; i++) {
            r[i] += step[i];
        }
        return r;
    }

    /** Stationary probabilities (rates at t = 0), by banded GTH. */
    double[] stationary() {
        if (stationary != null) {
            return stationary;
        }
        int size = states.length;
        int count = next[0].length;
        double[] beta = new double[count];
        double[] x = new double[dimension];
        int bw = 0;
        for (int s = 0; s < size; s++) {
            rates(states[s], 0.0, x, beta);
            for (int l = 0; l < count; l++) {
                if (beta[l] > 0) {
                    bw = Math.max(bw, Math.abs(next[s][l] - s));
                }
            }
        }
        int width = 2 * bw + 1;
        double[] band = new double[size * width];
        for (int s = 0; s < size; s++) {
            rates(states[s], 0.0, x, beta);
            for (int l = 0; l < count; l++) {
                if (beta[l] > 0 && next[s][l] != s) {
                    band[s * width + next[s][l] - s + bw] += n * beta[l];
                }
            }
        }
        double[] out = new double[size];
        for (int k = size - 1; k >= 1; k--) {
            int lo = Math.max(0, k - bw);
            double sum = 0;
            for (int j = lo; j < k; j++) {
                sum += band[k * width + j - k + bw];
            }
            out[k] = sum;
            for (int i = lo; i < k; i++) {
                double pik = band[i * width + k - i + bw];
                if (pik == 0) {
                    continue;
                }
                double factor = pik / sum;
                for (int j = lo; j < k; j++) {
                    if (j != i) {
                        band[i * width + j - i + bw] += factor * band[k * width + j - k + bw];
                    }
                }
            }
        }
        double[] p = new double[size];
        p[0] = 1;
        double total = 1;
        for (int k = 1; k < size; k++) {
            int lo = Math.max(0, k - bw);
            double sum = 0;
            for (int i = lo; i < k; i++) {
                sum += p[i] * band[i * width + k - i + bw];
            }
            p[k] = sum / out[k];
            total += p[k];
        }
        for (int k = 0; k < size; k++) {
            p[k] /= total;
        }
        stationary = p;
        return p;
    }

    /** Stationary mean {@code E[X^N]}. */
    double[] mean() {
        return mean(stationary());
    }

    private double[] mean(double[] p) {
        double[] m = new double[dimension];
        for (int s = 0; s < states.length; s++) {
            for (int i = 0; i < dimension; i++) {
                m[i] += p[s] * states[s][i] / n;
            }
        }
        return m;
    }

    /** Stationary covariance of {@code X^N}, row-major. */
    double[] covariance() {
        double[] p = stationary();
        double[] m = mean(p);
        double[] c = new double[dimension * dimension];
        for (int s = 0; s < states.length; s++) {
            for (int i = 0; i < dimension; i++) {
                double di = states[s][i] / (double) n - m[i];
                for (int j = 0; j < dimension; j++) {
                    c[i * dimension + j] += p[s] * di * (states[s][j] / (double) n - m[j]);
                }
            }
        }
        return c;
    }

    /** Exact {@code E[X^N(t)]} at the given increasing times, from the deterministic state {@code start} at time 0. */
    double[][] transientMeans(int[] start, double[] times) {
        int size = states.length;
        int count = next[0].length;
        double[] p0 = new double[size];
        for (int s = 0; s < size; s++) {
            if (java.util.Arrays.equals(states[s], start)) {
                p0[s] = 1;
            }
        }
        double[] x = new double[dimension];
        double[] beta = new double[count];
        OrdinaryDifferentialEquation kolmogorov = new OrdinaryDifferentialEquation() {
            @Override
            public int getDimension() {
                return size;
            }

            @Override
            public double[] computeDerivatives(double t, double[] p) {
                double[] dp = new double[size];
                for (int s = 0; s < size; s++) {
                    if (p[s] == 0) {
                        continue;
                    }
                    rates(states[s], t, x, beta);
                    for (int l = 0; l < count; l++) {
                        if (beta[l] > 0) {
                            int j = next[s][l];
                            if (j < 0) {
                                throw new IllegalStateException("the chain leaves the enumerated state space");
                            }
                            double flow = n * beta[l] * p[s];
                            dp[s] -= flow;
                            dp[j] += flow;
                        }
                    }
                }
                return dp;
            }
        };
        DormandPrince853Integrator integrator = new DormandPrince853Integrator(0, times[times.length - 1], 1e-13, 1e-12);
        double[][] means = new double[times.length][];
        double[] p = p0;
        double t = 0;
        for (int k = 0; k < times.length; k++) {
            if (times[k] > t) {
                p = integrator.integrate(kolmogorov, new ODEState(t, p), times[k]).getPrimaryState();
                t = times[k];
            }
            means[k] = mean(p);
        }
        return means;
    }
}
