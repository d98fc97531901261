package org.mflb.pde.workload;

import org.mflb.core.distribution.ServiceDistribution;

/**
 * What lies beyond the grid's end {@code w_max} (docs/models.md §11.2). By (E2),
 * {@code F̄(w) = λ P(U + Xe > w)}; keeping only the part of {@code U}'s law on the grid gives, for
 * {@code w > w_max},
 * <pre>
 *   F̃(w) = λ [ Ḡe(w) + ∫_0^{w_max} F̄(u)^d Ḡ(w − u) du ]  ≤  F̄(w),
 *   F̄(w) − F̃(w) = λ ∫_{w_max}^w F̄(u)^d Ḡ(w − u) du,   whose integral over (w_max, ∞) is λ T,
 * </pre>
 * with {@code T = ∫_{w_max}^∞ F̄^d} the tail term of {@code E[W]}. Hence, with {@code T̃ = ∫ F̃^d}
 * and {@code c = d λ F̄(w_max)^{d−1}} (mean value theorem, {@code F̄ ≤ F̄(w_max)} beyond):
 * {@code T̃ ≤ T ≤ T̃/(1 − c)}; for {@code d = 1} the relation is exact, {@code T = T̃/(1 − λ)}. The
 * mean workload's tail is {@code ∫ F̃ + λT}. {@code T} is reported as {@code T̃} ({@code d ≥ 2}) or
 * {@code T̃/(1 − λ)} ({@code d = 1}), with the uncertainty {@code T̃ c/(1 − c)} ({@code d ≥ 2}).
 *
 * <p>The inner integral uses the grid's {@code F̄^d} lumped into at most {@link #GROUPS} groups (mass
 * at their centroid; at a distance {@code D} beyond {@code w_max}, groups up to {@code D/128} wide);
 * the outer one Gauss–Legendre on {@code [w_max + 2^{i−1}, w_max + 2^i]}
 * until an interval adds less than {@code 1e-13} of the total (a power-law tail is closed by its
 * geometric remainder). The integrals are computed on first use (not thread-safe before).
 */
final class TailTerm {

    /** Largest number of lumped groups in the inner integral. */
    static final int GROUPS = 256;
    private static final int MAX_INTERVALS = 160;
    private static final double[] GL_X = {-0.9739065285171717, -0.8650633666889845, -0.6794095682990244,
        -0.4333953941292472, -0.1488743389816312, 0.1488743389816312, 0.4333953941292472, 0.6794095682990244,
        0.8650633666889845, 0.9739065285171717};
    private static final double[] GL_W = {0.0666713443086881, 0.1494513491505806, 0.2190863625159820,
        0.2692667193099963, 0.2955242247147529, 0.2955242247147529, 0.2692667193099963, 0.2190863625159820,
        0.1494513491505806, 0.0666713443086881};

    private final ServiceDistribution law;
    private final double lambda;
    private final int d;
    private final double reach;
    /**
     * Lumped {@code F̄^d} at levels {@code ℓ = 0, 1, ...}: groups of {@code 2^ℓ} base groups, masses
     * and centroids; level 0 has at most {@link #GROUPS} groups.
     */
    private final double[][] mass;
    private final double[][] at;
    private final double baseWidth;
    /** Lumped law of {@code U} on {@code (0, w_max]}: masses and centroids, plus its atom at 0. */
    private final double[] uMass;
    private final double[] uAt;
    private final double atom;
    private final boolean compute;
    private final double contraction;
    private double waitTail = Double.NaN;
    private double workTail;
    private double uncertainty;

    TailTerm(LeastLoaded model, double h, double[] p, boolean compute) {
        this.law = model.service();
        this.lambda = model.lambda();
        this.d = model.d();
        this.compute = compute;
        int cells = p.length - 1;
        this.reach = cells * h;
        int group = Math.max(1, (cells + GROUPS - 1) / GROUPS);
        int groups = (cells + group - 1) / group;
        this.baseWidth = group * h;
        double[] m0 = new double[groups];
        double[] x0 = new double[groups];
        uMass = new double[groups];
        uAt = new double[groups];
        for (int g = 0; g < groups; g++) {
            double m = 0;
            double mx = 0;
            double um = 0;
            double umx = 0;
            for (int i = g * group; i < Math.min(cells, (g + 1) * group); i++) {
                double cm = 0.5 * (p[i] + p[i + 1]) * h;
                double cx = i * h + (p[i] + p[i + 1] > 0 ? h * (p[i] + 2 * p[i + 1]) / (3 * (p[i] + p[i + 1])) : 0.5 * h);
                m += cm;
                mx += cm * cx;
                double du = Math.max(0.0, p[i] - p[i + 1]);
                um += du;
                umx += du * (i + 0.5) * h;
            }
            m0[g] = m;
            x0[g] = m > 0 ? mx / m : (g + 0.5) * baseWidth;
            uMass[g] = um;
            uAt[g] = um > 0 ? umx / um : (g + 0.5) * baseWidth;
        }
        int levels = 1;
        while ((groups >> (levels - 1)) > 1) {
            levels++;
        }
        mass = new double[levels][];
        at = new double[levels][];
        mass[0] = m0;
        at[0] = x0;
        for (int l = 1; l < levels; l++) {
            int n = (mass[l - 1].length + 1) / 2;
            mass[l] = new double[n];
            at[l] = new double[n];
            for (int g = 0; g < n; g++) {
                double m = 0;
                double mx = 0;
                for (int c = 2 * g; c < Math.min(mass[l - 1].length, 2 * g + 2); c++) {
                    m += mass[l - 1][c];
                    mx += mass[l - 1][c] * at[l - 1][c];
                }
                mass[l][g] = m;
                at[l][g] = m > 0 ? mx / m : at[l - 1][2 * g];
            }
        }
        atom = 1 - p[0];
        double pEnd = p[cells];
        double fEnd = d == 1 ? pEnd : Math.pow(pEnd, 1.0 / d);
        contraction = d * lambda * Math.pow(fEnd, d - 1);
    }

    /** Integrates the tail on first use. */
    private synchronized void integrateOnce() {
        if (!Double.isNaN(waitTail)) {
            return;
        }
        if (!compute) {
            waitTail = Double.POSITIVE_INFINITY;
            workTail = Double.POSITIVE_INFINITY;
            uncertainty = Double.NaN;
            return;
        }
        double[] integrals = integrate();
        double tWait = integrals[0];
        double tWork = integrals[1];
        if (d == 1) {
            waitTail = tWait / (1 - lambda);
            uncertainty = integrals[2] / (1 - lambda);
        } else {
            waitTail = tWait;
            uncertainty = (contraction < 1 ? tWait * contraction / (1 - contraction) : Double.POSITIVE_INFINITY)
                    + integrals[2];
        }
        workTail = Double.isFinite(law.moment(2)) ? tWork + lambda * waitTail : Double.POSITIVE_INFINITY;
    }

    /**
     * The lumping level for arguments at distance {@code ≥ distance} beyond {@code w_max}: groups no
     * wider than the base width or 1/128 of the distance (the kernel {@code Ḡ(w − u)} varies on
     * the scale of its argument for heavy tails; light tails are negligible that far out).
     */
    private int level(double distance) {
        int l = 0;
        while (l + 1 < mass.length && baseWidth * (1 << (l + 1)) <= distance / 128) {
            l++;
        }
        return l;
    }

    /** @return {@code F̃(w) = λ [Ḡe(w) + ∫_0^{w_max} F̄^d(u) Ḡ(w − u) du]} for {@code w ≥ w_max} */
    double workload(double w) {
        return workload(w, level(w - reach));
    }

    private double workload(double w, int l) {
        double s = law.survival(w);
        double excess = s > 0 ? s * law.meanResidualLife(w) : 0.0;
        double inner = 0;
        double[] m = mass[l];
        double[] x = at[l];
        for (int g = 0; g < m.length; g++) {
            inner += m[g] * law.survival(w - x[g]);
        }
        return Math.min(1.0, lambda * (excess + inner));
    }

    /** @return {@code P(R > t) ≥ P(U > t) + (1 − λ^d) Ḡ(t) + ∫_{(0, w_max]} Ḡ(t − u) dP_U(u)} for {@code t > w_max} */
    double responseSurvival(double t, double waiting) {
        double s = waiting + atom * law.survival(t);
        for (int g = 0; g < uMass.length; g++) {
            s += uMass[g] * law.survival(t - uAt[g]);
        }
        return Math.min(1.0, s);
    }

    /** @return {@code ∫ F̃^d}, {@code ∫ F̃} over {@code (w_max, ∞)} and the estimated quadrature remainder */
    private double[] integrate() {
        double tw = 0;
        double tf = 0;
        double previous = Double.NaN;
        double a = 0;
        double b = 1;
        double remainder = 0;
        for (int i = 0; i < MAX_INTERVALS; i++) {
            double half = 0.5 * (b - a);
            double mid = reach + 0.5 * (a + b);
            int l = level(a);
            double cw = 0;
            double cf = 0;
            for (int q = 0; q < GL_X.length; q++) {
                double fw = workload(mid + half * GL_X[q], l);
                cw += GL_W[q] * Math.pow(fw, d);
                cf += GL_W[q] * fw;
            }
            cw *= half;
            cf *= half;
            tw += cw;
            tf += cf;
            if (tw == 0 && tf == 0 && i > 4) {
                break;
            }
            if (cw <= 1e-13 * tw && cf <= 1e-13 * tf) {
                break;
            }
            if (i == MAX_INTERVALS - 1 && previous > 0) {
                double r = cw / previous;
                remainder = r < 1 ? cw * r / (1 - r) : Double.POSITIVE_INFINITY;
                tw += remainder;
            }
            previous = cw;
            a = b;
            b *= 2;
        }
        return new double[] {tw, tf, remainder};
    }

    /** @return {@code T}, the tail of {@code E[W]} beyond {@code w_max} ({@code +∞} if not computed) */
    double waitTail() {
        integrateOnce();
        return waitTail;
    }

    /** @return the tail of {@code ∫F̄} beyond {@code w_max} */
    double workTail() {
        integrateOnce();
        return workTail;
    }

    /** @return the uncertainty of {@link #waitTail()} */
    double uncertainty() {
        integrateOnce();
        return uncertainty;
    }

    /** @return {@code c = d λ F̄(w_max)^{d−1}} ({@code λ} for {@code d = 1}) */
    double contraction() {
        return contraction;
    }
}
