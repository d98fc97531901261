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
 * {@code T̃/(1 − λ)} ({@code d = 1}), with the uncertainty {@code T̃ c/(1 − c)} ({@code d ≥ 2}), or
 * the sharper {@code dλ ∫F̃^{2d−1}/(1 − c)^{2d−1}} from {@code T − T̃ ≤ dλ∫_{w_max}^∞ F̄^{2d−1}}
 * (the missing mass at {@code u} feeds {@code w > u} through {@code Ḡ}, of integral 1, where
 * {@code F̄(w)^{d−1} ≤ F̄(u)^{d−1}}). That bound falls like {@code w_max^{1−(2d−1)(α−1)}} for Pareto
 * sizes of shape α, too slowly near the infinite-mean border {@code d(α − 1) = 1} (α = 1.6, d = 2:
 * 3e-6 relative to E[R] at {@code w_max = 6.6e4}); when it exceeds the uncertainty that suffices,
 * {@code T − T̃} is solved for on a geometric table ({@link TailEquation}) and {@code T} is reported as
 * {@code T̃ + (T − T̃)} with that solution's uncertainty, if smaller.
 *
 * <p>The inner integral uses the grid's cells of {@code F̄^d} lumped at their centroids into groups
 * whose width grows with the kernel's argument ({@link #LUMPING}); the outer one Gauss–Legendre on {@code [w_max + 2^{i−1}, w_max + 2^i]}
 * until an interval adds less than {@code 1e-13} of the total (a power-law tail is closed by its
 * geometric remainder). The uncertainty includes the lumping error, estimated by lumping twice as
 * coarsely: it dominates for {@code d = 1}, whose {@code F̄^d = F̄} is not small at {@code w_max}. The integrals are computed on first use (not thread-safe before).
 */
final class TailTerm {

    /**
     * Relative width of the lumped groups: a group of the inner integral at kernel arguments
     * {@code s = w − u ≥ s_0} is at most {@code max(h, s_0 ·} this{@code )} wide.
     */
    static final double LUMPING = 1.0 / 64;
    private static final int MAX_INTERVALS = 400;
    /** The 10-point Gauss–Legendre rule on [−1, 1] (also {@link TailEquation}'s). */
    static final double[] GL_X = {-0.9739065285171717, -0.8650633666889845, -0.6794095682990244,
        -0.4333953941292472, -0.1488743389816312, 0.1488743389816312, 0.4333953941292472, 0.6794095682990244,
        0.8650633666889845, 0.9739065285171717};
    static final double[] GL_W = {0.0666713443086881, 0.1494513491505806, 0.2190863625159820,
        0.2692667193099963, 0.2955242247147529, 0.2955242247147529, 0.2692667193099963, 0.2190863625159820,
        0.1494513491505806, 0.0666713443086881};

    private final ServiceDistribution law;
    private final double lambda;
    private final int d;
    private final double h;
    private final int cells;
    private final double reach;
    /**
     * Prefix sums over the cells {@code [ih, (i+1)h]} of the trapezoidal mass of {@code F̄^d} and of
     * mass × centroid; the same for the law of {@code U} on {@code (0, w_max]} (cell mass
     * {@code P_i − P_{i+1}} at the cell's middle).
     */
    private final double[] mass;
    private final double[] moment;
    private final double[] uMass;
    private final double[] uMoment;
    private final double atom;
    /** Deterministic sizes: the kernel is the step {@code 1{s < 1}}, integrated exactly. */
    private final boolean pointMass;
    private final double[] kinks;
    private final double[] p;
    private final boolean compute;
    private final double contraction;
    private final double sufficient;
    private double waitTail = Double.NaN;
    private double workTail;
    private double uncertainty;
    /** {@code T̃} and the proven bound of {@code T − T̃} ({@code d ≥ 2}), kept for checks. */
    private double continuationTail;
    private double provenBound;

    /**
     * @param sufficient the uncertainty that suffices: when the proven bound exceeds it ({@code d ≥ 2},
     *        not deterministic sizes), {@code T − T̃} is solved for ({@link TailEquation})
     */
    TailTerm(LeastLoaded model, double h, double[] p, boolean compute, double sufficient) {
        this.sufficient = sufficient;
        this.law = model.service();
        this.lambda = model.lambda();
        this.d = model.d();
        this.compute = compute;
        this.pointMass = model.pointMassSizes();
        this.kinks = model.kinks();
        this.p = p;
        this.h = h;
        this.cells = p.length - 1;
        this.reach = cells * h;
        mass = new double[cells + 1];
        moment = new double[cells + 1];
        uMass = new double[cells + 1];
        uMoment = new double[cells + 1];
        for (int i = 0; i < cells; i++) {
            double sum = p[i] + p[i + 1];
            double cm = 0.5 * sum * h;
            double cx = i * h + (sum > 0 ? h * (p[i] + 2 * p[i + 1]) / (3 * sum) : 0.5 * h);
            mass[i + 1] = mass[i] + cm;
            moment[i + 1] = moment[i] + cm * cx;
            double du = Math.max(0.0, p[i] - p[i + 1]);
            uMass[i + 1] = uMass[i] + du;
            uMoment[i + 1] = uMoment[i] + du * (i + 0.5) * h;
        }
        atom = 1 - p[0];
        double pEnd = p[cells];
        double fEnd = d == 1 ? pEnd : Math.pow(pEnd, 1.0 / d);
        contraction = d * lambda * Math.pow(fEnd, d - 1);
    }

    /**
     * {@code ∫_0^{w_max} ρ(u) Ḡ(t − u) du} for {@code t ≥ w_max}, with the cell masses of {@code ρ} lumped
     * at their centroids into groups no wider than {@code max(h, ratio · (t − u_right))}: fine where the
     * kernel's argument is small, geometric beyond (the kernel varies on the scale of its argument for
     * heavy tails, and is negligible there for light ones).
     */
    private double lumped(double t, double[] m, double[] x, double ratio) {
        double sum = 0;
        int i1 = cells;
        while (i1 > 0) {
            double s = t - i1 * h;
            int width = (int) Math.max(1, Math.floor(ratio * s / h));
            int i0 = Math.max(0, i1 - width);
            double gm = m[i1] - m[i0];
            if (gm > 0) {
                sum += gm * law.survival(t - (x[i1] - x[i0]) / gm);
            }
            i1 = i0;
        }
        return sum;
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
            // T − T̃ ≤ dλ ∫ F̄^{2d−1} (sharper than c T̃ where F̄ decays), evaluated with F̃ for F̄ (they
            // differ at first order in c, allowed for by the factor (1 − c)^{1−2d})
            double bound = contraction < 1 ? tWait * contraction / (1 - contraction) : Double.POSITIVE_INFINITY;
            double decaying = contraction < 1 ? d * lambda * integrals[3] / Math.pow(1 - contraction, 2 * d - 1)
                    : Double.POSITIVE_INFINITY;
            uncertainty = Math.min(bound, decaying) + integrals[2];
            continuationTail = tWait;
            provenBound = uncertainty;
            if (!pointMass && contraction <= 0.5 && uncertainty > sufficient) {
                // solve the tail equation for T − T̃ at two table densities (TailEquation)
                double[] fine = equation(2).correction();
                double[] coarse = equation(1).correction();
                double solved = fine[1] + Math.abs(fine[0] - coarse[0]) + integrals[2];
                if (solved < uncertainty) {
                    waitTail = tWait + fine[0];
                    uncertainty = solved;
                }
            }
        }
        workTail = Double.isFinite(law.moment(2)) ? tWork + lambda * waitTail : Double.POSITIVE_INFINITY;
    }

    private TailEquation equation(int split) {
        return new TailEquation(law, lambda, d, kinks, reach, contraction, x -> workload(reach + x, LUMPING), split);
    }

    /** @return {@code F̃(w) = λ [Ḡe(w) + ∫_0^{w_max} F̄^d(u) Ḡ(w − u) du]} for {@code w ≥ w_max} */
    double workload(double w) {
        return workload(w, LUMPING);
    }

    private double workload(double w, double ratio) {
        if (pointMass) {
            // Ḡe = 0 beyond 1 and ∫_0^{w_max} F̄^d(u) 1{w − u < 1} du = ∫_{w−1}^{w_max} F̄^d
            return Math.min(1.0, lambda * massFrom(Math.max(0, w - 1)));
        }
        double s = law.survival(w);
        double excess = s > 0 ? s * law.meanResidualLife(w) : 0.0;
        return Math.min(1.0, lambda * (excess + lumped(w, mass, moment, ratio)));
    }

    /** @return {@code ∫_x^{w_max} F̄^d}, the nodal values interpolated linearly ({@code 0 ≤ x}) */
    private double massFrom(double x) {
        if (x >= reach) {
            return 0.0;
        }
        int i = Math.min(cells - 1, (int) Math.floor(x / h));
        double theta = x / h - i;
        double px = p[i] + theta * (p[i + 1] - p[i]);
        return (1 - theta) * h * 0.5 * (px + p[i + 1]) + mass[cells] - mass[i + 1];
    }

    /** @return {@code P(R > t) ≥ P(U > t) + (1 − λ^d) Ḡ(t) + ∫_{(0, w_max]} Ḡ(t − u) dP_U(u)} for {@code t > w_max} */
    double responseSurvival(double t, double waiting) {
        return Math.min(1.0, waiting + atom * law.survival(t) + lumped(t, uMass, uMoment, LUMPING));
    }

    /**
     * @return {@code ∫ F̃^d}, {@code ∫ F̃} over {@code (w_max, ∞)}, and the uncertainty of the first: the
     *         geometric remainder of a power-law tail plus the lumping error, estimated (conservatively,
     *         it falls like the square of the group width) by the change of {@code ∫ F̃^d} when the
     *         groups are twice as wide
     */
    private double[] integrate() {
        if (pointMass) {
            return integratePointMass();
        }
        double tw = 0;
        double tf = 0;
        double previous = Double.NaN;
        double a = 0;
        double b = 1;
        double remainder = 0;
        double lumping = 0;
        double tpow = 0;
        for (int i = 0; i < MAX_INTERVALS; i++) {
            double half = 0.5 * (b - a);
            double mid = reach + 0.5 * (a + b);
            double cw = 0;
            double cf = 0;
            double cc = 0;
            double c2 = 0;
            for (int q = 0; q < GL_X.length; q++) {
                double w = mid + half * GL_X[q];
                double fw = workload(w, LUMPING);
                cw += GL_W[q] * Math.pow(fw, d);
                cf += GL_W[q] * fw;
                cc += GL_W[q] * Math.pow(workload(w, 2 * LUMPING), d);
                c2 += GL_W[q] * Math.pow(fw, 2 * d - 1);
            }
            cw *= half;
            cf *= half;
            lumping += Math.abs(cw - cc * half);
            tpow += c2 * half;
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
        return new double[] {tw, tf, remainder + lumping, tpow};
    }

    /**
     * Deterministic sizes: {@code F̃} vanishes beyond {@code w_max + 1} and is smooth between the
     * points {@code w_max + jh}, where Gauss–Legendre on each sub-interval is exact to round-off.
     */
    private double[] integratePointMass() {
        double tw = 0;
        double tf = 0;
        int pieces = (int) Math.round(1 / h);
        for (int j = 0; j < pieces; j++) {
            double mid = reach + (j + 0.5) * h;
            for (int q = 0; q < GL_X.length; q++) {
                double fw = workload(mid + 0.5 * h * GL_X[q], LUMPING);
                tw += 0.5 * h * GL_W[q] * Math.pow(fw, d);
                tf += 0.5 * h * GL_W[q] * fw;
            }
        }
        double tpow = 0;
        for (int j = 0; j < pieces; j++) {
            double mid = reach + (j + 0.5) * h;
            for (int q = 0; q < GL_X.length; q++) {
                tpow += 0.5 * h * GL_W[q] * Math.pow(workload(mid + 0.5 * h * GL_X[q], LUMPING), 2 * d - 1);
            }
        }
        return new double[] {tw, tf, 0.0, tpow};
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

    /** @return {@code T̃ = ∫F̃^d} over {@code (w_max, ∞)}, a lower bound of {@code T} ({@code d ≥ 2}) */
    double continuationTail() {
        integrateOnce();
        return continuationTail;
    }

    /** @return the proven bound of {@code T − T̃} (plus the quadrature's error) ({@code d ≥ 2}) */
    double provenBound() {
        integrateOnce();
        return provenBound;
    }

    /** @return {@code c = d λ F̄(w_max)^{d−1}} ({@code λ} for {@code d = 1}) */
    double contraction() {
        return contraction;
    }
}
