package org.mflb.pde;

import org.hipparchus.analysis.solvers.BrentSolver;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistribution;

/**
 * The equilibrium of the age-structured hydrodynamic PDE (MODELS.md §5), solved level by level
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
 * {@code x_ℓ = F_ℓ(x_ℓ)}, solved by Brent's method on {@code [0, x_{ℓ−1}]}. Along the age,
 * {@code φ_ℓ} is advanced by the exponential integrator that is exact for piecewise-linear
 * {@code φ_{ℓ−1}}, on a graded grid {@code Δ_i = h_0 + κ a_i} up to {@code A = Ḡ^{−1}(tol)}; the
 * integral weights are the exact cell integrals of {@code Ḡ} ({@code I(a) = ∫_a^∞ Ḡ = Ḡ(a)m(a)}),
 * and beyond {@code A} the tail {@code φ_ℓ(A) I(A)} is added. All steps are second order in the
 * local grid spacing.
 */
final class StationaryAgeSolver {

    private static final double H0 = 1e-4;
    private static final double GRADING = 1e-3;

    private final int d;
    private final double lambda;
    private final double mean;
    private final double levelTolerance;
    private final int maxLevels;
    private final double[] age;
    /** ∫ over [a_i, a_{i+1}] of Ḡ. */
    private final double[] cellMass;
    /** I(a_i) = ∫_{a_i}^∞ Ḡ. */
    private final double[] tailIntegral;
    private final double tailBeyond;
    private final double ageMax;

    StationaryAgeSolver(int d, double lambda, ServiceDistribution service, double ageTolerance, double levelTolerance,
            int maxLevels) {
        this.d = d;
        this.lambda = lambda;
        this.mean = service.mean();
        this.levelTolerance = levelTolerance;
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
            double s = service.survival(age[i]);
            double v = s > 0 ? s * service.meanResidualLife(age[i]) : 0.0;
            tailIntegral[i] = Double.isFinite(v) ? v : 0.0;
        }
        cellMass = new double[count - 1];
        for (int i = 0; i < count - 1; i++) {
            cellMass[i] = Math.max(0.0, tailIntegral[i] - tailIntegral[i + 1]);
        }
        tailBeyond = tailIntegral[count - 1];
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

    /** φ_ℓ on the grid from φ_{ℓ−1}; returns ∫ Ḡ φ_ℓ. */
    private double advance(double[] lower, double theta, double start, double[] out) {
        out[0] = start;
        double integral = 0;
        for (int i = 0; i < age.length - 1; i++) {
            double z = theta * (age[i + 1] - age[i]);
            double e = Math.exp(-z);
            double u0 = lower[i];
            double u1 = lower[i + 1];
            double slope = z > 1e-12 ? -Math.expm1(-z) / z : 1.0 - 0.5 * z;
            out[i + 1] = e * out[i] + u1 - e * u0 - (u1 - u0) * slope;
            integral += cellMass[i] * 0.5 * (out[i] + out[i + 1]);
        }
        return integral + out[age.length - 1] * tailBeyond;
    }

    PdeEquilibrium solve() {
        int m = age.length;
        double[] lower = new double[m];
        double[] upper = new double[m];
        java.util.Arrays.fill(lower, lambda);
        double[] x = new double[maxLevels + 2];
        x[0] = 1.0;
        x[1] = lambda * mean; // the busy fraction, exactly (the quadrature's error lies in the higher levels)
        double residual = 0;
        // waiting-time work terms need φ_k and φ_{k+1}; keep φ_1 in `lower`
        double wait = 0;
        BrentSolver brent = new BrentSolver(1e-14, 1e-300, 1e-300);
        int level = 1;
        double[] workTerm = new double[maxLevels + 2];
        while (x[level] > levelTolerance) {
            if (level + 1 > maxLevels) {
                throw new MflbException(ErrorKind.TRUNCATION, "levels", "the equilibrium tail needs more than "
                        + maxLevels + " levels to fall below " + levelTolerance
                        + " (load too close to 1, or a service law with too heavy a tail for this d)");
            }
            final double prevX = x[level];
            final double[] phiLower = lower;
            final double[] phiOut = upper;
            double hi = prevX;
            double next;
            double gHi = levelMap(phiLower, prevX, hi, phiOut) - hi;
            if (gHi >= 0) {
                next = hi;
            } else {
                next = brent.solve(200, v -> levelMap(phiLower, prevX, v, phiOut) - v, 0.0, hi);
            }
            double mapped = levelMap(phiLower, prevX, next, upper);
            residual = Math.max(residual, Math.abs(mapped - next));
            x[level + 1] = next;
            // work term of level `level` = ∫ I(a) (φ_level − φ_{level+1}) da (trapezoid on the graded grid)
            workTerm[level] = residualWork(lower, upper);
            double[] swap = lower;
            lower = upper;
            upper = swap;
            level++;
        }
        int levels = level;
        // top level: φ_{L+1} taken as 0 beyond the truncation
        java.util.Arrays.fill(upper, 0.0);
        workTerm[levels] = residualWork(lower, upper);
        double[] tail = java.util.Arrays.copyOf(x, levels + 1);
        for (int k = 1; k <= levels; k++) {
            double xk = tail[k];
            double xk1 = k < levels ? tail[k + 1] : 0.0;
            wait += (Math.pow(xk, d) - Math.pow(xk1, d)) * (k - 1) + chooseRatio(xk, xk1) * workTerm[k];
        }
        double r = levels >= 2 && tail[levels - 1] > 0 ? tail[levels] / tail[levels - 1] : 0.0;
        double cut = r < 1 ? tail[levels] * r / (1 - r) : Double.POSITIVE_INFINITY;
        return new PdeEquilibrium(tail, wait, residual, cut, ageMax, tailBeyond);
    }

    /** F_ℓ(v): the integral of Ḡ φ_ℓ when x_ℓ = v, with x_{ℓ−1} = prev and φ_{ℓ−1} = lower. */
    private double levelMap(double[] lower, double prev, double v, double[] out) {
        double theta = lambda * chooseRatio(prev, v);
        return advance(lower, theta, lambda * Math.pow(v, d), out);
    }

    private double residualWork(double[] phiK, double[] phiK1) {
        double s = 0;
        for (int i = 0; i < age.length - 1; i++) {
            double f0 = tailIntegral[i] * (phiK[i] - phiK1[i]);
            double f1 = tailIntegral[i + 1] * (phiK[i + 1] - phiK1[i + 1]);
            s += 0.5 * (f0 + f1) * (age[i + 1] - age[i]);
        }
        return s;
    }
}
