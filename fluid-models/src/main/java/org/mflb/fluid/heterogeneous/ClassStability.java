package org.mflb.fluid.heterogeneous;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;

/**
 * Where the fluid of servers in classes of speeds has a fixed point, and how it grows beyond
 * (docs/models.md §10, "Stability"; the boundary itself is {@link ServerClasses#stabilityBoundary}, the
 * one place that computes it, for the simulator's refusals too). Sort the classes by speed, {@code s_(1) ≤ s_(2) ≤ ...}, and let
 * {@code A_m} and {@code C_m} be the fraction and the capacity of the {@code m} slowest:
 * <pre>
 *   random, uniform sampling:          λ* = min_k s_k
 *   SQ(d), SED(d), uniform sampling:   λ* = min_m C_m / A_m^d      (m = K: λ &lt; C)
 *   speed-weighted sampling:           λ* = C = Σ_k a_k s_k
 * </pre>
 * (a set of servers whose queues are all long receives only the arrivals whose d samples all fall in
 * it, {@code λ A^d} per server, and the slowest classes are the worst set of a given size). Beyond
 * {@code λ*} with uniform sampling, the slowest {@code m} classes with the largest
 * {@code g_m = (λ A_m^d − C_m)/A_m > 0} grow linearly: SQ(d) at {@code g_m} each (it keeps their queues
 * equal), SED(d) at {@code s_k (λ A_m^d − C_m)/C_m} (it keeps {@code (Q+1)/s} equal), random at
 * {@code λ − s_k} for every class slower than {@code λ}. Classes of equal speed are one group: the set
 * boundaries are the speeds' breakpoints.
 *
 * @param lambda the arrival rate per server
 * @param lambdaStar the stability boundary {@code λ*}: a fixed point exists iff {@code λ < λ*}
 * @param overloaded at {@code λ}: whether each class (in the order given) grows without bound
 * @param growthRates at {@code λ}: the growth rate of {@code E[Q_k](t)} of each class, 0 for the classes
 *        that stay at an equilibrium; {@code NaN} for all when not known (speed-weighted sampling beyond {@code C})
 */
public record ClassStability(double lambda, double lambdaStar, boolean[] overloaded, double[] growthRates) {

    /**
     * @param classes the server classes
     * @param rule the dispatching rule
     * @param d servers sampled per arrival
     * @param speedWeighted whether sampling is speed-weighted
     * @param lambda the arrival rate per server
     * @return the boundary, the overloaded classes and their growth rates at {@code lambda}
     */
    public static ClassStability of(ServerClasses classes, ClassRule rule, int d, boolean speedWeighted, double lambda) {
        int k = classes.count();
        boolean[] overloaded = new boolean[k];
        double[] growth = new double[k];
        if (speedWeighted) {
            double c = classes.capacity();
            if (lambda >= c) {
                Arrays.fill(overloaded, true);
                Arrays.fill(growth, Double.NaN);
            }
            return new ClassStability(lambda, classes.stabilityBoundary(d, Sampling.SPEED), overloaded, growth);
        }
        if (rule == ClassRule.RANDOM) {
            for (int c = 0; c < k; c++) {
                if (lambda >= classes.speed(c)) {
                    overloaded[c] = true;
                    growth[c] = lambda - classes.speed(c);
                }
            }
            return new ClassStability(lambda, classes.stabilityBoundary(1, Sampling.REPLACEMENT), overloaded, growth);
        }
        Integer[] bySpeed = IntStream.range(0, k).boxed().toArray(Integer[]::new);
        Arrays.sort(bySpeed, Comparator.comparingDouble(classes::speed));
        double bestGrowth = -1;
        int bestM = 0;
        double a = 0;
        double cap = 0;
        for (int m = 0; m < k; m++) {
            int c = bySpeed[m];
            a += classes.fraction(c);
            cap += classes.fraction(c) * classes.speed(c);
            boolean breakpoint = m == k - 1 || classes.speed(bySpeed[m + 1]) != classes.speed(c);
            if (!breakpoint) {
                continue;
            }
            double ad = Math.pow(a, d);
            double excess = lambda * ad - cap;
            if (excess >= 0 && excess / a > bestGrowth) { // at λ = λ* the binding set, with growth 0
                bestGrowth = excess / a;
                bestM = m + 1;
                Arrays.fill(growth, 0);
                for (int j = 0; j <= m; j++) {
                    growth[bySpeed[j]] = rule == ClassRule.SHORTEST_QUEUE ? excess / a
                            : classes.speed(bySpeed[j]) * excess / cap;
                }
            }
        }
        for (int m = 0; m < bestM; m++) {
            overloaded[bySpeed[m]] = true;
        }
        return new ClassStability(lambda, classes.stabilityBoundary(d, Sampling.REPLACEMENT), overloaded, growth);
    }

    /** @return whether the fluid has a fixed point at this {@code λ} */
    public boolean stable() {
        return lambda < lambdaStar;
    }

    /** @return the classes (numbered from 1, in the order given) that receive more than their capacity */
    public int[] overloadedClasses() {
        return IntStream.range(0, overloaded.length).filter(c -> overloaded[c]).map(c -> c + 1).toArray();
    }

    /** Copies the arrays: the record stays immutable. */
    public ClassStability {
        overloaded = overloaded.clone();
        growthRates = growthRates.clone();
    }

    @Override
    public boolean[] overloaded() {
        return overloaded.clone();
    }

    @Override
    public double[] growthRates() {
        return growthRates.clone();
    }
}
