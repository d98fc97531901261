package org.mflb.pde;

import java.util.Arrays;
import java.util.Locale;

import org.hipparchus.analysis.solvers.BrentSolver;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.Pareto;
import org.mflb.core.distribution.ServiceDistribution;

/**
 * The equilibrium of the age-structured hydrodynamic PDE (docs/models.md §5), solved level by level
 * along the age axis instead of by time stepping (so heavy tails cost no more than light ones).
 * <p>
 * In equilibrium, write {@code μ_ℓ(a) = Ḡ(a) φ_ℓ(a)}. The PDE becomes, with the constant rates
 * {@code θ_k = λ r_k/(x_k − x_{k+1})}, the triangular system in the age
 * <pre>
 *   φ_1(a) = λ,    φ_ℓ'(a) = θ_{ℓ−1} (φ_{ℓ−1}(a) − φ_ℓ(a)),    φ_ℓ(0) = λ x_ℓ^d   (ℓ ≥ 2)
 *   x_ℓ = ∫_0^∞ Ḡ(a) φ_ℓ(a) da
 * </pre>
 * ({@code φ_ℓ(0)} is the completion flux of servers with at least {@code ℓ+1} jobs, which in
 * equilibrium equals the arrival flux {@code λ Σ_{k ≥ ℓ} r_k = λ x_ℓ^d}). Since {@code θ_{ℓ−1}} and
 * {@code φ_ℓ(0)} depend only on {@code x_{ℓ−1}, x_ℓ}, level {@code ℓ} is a scalar fixed point
 * {@code x_ℓ = F_ℓ(x_ℓ)}: for {@code d = 1} it is linear ({@code θ = λ}) and solved in closed form;
 * for {@code d ≥ 2} by the secant method from the geometric continuation of the previous levels
 * (Brent's method on {@code [0, x_{ℓ−1}]} as a fallback), to a relative 1e-14. Along the age,
 * {@code φ_ℓ} is advanced by the exponential integrator that is exact for piecewise-linear
 * {@code φ_{ℓ−1}}, on a graded grid {@code Δ_i = h_0 + κ a_i} up to {@code A = Ḡ^{−1}(tol)}; the
 * integral weights are the exact cell integrals of {@code Ḡ} ({@code I(a) = ∫_a^∞ Ḡ = Ḡ(a)m(a)}),
 * and beyond {@code A} the tail {@code φ_ℓ(A) I(A)} is added. All steps are second order in the
 * local grid spacing.
 * <p>
 * <b>Levels.</b> The levels {@code x_1..x_L} do not depend on the levels above them, so truncating
 * at {@code L} only cuts off the sums {@code Σ_{ℓ > L} x_ℓ} (mean queue length) and the matching
 * terms of the mean wait. Levels are added until either {@code x_L} falls below the level
 * tolerance, or — for tails that decay like a power of {@code ℓ} (Pareto service) — the sums
 * extrapolated by {@link SeriesRemainder} agree between {@code L/2} and {@code L} to the sum
 * tolerance (relative to the sum). The remainder is then added to the mean queue length and wait,
 * and reported as the cut-off mass with that agreement as its uncertainty. For a remainder whose
 * error decays like {@code L^{−p}}, the true error is {@code uncertainty/(2^p − 1)}, below the
 * uncertainty for {@code p ≥ 1} (the M/G/1 queue with Pareto 2.5 service has {@code p ≈ 1.5}).
 */
final class StationaryAgeSolver {

    /**
     * Graded age grid {@code Δ_i = H0 + GRADING·a_i}: the quadrature is second order in the local
     * spacing, 1e-6 to 3e-6 relative on the M/G/1 mean queue length (log-normal, Weibull, Pareto).
     */
    private static final double H0 = 1e-3;
    private static final double GRADING = 2e-3;
    /** First level at which a power-law remainder is trusted. */
    static final int MIN_EXTRAPOLATION_LEVEL = 32;
    private static final double ROOT_ACCURACY = 1e-14;
    /**
     * Largest share of a level's mass the age truncation may misplace; the first level above it ends
     * the tail when its mass is negligible for the mean queue length (TRUNCATION otherwise).
     */
    private static final double AGE_CUT_OFF_SHARE = 1e-3;
    /**
     * Ratio of the gains of the partial sums over successive doublings above which the levels count
     * as decaying like {@code ℓ^{−1}} ({@code 2^{1−γ} ≥ 0.97} means {@code γ ≤ 1.044}: a remainder of
     * more than 20 L x_L, beyond any level budget).
     */
    private static final double FLAT_GAIN = 0.97;

    private final int d;
    private final double lambda;
    private final double mean;
    private final ServiceDistribution service;
    private final double levelTolerance;
    private final double sumTolerance;
    private final int maxLevels;
    private final double[] age;
    /** ∫ over [a_i, a_{i+1}] of Ḡ. */
    private final double[] cellMass;
    /** I(a_i) = ∫_{a_i}^∞ Ḡ. */
    private final double[] tailIntegral;
    private final double tailBeyond;
    /** F(x) − x at the last root of {@link #solveLevel}. */
    private double lastResidual;
    /** J(A) = ∫_A^∞ I(a) da. */
    private final double tailWork;
    private final double ageMax;
    /** Receives every level's age profiles (null: nobody listens). */
    private LevelProfiles profiles;

    /** Receives, level by level, the equilibrium age profiles {@code φ_k, φ_{k+1}} on the solver's age grid. */
    interface LevelProfiles {
        /**
         * @param k the level
         * @param xk {@code x_k}
         * @param xk1 {@code x_{k+1}} (0 at the last level kept)
         * @param age the age grid
         * @param phiK {@code φ_k} on it (not to be kept: the solver reuses the array)
         * @param phiK1 {@code φ_{k+1}} (zero at the last level)
         */
        void level(int k, double xk, double xk1, double[] age, double[] phiK, double[] phiK1);
    }

    /** Sets the listener of the levels' age profiles (null for none). */
    StationaryAgeSolver listen(LevelProfiles listener) {
        this.profiles = listener;
        return this;
    }

    /**
     * @param d choices
     * @param lambda arrival rate, {@code λ E[S] < 1}
     * @param service service law
     * @param ageTolerance survival mass {@code Ḡ(A)} where the age grid ends
     * @param levelTolerance {@code x_L} below which the levels stop
     * @param sumTolerance relative agreement of the extrapolated sums at {@code L/2} and {@code L}
     * @param maxLevels largest {@code L}
     */
    StationaryAgeSolver(int d, double lambda, ServiceDistribution service, double ageTolerance, double levelTolerance,
            double sumTolerance, int maxLevels) {
        this.d = d;
        this.lambda = lambda;
        this.mean = service.mean();
        this.service = service;
        this.levelTolerance = levelTolerance;
        this.sumTolerance = sumTolerance;
        this.maxLevels = maxLevels;
        double cap = service.survivalQuantile(ageTolerance);
        int count = 1;
        for (double a = 0; a < cap; a += H0 + GRADING * a) {
            count++;
        }
        age = new double[count];
        for (int i = 1; i < count; i++) {
            age[i] = Math.min(cap, age[i - 1] + H0 + GRADING * age[i - 1]);
        }
        ageMax = age[count - 1];
        tailIntegral = new double[count];
        for (int i = 0; i < count; i++) {
            tailIntegral[i] = residualIntegral(service, age[i]);
        }
        cellMass = new double[count - 1];
        for (int i = 0; i < count - 1; i++) {
            cellMass[i] = Math.max(0.0, tailIntegral[i] - tailIntegral[i + 1]);
        }
        tailBeyond = tailIntegral[count - 1];
        tailWork = residualWorkIntegral(service, ageMax);
    }

    /** {@code (u^d − v^d)/(u − v)} by Horner, stable for {@code u ≈ v}. */
    private double chooseRatio(double u, double v) {
        double s = 1;
        double vi = 1;
        for (int i = 1; i < d; i++) {
            vi *= v;
            s = s * u + vi;
        }
        return s;
    }

    /** φ_ℓ on the grid from φ_{ℓ−1} ({@code lower}) at rate θ; returns ∫ Ḡ φ_ℓ. {@code out} modified. */
    private double advance(double[] lower, double theta, double start, double[] out) {
        out[0] = start;
        double integral = 0;
        for (int i = 0; i < age.length - 1; i++) {
            double z = theta * (age[i + 1] - age[i]);
            double em = Math.expm1(-z);
            double e = 1.0 + em;
            double slope = z > 1e-12 ? -em / z : 1.0 - 0.5 * z;
            double u0 = lower[i];
            double u1 = lower[i + 1];
            out[i + 1] = e * out[i] + u1 - e * u0 - (u1 - u0) * slope;
            integral += cellMass[i] * 0.5 * (out[i] + out[i + 1]);
        }
        return integral + out[age.length - 1] * tailBeyond;
    }

    /**
     * @return the equilibrium
     * @throws MflbException INVALID_PARAMETER when the equilibrium mean queue length is infinite
     *         ({@code d = 1} with {@code E[S²] = ∞}; Pareto service of shape {@code β ≤ 1 + 1/d};
     *         or a tail of the levels found to decay like {@code ℓ^{−1}} or slower), TRUNCATION when
     *         {@code maxLevels} levels or the age grid do not reach the tolerances
     */
    PdeEquilibrium solve() {
        checkFiniteMean();
        int m = age.length;
        double[] lower = new double[m];
        double[] upper = new double[m];
        Arrays.fill(lower, lambda);
        double[] x = new double[maxLevels + 2];
        double[] w = new double[maxLevels + 2];
        double[] sumX = new double[maxLevels + 2];
        double[] sumW = new double[maxLevels + 2];
        x[0] = 1.0;
        x[1] = lambda * mean; // the busy fraction, exactly (the quadrature's error lies in the higher levels)
        sumX[1] = x[1];
        LinearLevels linear = d == 1 ? new LinearLevels() : null;
        double residual = 0;
        int level = 1;
        int flatDoublings = 0;
        while (true) {
            double next;
            if (linear != null) {
                next = linear.solve(lower, upper);
            } else {
                next = solveLevel(lower, x[level], level >= 2 ? x[level - 1] : 1.0, upper);
                residual = Math.max(residual, Math.abs(lastResidual));
            }
            boolean negligible = next <= levelTolerance;
            // the age truncation's error bound on this level (ages beyond A are handled by a tail term)
            boolean ageLimited = !negligible
                    && ageCutOffBound(upper[m - 1], lambda * chooseRatio(x[level], next)) > AGE_CUT_OFF_SHARE * next;
            if (ageLimited && next > sumTolerance * sumX[level]) {
                throw new MflbException(ErrorKind.TRUNCATION, "levels", String.format("the equilibrium's level %d"
                        + " (x = %.3g) depends on ages beyond the age grid (> %.4g) by more than a share %.0e, and"
                        + " the levels above it are not negligible for the mean queue length (relative %.1e); the"
                        + " service tail is too heavy for this d", level + 1, next, ageMax, AGE_CUT_OFF_SHARE,
                        sumTolerance));
            }
            double cutOff = 0.0;
            if (negligible || ageLimited) {
                // the last level: servers above it are cut off (their mass continued geometrically),
                // φ_{L+1} = 0, x_{L+1} = 0
                double r = next / x[level];
                cutOff = r < 1 ? next / (1 - r) : next;
                Arrays.fill(upper, 0.0);
                next = 0.0;
            }
            x[level + 1] = next;
            // wait term of `level`: r_ℓ (ℓ − 1) + (θ_ℓ/λ) ∫ I(a) (φ_ℓ − φ_{ℓ+1}) da
            w[level] = (Math.pow(x[level], d) - Math.pow(next, d)) * (level - 1)
                    + chooseRatio(x[level], next) * residualWork(lower, upper);
            sumW[level] = sumW[level - 1] + w[level];
            if (profiles != null) {
                profiles.level(level, x[level], next, age, lower, upper);
            }
            if (negligible || ageLimited) {
                return finish(x, level, sumX[level] + cutOff, sumW[level], cutOff, 0.0, residual);
            }
            if (level >= MIN_EXTRAPOLATION_LEVEL) {
                double totalX = accelerated(x, sumX, level);
                double totalW = accelerated(w, sumW, level);
                double ux = Math.abs(totalX - accelerated(x, sumX, level / 2));
                double uw = Math.abs(totalW - accelerated(w, sumW, level / 2));
                if (ux <= sumTolerance * totalX && uw <= sumTolerance * Math.max(totalW, 1.0)) {
                    return finish(x, level, totalX, totalW, totalX - sumX[level], ux, residual);
                }
                if (Integer.bitCount(level) == 1) {
                    // a sum that gains as much from L/2..L as from L/4..L/2 diverges like log L
                    double gain = sumX[level] - sumX[level / 2];
                    double before = sumX[level / 2] - sumX[level / 4];
                    flatDoublings = gain >= FLAT_GAIN * before ? flatDoublings + 1 : 0;
                    if (flatDoublings >= 2 && level >= 256) {
                        throw slowLevels(x, level);
                    }
                }
            }
            if (level + 1 > maxLevels) {
                throw truncation(x, sumX, level);
            }
            double[] swap = lower;
            lower = upper;
            upper = swap;
            level++;
            sumX[level] = sumX[level - 1] + x[level];
        }
    }

    /**
     * The sum {@code Σ t_k} extrapolated from {@code L} terms: the partial sum plus the power-law
     * remainder, Richardson-extrapolated over {@code L/2} and {@code L} with the local exponent (the
     * remainder's own error decays like {@code L^{−γ}} when the terms are {@code C k^{−γ}(1 + O(1/k))}).
     */
    private static double accelerated(double[] t, double[] partial, int level) {
        double here = partial[level] + SeriesRemainder.estimate(t, level);
        double half = partial[level / 2] + SeriesRemainder.estimate(t, level / 2);
        if (!Double.isFinite(here) || !Double.isFinite(half)) {
            return Double.POSITIVE_INFINITY;
        }
        double gamma = SeriesRemainder.exponent(t, level);
        double factor = Math.pow(2.0, gamma) - 1.0;
        return factor > 0 && Double.isFinite(factor) ? here + (here - half) / factor : here;
    }

    /**
     * Bound on the error of a level from the age truncation. Beyond {@code A} the tail term takes
     * {@code φ} constant, {@code = φ(A)}, while {@code φ ≤ λ} and, where {@code φ ≥ φ(A)},
     * {@code φ' = θ(φ_{ℓ−1} − φ) ≤ θ(λ − φ(A))}, so
     * <pre>  ∫_A^∞ Ḡ (φ(a) − φ(A)) da ≤ (λ − φ(A)) min(I(A), θ J(A)),    J(A) = ∫_A^∞ I(a) da.</pre>
     */
    private double ageCutOffBound(double phiAtEnd, double theta) {
        return Math.max(0.0, lambda - phiAtEnd) * Math.min(tailBeyond, theta * tailWork);
    }

    /**
     * {@code J(A) = ∫_A^∞ I(a) da = E[((S − A)^+)²]/2}, by the trapezoid rule on a geometric grid
     * (ratio 1.05, relative error below 1e-3, enlarged by 10% to stay a bound); {@code +∞} when it does
     * not settle ({@code E[S²] = ∞}).
     */
    private static double residualWorkIntegral(ServiceDistribution service, double from) {
        double a0 = Math.max(from, 1e-3);
        double f0 = residualIntegral(service, a0);
        double sum = Math.max(0.0, a0 - from) * residualIntegral(service, from);
        for (int k = 0; k < 5000; k++) {
            double a1 = a0 * 1.05;
            double f1 = residualIntegral(service, a1);
            double inc = 0.5 * (f0 + f1) * (a1 - a0);
            sum += inc;
            if (f1 * a1 <= 1e-9 * sum || f1 == 0) {
                return 1.1 * sum;
            }
            a0 = a1;
            f0 = f1;
        }
        return Double.POSITIVE_INFINITY;
    }

    /** {@code I(a) = Ḡ(a) m(a)}, 0 where {@code Ḡ} has underflowed. */
    private static double residualIntegral(ServiceDistribution service, double a) {
        double s = service.survival(a);
        double v = s > 0 ? s * service.meanResidualLife(a) : 0.0;
        return Double.isFinite(v) ? v : 0.0;
    }

    /** Diagnoses, before any work, the laws whose equilibrium mean queue length is infinite. */
    private void checkFiniteMean() {
        if (d == 1 && !Double.isFinite(service.moment(2))) {
            throw infiniteMean("for d = 1 (M/G/1 queues) E[Q] = lambda + lambda^2 E[S^2]/(2(1 - lambda))"
                    + " (Pollaczek-Khinchine) and E[S^2] is infinite");
        }
        if (service instanceof Pareto && ((Pareto) service).shape() <= 1.0 + 1.0 / d) {
            double beta = ((Pareto) service).shape();
            double gamma = (beta - 1) / (1 - (d - 1) * (beta - 1));
            throw infiniteMean(String.format("Pareto service of shape %s <= 1 + 1/d = %s gives levels decaying like"
                    + " l^-%.3g, not summable", beta, 1.0 + 1.0 / d, gamma));
        }
    }

    /**
     * Levels that decay like {@code ℓ^{−1}} or slower at {@code level}: an infinite mean only where the
     * law's parameters say so ({@code E[S²] = ∞}; the finite-second-moment laws have a finite mean,
     * Pollaczek–Khinchine for d = 1, and SQ(d ≥ 2) does better), else a finite mean beyond any level
     * budget (a lognormal or H2 law of huge SCV), never reported as infinite from the grid alone.
     */
    private MflbException slowLevels(double[] x, int level) {
        String decay = String.format(Locale.ROOT, "the levels decay like l^-%.3f (x_%d = %.3g, partial sums grow like"
                + " log l)", SeriesRemainder.exponent(x, level), level, x[level]);
        if (!Double.isFinite(service.moment(2))) {
            return infiniteMean(decay);
        }
        String exact = d == 1 ? String.format(Locale.ROOT, " (for d = 1, Pollaczek-Khinchine gives E[Q] = %.10g and"
                + " E[W] = %.10g exactly)", lambda * mean + lambda * lambda * service.moment(2) / (2 * (1 - lambda * mean)),
                lambda * service.moment(2) / (2 * (1 - lambda * mean))) : "";
        return new MflbException(ErrorKind.TRUNCATION, "service", "the equilibrium of SQ(" + d + ") with service "
                + service.spec() + " has a finite mean queue length (E[S^2] is finite) but " + decay + ": far more"
                + " than " + maxLevels + " levels would be needed; take a lighter-tailed law or a larger d" + exact);
    }

    private MflbException infiniteMean(String why) {
        return new MflbException(ErrorKind.INVALID_PARAMETER, "service", "the equilibrium of SQ(" + d
                + ") with service " + service.spec() + " has an infinite mean queue length and mean wait: " + why
                + "; the transient up to a finite t-end is finite, or take a lighter-tailed law or a larger d");
    }

    private PdeEquilibrium finish(double[] x, int levels, double meanQueue, double meanWait, double cutOff,
            double uncertainty, double residual) {
        return new PdeEquilibrium(Arrays.copyOf(x, levels + 1), meanQueue, meanWait, residual, cutOff, uncertainty,
                ageMax, tailBeyond);
    }

    private MflbException truncation(double[] x, double[] sumX, int level) {
        double total = accelerated(x, sumX, level);
        double uncertainty = Math.abs(total - accelerated(x, sumX, level / 2));
        return new MflbException(ErrorKind.TRUNCATION, "levels", String.format("the equilibrium needs more than %d"
                + " levels: x_L = %.3g (decaying like L^-%.3f) is above %.1e and the extrapolated mean queue length"
                + " %.6g has not settled to a relative %.1e (uncertainty %.2g); the load is too close to 1 or the"
                + " service tail too heavy for this d", maxLevels, x[level], SeriesRemainder.exponent(x, level),
                levelTolerance, total, sumTolerance, uncertainty));
    }

    /**
     * x_{ℓ+1} for d ≥ 2; leaves φ_{ℓ+1} of the root in {@code out} and {@code F(root) − root} in
     * {@link #lastResidual}.
     */
    private double solveLevel(double[] lower, double prev, double prevPrev, double[] out) {
        double ratio = prev / prevPrev;
        double v0 = prev * Math.min(ratio, 0.999);
        double g0 = levelMap(lower, prev, v0, out) - v0;
        lastResidual = g0;
        if (g0 == 0) {
            return v0;
        }
        // secant from v0 and one fixed-point step
        double v1 = Math.min(prev, Math.max(0.0, v0 + g0));
        for (int it = 0; it < 30; it++) {
            double g1 = levelMap(lower, prev, v1, out) - v1;
            lastResidual = g1;
            if (g1 == 0 || Math.abs(v1 - v0) <= ROOT_ACCURACY * v1) {
                return v1;
            }
            double v2 = v1 - g1 * (v1 - v0) / (g1 - g0);
            if (!(v2 >= 0 && v2 <= prev)) {
                break;
            }
            v0 = v1;
            g0 = g1;
            v1 = v2;
        }
        // fallback: Brent on the bracket [0, prev] (g(0) = F(0) ≥ 0)
        double gHi = levelMap(lower, prev, prev, out) - prev;
        lastResidual = gHi;
        if (gHi >= 0) {
            return prev;
        }
        BrentSolver brent = new BrentSolver(ROOT_ACCURACY, Double.MIN_NORMAL, Double.MIN_NORMAL);
        double root = brent.solve(200, v -> levelMap(lower, prev, v, out) - v, 0.0, prev);
        lastResidual = levelMap(lower, prev, root, out) - root;
        return root;
    }

    /** F_ℓ(v): the integral of Ḡ φ_ℓ when x_ℓ = v, with x_{ℓ−1} = prev and φ_{ℓ−1} = lower. */
    private double levelMap(double[] lower, double prev, double v, double[] out) {
        double theta = lambda * chooseRatio(prev, v);
        return advance(lower, theta, lambda * Math.pow(v, d), out);
    }

    /** ∫ I(a) (φ_k − φ_{k+1}) da by the trapezoid rule on the graded grid. */
    private double residualWork(double[] phiK, double[] phiK1) {
        double s = 0;
        for (int i = 0; i < age.length - 1; i++) {
            double f0 = tailIntegral[i] * (phiK[i] - phiK1[i]);
            double f1 = tailIntegral[i + 1] * (phiK[i + 1] - phiK1[i + 1]);
            s += 0.5 * (f0 + f1) * (age[i + 1] - age[i]);
        }
        return s;
    }

    /**
     * d = 1: θ = λ at every level and φ_{ℓ+1}(0) = λ x_{ℓ+1}, so {@code F(v) = λ v A + B} with
     * {@code A = ∫ Ḡ E}, {@code E} the discrete {@code e^{−λa}}, and {@code B} the integral of the
     * particular solution started at 0: {@code x_{ℓ+1} = B/(1 − λA)} in one pass per level.
     */
    private final class LinearLevels {
        private final double[] decay;
        private final double[] slope;
        private final double[] unit;
        private final double unitIntegral;

        LinearLevels() {
            int m = age.length;
            decay = new double[m - 1];
            slope = new double[m - 1];
            for (int i = 0; i < m - 1; i++) {
                double z = lambda * (age[i + 1] - age[i]);
                decay[i] = Math.exp(-z);
                slope[i] = z > 1e-12 ? -Math.expm1(-z) / z : 1.0 - 0.5 * z;
            }
            unit = new double[m];
            unit[0] = 1.0;
            double integral = 0;
            for (int i = 0; i < m - 1; i++) {
                unit[i + 1] = decay[i] * unit[i];
                integral += cellMass[i] * 0.5 * (unit[i] + unit[i + 1]);
            }
            unitIntegral = integral + unit[m - 1] * tailBeyond;
        }

        /** @return x_{ℓ+1}; φ_{ℓ+1} in {@code out} */
        double solve(double[] lower, double[] out) {
            int m = age.length;
            out[0] = 0.0;
            double integral = 0;
            for (int i = 0; i < m - 1; i++) {
                double e = decay[i];
                double u0 = lower[i];
                double u1 = lower[i + 1];
                out[i + 1] = e * out[i] + u1 - e * u0 - (u1 - u0) * slope[i];
                integral += cellMass[i] * 0.5 * (out[i] + out[i + 1]);
            }
            integral += out[m - 1] * tailBeyond;
            double v = integral / (1.0 - lambda * unitIntegral);
            double start = lambda * v;
            for (int i = 0; i < m; i++) {
                out[i] += start * unit[i];
            }
            return v;
        }
    }
}
