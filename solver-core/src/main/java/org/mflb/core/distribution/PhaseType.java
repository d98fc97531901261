package org.mflb.core.distribution;

import java.util.Arrays;
import java.util.Optional;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.mflb.core.MflbException;
import org.mflb.core.ErrorKind;
import org.mflb.core.Require;

/**
 * Phase-type law {@code PH(α, T)} (docs/models.md §6): the time to absorption of a continuous-time
 * Markov chain on {@code n} transient phases started in phase {@code i} with probability
 * {@code α_i} (and absorbed at once with probability {@code 1 − Σα}), with sub-generator
 * {@code T} and exit rates {@code t⁰ = −T·1}:
 * <pre>
 *   Ḡ(t) = α e^{Tt} 1,   g(t) = α e^{Tt} t⁰,   η(t) = α e^{Tt} t⁰ / α e^{Tt} 1,
 *   E[S^k] = k! α (−T)^{−k} 1,   m(a) = α e^{Ta} (−T)^{−1} 1 / α e^{Ta} 1.
 * </pre>
 * The row vector {@code α e^{Tt}} is computed by scaling and squaring: {@code e^{Th}} for
 * {@code h = t/2^s} with {@code q h ≤ 1/2} by the Taylor series of the non-negative matrix
 * {@code (T + qI)h} ({@code q = max|T_ii|}, as in uniformization), then squared {@code s} times.
 * Every matrix involved is entrywise non-negative, so no step cancels and the result is
 * accurate entrywise; each squaring is renormalised and the scale kept as a logarithm, so the
 * hazard, the mean residual life and {@link #logSurvival} stay exact at ages where {@code Ḡ}
 * underflows. The sampler simulates the absorbing chain.
 *
 * <p>Validation: {@code α ≥ 0} with {@code 0 < Σα ≤ 1}; {@code T_ii < 0}, {@code T_ij ≥ 0} for
 * {@code i ≠ j}, row sums {@code ≤ 0}; from every phase absorption must be reachable (so that
 * {@code −T} is invertible and the mean finite). Specification
 * {@code ph:alpha=[a1,a2],T=[[t11,t12],[t21,t22]]}.
 */
public final class PhaseType extends AbstractServiceDistribution {

    /** Relative tolerance for row sums slightly above 0 and {@code Σα} slightly above 1 (rounding in user input). */
    private static final double INPUT_TOLERANCE = 1e-12;
    /** The Taylor series of {@code e^{Ah}}, {@code ‖Ah‖ ≤ 1/2}, stops when no term adds this much relative to any entry. */
    private static final double TAYLOR_TOLERANCE = 1e-17;
    /** Beyond the {@code n} terms that fill the reachable entries: 0.5^30/30! ≈ 4e-42. */
    private static final int MAX_TAYLOR_TERMS = 30;
    /**
     * When the smallest positive entry of the renormalised matrix falls below this, squaring moves
     * to the log domain (squares of entries above it, ≥ 1e-300, are still normal doubles).
     */
    private static final double LOG_DOMAIN_THRESHOLD = 1e-150;

    private final int n;
    private final double[] alpha;
    private final double[][] t;
    private final double[] exit;
    private final double alphaSum;
    private final boolean atomAtZero;
    /** Uniformization rate {@code q = max |T_ii|}. */
    private final double q;
    /** {@code (−T)^{−1}}, entrywise non-negative. */
    private final double[][] fundamental;
    /** {@code (−T)^{−1} 1}: expected remaining time from each phase. */
    private final double[] remaining;
    private final double mean;
    // sampler tables
    private final double[] initialCdf;
    private final double[][] jumpCdf;
    private final double[] holdingMean;

    private PhaseType(double[] alpha, double[][] t) {
        this.n = alpha.length;
        this.alpha = alpha;
        this.t = t;
        this.exit = new double[n];
        double qMax = 0;
        for (int i = 0; i < n; i++) {
            double rowSum = 0;
            for (int j = 0; j < n; j++) {
                rowSum += t[i][j];
            }
            exit[i] = Math.max(0.0, -rowSum);
            qMax = Math.max(qMax, -t[i][i]);
        }
        this.q = qMax;
        double sum = 0;
        for (double a : alpha) {
            sum += a;
        }
        this.alphaSum = Math.min(sum, 1.0);
        this.atomAtZero = sum < 1.0 - INPUT_TOLERANCE;
        this.fundamental = invertNegative(t);
        this.remaining = new double[n];
        for (int i = 0; i < n; i++) {
            double r = 0;
            for (int j = 0; j < n; j++) {
                r += fundamental[i][j];
            }
            remaining[i] = r;
        }
        this.mean = dot(alpha, remaining);
        this.initialCdf = cumulative(alpha, !atomAtZero);
        this.jumpCdf = new double[n][];
        this.holdingMean = new double[n];
        for (int i = 0; i < n; i++) {
            double[] w = new double[n + 1];
            for (int j = 0; j < n; j++) {
                w[j] = j == i ? 0.0 : t[i][j];
            }
            w[n] = exit[i];
            double total = 0;
            for (double x : w) {
                total += x;
            }
            for (int j = 0; j <= n; j++) {
                w[j] /= total;
            }
            jumpCdf[i] = cumulative(w, true);
            holdingMean[i] = -1.0 / t[i][i];
        }
    }

    /**
     * @param alpha initial probabilities (not modified; copied)
     * @param subGenerator the sub-generator {@code T} (not modified; copied)
     * @return the phase-type law {@code PH(α, T)}
     * @throws MflbException (INVALID_PARAMETER) when the parameters violate the rules in the class comment
     */
    public static PhaseType of(double[] alpha, double[][] subGenerator) {
        if (alpha == null || alpha.length == 0) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph alpha", "ph alpha is invalid: must have at least one phase");
        }
        int n = alpha.length;
        if (subGenerator == null || subGenerator.length != n) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph T",
                    "ph T is invalid: must be a " + n + "x" + n + " matrix (alpha has " + n + " phases)");
        }
        double[] a = alpha.clone();
        double[][] t = new double[n][];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            if (!(a[i] >= 0) || !Double.isFinite(a[i])) {
                throw MflbException.invalid("ph alpha[" + i + "]", a[i], "a finite number >= 0");
            }
            sum += a[i];
            if (subGenerator[i] == null || subGenerator[i].length != n) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph T",
                        "ph T is invalid: row " + i + " must have " + n + " entries");
            }
            t[i] = subGenerator[i].clone();
        }
        if (!(sum > 0) || sum > 1.0 + INPUT_TOLERANCE) {
            throw MflbException.invalid("ph sum(alpha)", sum, "in (0, 1]");
        }
        for (int i = 0; i < n; i++) {
            double rowSum = 0;
            for (int j = 0; j < n; j++) {
                double x = t[i][j];
                String name = "ph T[" + i + "][" + j + "]";
                if (!Double.isFinite(x)) {
                    throw MflbException.invalid(name, x, "a finite number");
                }
                if (i == j && !(x < 0)) {
                    throw MflbException.invalid(name, x, "< 0 (diagonal of a sub-generator)");
                }
                if (i != j && x < 0) {
                    throw MflbException.invalid(name, x, ">= 0 (off-diagonal rate)");
                }
                rowSum += x;
            }
            if (rowSum > -INPUT_TOLERANCE * t[i][i]) {
                throw MflbException.invalid("ph row sum of T[" + i + "]", rowSum, "<= 0 (exit rate -T·1 is non-negative)");
            }
        }
        requireAbsorbing(t);
        return new PhaseType(a, t);
    }

    /** Every phase must reach a phase with positive exit rate, else {@code −T} is singular. */
    private static void requireAbsorbing(double[][] t) {
        int n = t.length;
        boolean[] reaches = new boolean[n];
        for (int i = 0; i < n; i++) {
            double rowSum = 0;
            for (int j = 0; j < n; j++) {
                rowSum += t[i][j];
            }
            reaches[i] = rowSum < 0;
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < n; i++) {
                if (reaches[i]) {
                    continue;
                }
                for (int j = 0; j < n; j++) {
                    if (j != i && t[i][j] > 0 && reaches[j]) {
                        reaches[i] = true;
                        changed = true;
                        break;
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (!reaches[i]) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph T",
                        "ph T is invalid: phase " + i + " cannot reach absorption (T must be non-singular, mean finite)");
            }
        }
    }

    private static double[][] invertNegative(double[][] t) {
        int n = t.length;
        DMatrixRMaj m = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m.set(i, j, -t[i][j]);
            }
        }
        if (!CommonOps_DDRM.invert(m)) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph T", "ph T is invalid: -T is numerically singular");
        }
        double[][] inv = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                // (−T)^{−1} is entrywise non-negative for a sub-generator; clip rounding noise
                inv[i][j] = Math.max(0.0, m.get(i, j));
            }
        }
        return inv;
    }

    /** Cumulative sums of {@code w}; when {@code complete}, entries from the last positive weight on are exactly 1. */
    private static double[] cumulative(double[] w, boolean complete) {
        double[] c = new double[w.length];
        double s = 0;
        int last = -1;
        for (int i = 0; i < w.length; i++) {
            s += w[i];
            c[i] = s;
            if (w[i] > 0) {
                last = i;
            }
        }
        if (complete && last >= 0) {
            Arrays.fill(c, last, c.length, 1.0);
        }
        return c;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** @return the number of phases {@code n} */
    public int phases() {
        return n;
    }

    /** @return a copy of the initial probabilities {@code α} */
    public double[] alpha() {
        return alpha.clone();
    }

    /** @return a copy of the sub-generator {@code T} */
    public double[][] subGenerator() {
        double[][] c = new double[n][];
        for (int i = 0; i < n; i++) {
            c[i] = t[i].clone();
        }
        return c;
    }

    /** @return a copy of the exit rates {@code t⁰ = −T·1} */
    public double[] exitRates() {
        return exit.clone();
    }

    /**
     * Writes the normalised row vector {@code w} with {@code α e^{Tt} = e^{L} w}, {@code Σw = 1},
     * and returns {@code L = ln Ḡ(t)}; {@code t > 0}.
     */
    private double propagate(double time, double[] w) {
        int s = 0;
        double h = time;
        if (q * time > 0.5) {
            // 2^s > 2 q t, so q h < 1/2
            s = Math.getExponent(2.0 * q * time) + 1;
            h = Math.scalb(time, -s);
        }
        // e^{Th} = e^{-qh} e^{Ah}, A = T + qI >= 0 entrywise; Taylor series of e^{Ah} has no cancellation
        double[][] a = new double[n][n];
        double[][] e = new double[n][n];
        double[][] term = new double[n][n];
        double[][] tmp = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = (t[i][j] + (i == j ? q : 0.0)) * h;
            }
            e[i][i] = 1.0;
            term[i][i] = 1.0;
        }
        // stop when no term changes any entry in relative terms: far entries start at the power
        // of their path length (e.g. (qh)^{k−1}/(k−1)! for Erlang-k), so this gives them full
        // relative accuracy too; terms shrink by at least qh/k ≤ 1/(2k), so the rest is smaller
        for (int k = 1; k < n + MAX_TAYLOR_TERMS; k++) {
            multiply(term, a, tmp);
            boolean changed = false;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double x = tmp[i][j] / k;
                    term[i][j] = x;
                    e[i][j] += x;
                    changed |= x > TAYLOR_TOLERANCE * e[i][j];
                }
            }
            if (!changed) {
                break;
            }
        }
        double log = -q * h;
        int r = 0;
        for (; r < s; r++) {
            multiply(e, e, tmp);
            double norm = 0;
            for (int i = 0; i < n; i++) {
                double row = 0;
                for (int j = 0; j < n; j++) {
                    row += tmp[i][j];
                }
                norm = Math.max(norm, row);
            }
            double minPositive = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double x = tmp[i][j] / norm;
                    e[i][j] = x;
                    if (x > 0) {
                        minPositive = Math.min(minPositive, x);
                    }
                }
            }
            log = 2.0 * log + Math.log(norm);
            if (minPositive < LOG_DOMAIN_THRESHOLD) {
                r++;
                break;
            }
        }
        if (r < s) {
            return propagateInLogs(e, log, s - r, w);
        }
        double total = 0;
        for (int j = 0; j < n; j++) {
            double x = 0;
            for (int i = 0; i < n; i++) {
                x += alpha[i] * e[i][j];
            }
            w[j] = x;
            total += x;
        }
        for (int j = 0; j < n; j++) {
            w[j] /= total;
        }
        return log + Math.log(total);
    }

    /**
     * The remaining {@code squarings} of {@code e^{L} E} with every entry stored as its logarithm
     * ({@code ln Σ_k exp(a_ik + b_kj)}, no cancellation since all terms are non-negative): used once
     * the entries of the matrix span so many orders of magnitude that squaring it in floating point
     * would underflow rows that still matter (e.g. the Jordan structure of Erlang at ages ≫ 1e50).
     */
    private double propagateInLogs(double[][] e, double log, int squarings, double[] w) {
        // matrix = e^{scale} · exp(l) entrywise, with max l = 0: the entries of l stay moderate
        // (their spread is what matters), the huge common factor lives in scale alone
        double scale = log;
        double[][] l = new double[n][n];
        double[][] tmp = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                l[i][j] = Math.log(e[i][j]);
            }
        }
        for (int r = 0; r < squarings; r++) {
            double top = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double max = Double.NEGATIVE_INFINITY;
                    for (int k = 0; k < n; k++) {
                        max = Math.max(max, l[i][k] + l[k][j]);
                    }
                    if (max == Double.NEGATIVE_INFINITY) {
                        tmp[i][j] = max;
                        continue;
                    }
                    double sum = 0;
                    for (int k = 0; k < n; k++) {
                        sum += Math.exp(l[i][k] + l[k][j] - max);
                    }
                    tmp[i][j] = max + Math.log(sum);
                    top = Math.max(top, tmp[i][j]);
                }
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    tmp[i][j] -= top;
                }
            }
            scale = 2.0 * scale + top;
            double[][] swap = l;
            l = tmp;
            tmp = swap;
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            double m = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (alpha[i] > 0) {
                    m = Math.max(m, Math.log(alpha[i]) + l[i][j]);
                }
            }
            double sum = 0;
            if (m > Double.NEGATIVE_INFINITY) {
                for (int i = 0; i < n; i++) {
                    if (alpha[i] > 0) {
                        sum += Math.exp(Math.log(alpha[i]) + l[i][j] - m);
                    }
                }
            }
            w[j] = m + Math.log(sum); // ln of (α exp(l))_j
            max = Math.max(max, w[j]);
        }
        double total = 0;
        for (int j = 0; j < n; j++) {
            w[j] = Math.exp(w[j] - max);
            total += w[j];
        }
        for (int j = 0; j < n; j++) {
            w[j] /= total;
        }
        return scale + max + Math.log(total);
    }

    private static void multiply(double[][] x, double[][] y, double[][] out) {
        int n = x.length;
        for (int i = 0; i < n; i++) {
            double[] row = out[i];
            Arrays.fill(row, 0.0);
            for (int k = 0; k < n; k++) {
                double xik = x[i][k];
                if (xik == 0.0) {
                    continue;
                }
                double[] yk = y[k];
                for (int j = 0; j < n; j++) {
                    row[j] += xik * yk[j];
                }
            }
        }
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double moment(int k) {
        Require.atLeast("k", k, 0);
        double[] v = new double[n];
        Arrays.fill(v, 1.0);
        double[] next = new double[n];
        double factorial = 1.0;
        for (int r = 1; r <= k; r++) {
            for (int i = 0; i < n; i++) {
                next[i] = dot(fundamental[i], v);
            }
            double[] swap = v;
            v = next;
            next = swap;
            factorial *= r;
        }
        return k == 0 ? 1.0 : factorial * dot(alpha, v);
    }

    @Override
    public double survival(double time) {
        if (time < 0) {
            return 1.0;
        }
        if (time == 0) {
            return alphaSum;
        }
        return Math.exp(propagate(time, new double[n]));
    }

    @Override
    public double logSurvival(double time) {
        if (time < 0) {
            return 0.0;
        }
        if (time == 0) {
            return Math.log(alphaSum);
        }
        if (q * time <= 0.5) {
            // 1 − Ḡ(t) − (1 − Σα) = ∫_0^t α e^{Tu} t⁰ du = t α φ1(Tt) t⁰, φ1(X) = Σ X^k/(k+1)!,
            // dominated by its first term for ‖Tt‖ ≤ 1/2: keeps a tiny ln Ḡ exact
            double[] term = exit.clone();
            double[] next = new double[n];
            double[] sum = exit.clone();
            for (int k = 1; k < MAX_TAYLOR_TERMS; k++) {
                double max = 0;
                double sumMax = 0;
                for (int i = 0; i < n; i++) {
                    next[i] = dot(t[i], term) * time / (k + 1);
                }
                for (int i = 0; i < n; i++) {
                    term[i] = next[i];
                    sum[i] += next[i];
                    max = Math.max(max, Math.abs(next[i]));
                    sumMax = Math.max(sumMax, Math.abs(sum[i]));
                }
                if (max <= 1e-17 * sumMax) {
                    break;
                }
            }
            double completed = time * dot(alpha, sum);
            return atomAtZero ? Math.log(alphaSum - completed) : Math.log1p(-completed);
        }
        return propagate(time, new double[n]);
    }

    @Override
    public double density(double time) {
        if (time < 0) {
            return 0.0;
        }
        if (time == 0) {
            return dot(alpha, exit);
        }
        double[] w = new double[n];
        double log = propagate(time, w);
        return Math.exp(log) * dot(w, exit);
    }

    @Override
    public boolean hasDensity() {
        return !atomAtZero;
    }

    @Override
    public double hazard(double time) {
        if (time < 0) {
            return 0.0;
        }
        if (time == 0) {
            return dot(alpha, exit) / alphaSum;
        }
        double[] w = new double[n];
        propagate(time, w);
        return dot(w, exit);
    }

    @Override
    public double meanResidualLife(double age) {
        if (age < 0) {
            return mean - age;
        }
        if (age == 0) {
            return mean / alphaSum;
        }
        double[] w = new double[n];
        propagate(age, w);
        return dot(w, remaining);
    }

    @Override
    public double survivalQuantile(double tailMass) {
        return bisectSurvivalQuantile(tailMass);
    }

    @Override
    public ContinuousSampler createSampler(UniformRandomProvider rng) {
        final ZigguratSampler.Exponential exp = ZigguratSampler.Exponential.of(rng);
        final int phases = n;
        final double[] init = initialCdf;
        final double[][] jump = jumpCdf;
        final double[] hold = holdingMean;
        return () -> {
            double u = rng.nextDouble();
            int i = 0;
            while (i < phases && u >= init[i]) {
                i++;
            }
            double s = 0.0;
            while (i < phases) {
                s += exp.sample() * hold[i];
                double[] c = jump[i];
                double v = rng.nextDouble();
                int j = 0;
                while (v >= c[j]) {
                    j++;
                }
                i = j;
            }
            return s;
        };
    }

    @Override
    public String spec() {
        StringBuilder b = new StringBuilder("ph:alpha=[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append(format(alpha[i]));
        }
        b.append("],T=[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "[" : ",[");
            for (int j = 0; j < n; j++) {
                b.append(j == 0 ? "" : ",").append(format(t[i][j]));
            }
            b.append(']');
        }
        b.append(']');
        // The command-line syntax rescales T to mean 1 unless ,mean=M is given: say the mean when it differs.
        return Math.abs(mean - 1.0) <= 1e-12 ? b.toString() : b.append(",mean=").append(format(mean)).toString();
    }

    @Override
    public Optional<PhaseType> asPhaseType() {
        return Optional.of(this);
    }

    /** @return {@code PH(α, T·E[S]/mean)}, the law rescaled to mean {@code mean} */
    @Override
    public PhaseType withMean(double newMean) {
        double factor = mean / Require.positive("mean", newMean);
        double[][] scaled = subGenerator();
        for (double[] row : scaled) {
            for (int j = 0; j < n; j++) {
                row[j] *= factor;
            }
        }
        return of(alpha, scaled);
    }
}
