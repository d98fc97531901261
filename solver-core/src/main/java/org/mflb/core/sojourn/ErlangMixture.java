package org.mflb.core.sojourn;

import org.hipparchus.special.Gamma;
import org.mflb.core.MflbException;

/**
 * The sojourn time of a job in a FIFO queue with unit-rate exponential service that finds {@code k}
 * jobs there: {@code Erlang(k+1)}, whatever arrives after it (the residual service is memoryless).
 * If {@code s_j} is the probability that an arrival joins a queue with at least {@code j} jobs, the
 * mixture over {@code k} is (docs/models.md §7)
 * <pre>
 *   P(T > t) = Σ_k (s_k − s_{k+1}) P(Erlang(k+1) > t) = e^{−t} Σ_{j≥0} s_j t^j/j!,     E[T] = Σ_j s_j,
 * </pre>
 * and its density is {@code e^{−t} Σ_j (s_j − s_{j+1}) t^j/j!}. For SQ(d) with replacement
 * {@code s_j = x_j^d}; random routing ({@code s_j = λ^j}) gives {@code T ~ Exp(1 − λ)} (M/M/1).
 * <p>
 * The Poisson weights {@code e^{−t} t^j/j!} are evaluated in log space, {@code exp(j ln t − t − ln j!)}
 * term by term, each at most 1: no overflow or underflow of an intermediate for any {@code t}, and a
 * relative error of about {@code 1e-16 · max(t, j)} per term. Immutable.
 */
public final class ErlangMixture implements SojournLaw {

    private static final ErlangMixture EXPONENTIAL = new ErlangMixture(new double[] {1.0});

    private final double[] shares;
    private final double mean;

    private ErlangMixture(double[] shares) {
        this.shares = shares;
        double m = 0;
        for (double s : shares) {
            m += s;
        }
        this.mean = m;
    }

    /**
     * @param shares {@code (s_0, s_1, ..., s_K)}: nonincreasing, in [0, 1], {@code s_j = 0} beyond
     *        {@code K}; {@code s_0} is the share of arrivals that join a queue at all (1 without losses)
     * @return the mixture
     * @throws MflbException if the shares are not a nonincreasing sequence in [0, 1] (up to 1e-12)
     */
    public static ErlangMixture of(double[] shares) {
        if (shares == null || shares.length == 0) {
            throw MflbException.invalid("shares", "an empty vector", "s_0 .. s_K in [0, 1]");
        }
        double[] s = shares.clone();
        for (int j = 0; j < s.length; j++) {
            double v = s[j];
            if (!(v >= -1e-12 && v <= 1 + 1e-12) || (j > 0 && v > s[j - 1] + 1e-12)) {
                throw MflbException.invalid("shares", "s_" + j + " = " + v,
                        "a nonincreasing sequence in [0, 1] (s_j = P(an arrival joins a queue with >= j jobs))");
            }
            s[j] = Math.min(j > 0 ? s[j - 1] : 1.0, Math.max(0.0, v));
        }
        int last = s.length;
        while (last > 1 && s[last - 1] == 0) {
            last--;
        }
        return new ErlangMixture(java.util.Arrays.copyOf(s, last));
    }

    /** @return {@code Exp(1)}: the service time alone ({@code s_0 = 1}, nothing ahead) */
    public static ErlangMixture exponential() {
        return EXPONENTIAL;
    }

    /** @return {@code (s_0, ..., s_K)} (a copy; trailing zeros dropped) */
    public double[] shares() {
        return shares.clone();
    }

    /** @return the share {@code s_0} of arrivals that join a queue (the law's total mass) */
    public double mass() {
        return shares[0];
    }

    @Override
    public double survival(double t) {
        if (!(t > 0)) {
            return t < 0 || Double.isNaN(t) ? 1.0 : shares[0];
        }
        return poissonWeighted(shares, t, 0);
    }

    /** @return the density {@code e^{−t} Σ_j (s_j − s_{j+1}) t^j/j!} at {@code t > 0} */
    public double density(double t) {
        if (!(t >= 0)) {
            return 0.0;
        }
        return poissonWeighted(shares, t, 1);
    }

    /**
     * {@code Σ_j c_j e^{−t} t^j/j!} with {@code c_j = s_j} (kind 0) or {@code s_j − s_{j+1}} (kind 1).
     * The log-weights follow {@code ln w_j = ln w_{j−1} + ln t − ln j} (refreshed from
     * {@code ln Γ} every 64 terms, so rounding does not accumulate); past the mode, once the weights
     * fall below {@code e^{−745}} (where {@code exp} underflows) the rest of the sum is 0.
     */
    private static double poissonWeighted(double[] s, double t, int kind) {
        double logT = Math.log(t);
        double sum = 0;
        double logWeight = -t;
        for (int j = 0; j < s.length; j++) {
            if (j > 0) {
                logWeight = (j & 63) == 0 ? j * logT - t - Gamma.logGamma(j + 1.0) : logWeight + logT - Math.log(j);
            }
            if (j > t && logWeight < -745.2) {
                break;
            }
            double c = kind == 0 ? s[j] : s[j] - (j + 1 < s.length ? s[j + 1] : 0.0);
            if (c != 0) {
                sum += c * Math.exp(logWeight);
            }
        }
        return sum;
    }

    /** @return {@code E[T] = Σ_j s_j} (over the arrivals that join; the mass {@code s_0} included) */
    @Override
    public double mean() {
        return mean;
    }
}
