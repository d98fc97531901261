package org.mflb.fluid.memory;

import org.mflb.core.model.MemoryState;

/**
 * The (queue, observation) pairs {@code 0 ≤ i ≤ j ≤ K} of SQ(d) with memory, stored flat at
 * {@code index(i, j) = j(j+1)/2 + i}, and the functions of a state {@code y_{i,j}} that every result
 * reports ({@code docs/models.md §1a}): the queue-length law {@code z_i = Σ_j y_{i,j}}, the tail
 * {@code x_i = Σ_{k≥i} z_k}, the masses {@code M_j = Σ_{i≤j} y_{i,j}} at each observation level, the
 * pool share {@code F_k = 1 − d Σ_{m=1}^{k} (1 − x_m)} and the shares of arrivals by what they find.
 */
final class MemoryLattice {

    /** Below this, the mass at the active level counts as gone (its composition is then {@code δ_{i=ℓ}}). */
    static final double EMPTY_LEVEL = 1e-14;

    final int levels;
    final int size;

    /** @param levels the largest observation level kept, {@code K} */
    MemoryLattice(int levels) {
        this.levels = levels;
        this.size = (levels + 1) * (levels + 2) / 2;
    }

    static int index(int i, int j) {
        return j * (j + 1) / 2 + i;
    }

    /** @return the state as a flat vector of this lattice (the state must fit) */
    double[] flatten(MemoryState state) {
        double[] y = new double[size];
        for (int j = 0; j <= state.maxObservation(); j++) {
            for (int i = 0; i <= j; i++) {
                y[index(i, j)] = state.share(i, j);
            }
        }
        return y;
    }

    /** @return {@code z_i}, {@code i = 0..K} */
    double[] queueLaw(double[] y) {
        double[] z = new double[levels + 1];
        queueLaw(y, z);
        return z;
    }

    /** Sets {@code z_i}, {@code i = 0..K} (the drift's evaluations allocate nothing). */
    void queueLaw(double[] y, double[] z) {
        java.util.Arrays.fill(z, 0, levels + 1, 0.0);
        for (int j = 0; j <= levels; j++) {
            int base = index(0, j);
            for (int i = 0; i <= j; i++) {
                z[i] += y[base + i];
            }
        }
    }

    /** @return {@code (x_1..x_K)} from {@code z} (summed from the top, so small tails keep their precision) */
    static double[] tail(double[] z) {
        double[] x = new double[z.length - 1];
        double above = 0;
        for (int i = z.length - 1; i >= 1; i--) {
            above += z[i];
            x[i - 1] = above;
        }
        return x;
    }

    /** @return {@code M_j = Σ_{i≤j} y_{i,j}} */
    static double mass(double[] y, int j) {
        int base = index(0, j);
        double m = 0;
        for (int i = 0; i <= j; i++) {
            m += y[base + i];
        }
        return m;
    }

    /**
     * @param z the queue law
     * @return {@code F_k = 1 − d Σ_{m=1}^{k} (1 − x_m)} for {@code k = 0..K}, with {@code 1 − x_m = Σ_{i<m} z_i}
     *         summed from the bottom (the gaps near full levels keep their precision)
     */
    static double[] poolShares(double[] z, int d) {
        double[] f = new double[z.length];
        f[0] = 1.0;
        double gap = 0;
        double sum = 0;
        for (int k = 1; k < z.length; k++) {
            gap += z[k - 1];
            sum += gap;
            f[k] = 1.0 - d * sum;
        }
        return f;
    }

    /** @return {@code F_k} alone (as {@link #poolShares}) */
    static double poolShare(double[] z, int d, int k) {
        double gap = 0;
        double sum = 0;
        for (int m = 1; m <= k; m++) {
            gap += z[m - 1];
            sum += gap;
        }
        return k == 0 ? 1.0 : 1.0 - d * sum;
    }

    /** @return the lowest observation level carrying positive mass */
    int lowestOccupied(double[] y) {
        for (int j = 0; j <= levels; j++) {
            if (mass(y, j) > 0) {
                return j;
            }
        }
        return levels;
    }

    /**
     * The composition of the active level {@code ℓ}, {@code c_i = y_{i,ℓ}/M_ℓ} ({@code i = 0..ℓ}); below
     * {@link #EMPTY_LEVEL} the divisor is that floor and the rest of the flux goes to {@code i = ℓ}, so a
     * vanishing level hands its arrivals to {@code δ_{i=ℓ}} continuously.
     */
    static double[] composition(double[] y, int ell) {
        double[] c = new double[ell + 1];
        double m = Math.max(mass(y, ell), EMPTY_LEVEL);
        int base = index(0, ell);
        double lower = 0;
        for (int i = 0; i < ell; i++) {
            c[i] = Math.max(y[base + i], 0.0) / m;
            lower += c[i];
        }
        c[ell] = Math.max(0.0, 1.0 - lower);
        return c;
    }

    /**
     * The shares of arrivals by the queue length they join, {@code a_k}: a job finds {@code k < ℓ} jobs
     * when it lifts a sampled server through level {@code k}, share {@code d(1 − x_{k+1})}; it finds
     * {@code k} at the active level with share {@code F_ℓ c_k}.
     *
     * @return {@code a_k} for {@code k = 0..K}, summing to 1
     */
    double[] joinLaw(double[] y, int ell, int d) {
        double[] z = queueLaw(y);
        double[] f = poolShares(z, d);
        double[] a = new double[levels + 1];
        double below = 0;
        for (int k = 0; k < ell; k++) {
            below += z[k];
            a[k] = d * below;
        }
        double[] c = composition(y, ell);
        for (int i = 0; i <= ell; i++) {
            a[i] += f[ell] * c[i];
        }
        return a;
    }

    /** @return {@code s_j = Σ_{k≥j} a_k}, the share of arrivals joining a queue with at least {@code j} jobs, {@code j = 0..K} */
    double[] joinShares(double[] y, int ell, int d) {
        double[] a = joinLaw(y, ell, d);
        double[] s = new double[a.length];
        double above = 0;
        for (int k = a.length - 1; k >= 0; k--) {
            above += a[k];
            s[k] = above;
        }
        s[0] = 1.0;
        return s;
    }

    /** @return the share of arrivals sent to an idle server, {@code a_0} */
    double idleShare(double[] y, int ell, int d) {
        return joinLaw(y, ell, d)[0];
    }

    /**
     * @return the share of arrivals sent to a server the dispatcher believes idle ({@code m = 0}):
     *         all of them at {@code ℓ = 0}, else the sampled idle servers', {@code d(1 − x_1)}
     */
    double believedIdleShare(double[] y, int ell, int d) {
        return ell == 0 ? 1.0 : Math.min(1.0, d * queueLaw(y)[0]);
    }

    /** @return {@code E[m − Q] = Σ (j − i) y_{i,j}} */
    double meanObservationExcess(double[] y) {
        double e = 0;
        for (int j = 1; j <= levels; j++) {
            int base = index(0, j);
            for (int i = 0; i < j; i++) {
                e += (j - i) * y[base + i];
            }
        }
        return e;
    }

    /** @return the largest queue length held by more than {@code threshold} of the servers (0 if none) */
    int maxQueueLength(double[] y, double threshold) {
        double[] z = queueLaw(y);
        for (int i = levels; i >= 1; i--) {
            if (z[i] > threshold) {
                return i;
            }
        }
        return 0;
    }

    /** @return {@code y} as rows {@code [j][i]} (a new array) */
    double[][] rows(double[] y) {
        double[][] r = new double[levels + 1][];
        for (int j = 0; j <= levels; j++) {
            r[j] = new double[j + 1];
            System.arraycopy(y, index(0, j), r[j], 0, j + 1);
        }
        return r;
    }
}
