package org.mflb.pde;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The M/D/1 waiting time (service 1, docs/models.md §7), shared by the tests of the SQ(d) PDE and of
 * the LL(d) workload model (whose d = 1 is M/G/1).
 */
public final class ErlangCrommelin {

    private ErlangCrommelin() {
    }

    /**
     * Erlang–Crommelin: {@code P(W ≤ w) = (1−ρ) Σ_{k ≤ ⌊w⌋} (λ(k−w))^k/k! e^{−λ(k−w)}}, an alternating
     * sum summed in 50 digits.
     *
     * @return {@code P(W > w)} of M/D/1 with service 1 at load {@code lambda}
     */
    public static double waitingSurvival(double lambda, double w) {
        MathContext mc = new MathContext(50);
        BigDecimal sum = BigDecimal.ZERO;
        for (int k = 0; k <= Math.floor(w); k++) {
            BigDecimal x = new BigDecimal(lambda).multiply(new BigDecimal(k).subtract(new BigDecimal(w)), mc);
            BigDecimal term = x.pow(k, mc);
            BigDecimal factorial = BigDecimal.ONE;
            for (int j = 2; j <= k; j++) {
                factorial = factorial.multiply(BigDecimal.valueOf(j));
            }
            sum = sum.add(term.divide(factorial, mc).multiply(exp(x.negate(), mc), mc), mc);
        }
        return 1 - (1 - lambda) * sum.doubleValue();
    }

    private static BigDecimal exp(BigDecimal x, MathContext mc) {
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int n = 1; n < 2000; n++) {
            term = term.multiply(x, mc).divide(BigDecimal.valueOf(n), mc);
            sum = sum.add(term, mc);
            if (term.abs().compareTo(new BigDecimal("1e-40")) < 0 && n > x.doubleValue()) {
                break;
            }
        }
        return sum;
    }
}
