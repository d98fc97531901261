package org.mflb.fluid.diffusion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;

/**
 * The Halfin–Whitt JSQ diffusion and its prelimit (docs/models.md §9): the level reduction against
 * a dense solve, the exact identities of the capacity-2 chain, the basic adjoint relation of the
 * limit, the two routes to the limit, and Braverman's rate.
 */
class HalfinWhittJsqTest {

    private static final double[] POINTS = {0.5, 1, 2, 4};

    private static HalfinWhittLimit.Result betaOne;

    /** The limit at β = 1 to 1e-6, shared by the tests. */
    private static synchronized HalfinWhittLimit.Result betaOne() {
        if (betaOne == null) {
            betaOne = HalfinWhittLimit.stationary(new HalfinWhittJsq(1), 1e-6, POINTS, null);
        }
        return betaOne;
    }

    /** The stationary law of the full capacity-2 chain on (Q₁, Q₂), 0 ≤ Q₂ ≤ Q₁ ≤ N, by dense Gauss–Jordan. */
    private static double[] denseCapacityTwo(int n, double beta) {
        double a = n - beta * Math.sqrt(n);
        int[][] index = new int[n + 1][n + 1];
        int states = 0;
        for (int q1 = 0; q1 <= n; q1++) {
            for (int q2 = 0; q2 <= q1; q2++) {
                index[q1][q2] = states++;
            }
        }
        double[][] g = new double[states][states];
        for (int q1 = 0; q1 <= n; q1++) {
            for (int q2 = 0; q2 <= q1; q2++) {
                int s = index[q1][q2];
                if (q1 < n) {
                    g[s][index[q1 + 1][q2]] += a;
                } else if (q2 < n) {
                    g[s][index[q1][q2 + 1]] += a;
                }
                if (q1 - q2 > 0) {
                    g[s][index[q1 - 1][q2]] += q1 - q2;
                }
                if (q2 > 0) {
                    g[s][index[q1][q2 - 1]] += q2;
                }
            }
        }
        double[] pi = stationary(g);
        double h = 1 / Math.sqrt(n);
        double m1 = 0;
        double m2 = 0;
        double s11 = 0;
        double s12 = 0;
        for (int q1 = 0; q1 <= n; q1++) {
            for (int q2 = 0; q2 <= q1; q2++) {
                double p = pi[index[q1][q2]];
                double x1 = (q1 - n) * h;
                double x2 = q2 * h;
                m1 += p * x1;
                m2 += p * x2;
                s11 += p * x1 * x1;
                s12 += p * x1 * x2;
            }
        }
        return new double[] {m1, m2, s11 - m1 * m1, s12 - m1 * m2, a * pi[index[n][n]]};
    }

    /** Solves π G = 0, Σπ = 1 (rows of G: out-rates; the diagonal is filled here). */
    static double[] stationary(double[][] g) {
        int n = g.length;
        double[][] m = new double[n][n + 1];
        for (int i = 0; i < n; i++) {
            double out = 0;
            for (int j = 0; j < n; j++) {
                if (j != i) {
                    out += g[i][j];
                }
            }
            g[i][i] = -out;
        }
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                m[r][c] = r == n - 1 ? 1 : g[c][r];
            }
            m[r][n] = r == n - 1 ? 1 : 0;
        }
        for (int c = 0; c < n; c++) {
            int pivot = c;
            for (int r = c + 1; r < n; r++) {
                if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
                    pivot = r;
                }
            }
            double[] t = m[c];
            m[c] = m[pivot];
            m[pivot] = t;
            for (int r = 0; r < n; r++) {
                if (r != c) {
                    double f = m[r][c] / m[c][c];
                    for (int k = c; k <= n; k++) {
                        m[r][k] -= f * m[c][k];
                    }
                }
            }
        }
        double[] pi = new double[n];
        for (int i = 0; i < n; i++) {
            pi[i] = m[i][n] / m[i][i];
        }
        return pi;
    }

    @Test
    void levelReductionMatchesDenseSolveOfTheWholeChain() {
        for (int n : new int[] {4, 9, 16}) {
            double beta = 0.7;
            JsqPrelimit chain = new JsqPrelimit(n, beta, 100, 100);
            assertTrue(chain.levelsComplete());
            JsqPrelimit.Stationary s = chain.stationary(new double[0]);
            double[] dense = denseCapacityTwo(n, beta);
            HalfinWhittStatistics st = s.statistics();
            assertEquals(dense[0], st.meanX1(), 1e-12, "E X1, N = " + n);
            assertEquals(dense[1], st.meanX2(), 1e-12, "E X2, N = " + n);
            assertEquals(dense[2], st.varX1(), 1e-12, "Var X1, N = " + n);
            assertEquals(dense[3], st.covX1X2(), 1e-12, "Cov, N = " + n);
            assertEquals(dense[4], s.pQ3Positive(), 1e-12, "a pi(N, N), N = " + n);
        }
    }

    @Test
    void levelReductionMatchesDenseSolveOfASmallLattice() {
        HalfinWhittLattice lattice = new HalfinWhittLattice(1.3, 0.25, 2, 2.5);
        int top = lattice.topLevel();
        int width = lattice.lastPhase(0) + 1;
        int[][] index = new int[top + 1][width];
        int states = 0;
        for (int j = 0; j <= top; j++) {
            for (int k = 0; k <= lattice.lastPhase(j); k++) {
                index[j][k] = states++;
            }
        }
        double[][] g = new double[states][states];
        double[] t = new double[width];
        double[] a = new double[width];
        double[] d = new double[width];
        for (int j = 0; j <= top; j++) {
            double up = lattice.rates(j, t, a, d);
            int last = lattice.lastPhase(j);
            for (int k = 0; k <= last; k++) {
                int s = index[j][k];
                if (k > 0) {
                    g[s][index[j][k - 1]] += t[k];
                }
                if (k < last) {
                    g[s][index[j][k + 1]] += a[k];
                }
                if (j > 0) {
                    g[s][index[j - 1][k]] += d[k];
                }
                if (k == 0 && j < top) {
                    g[s][index[j + 1][0]] += up;
                }
            }
        }
        double[] pi = stationary(g);
        LevelChainLaw law = LevelReduction.stationary(lattice, true);
        double h = lattice.step();
        double m2 = 0;
        double tail = 0;
        for (int j = 0; j <= top; j++) {
            for (int k = 0; k <= lattice.lastPhase(j); k++) {
                m2 += j * h * pi[index[j][k]];
                if (k * h > 1) {
                    tail += pi[index[j][k]];
                }
            }
        }
        assertEquals(m2, law.meanX2(), 1e-13);
        assertEquals(tail, law.tailX1(1), 1e-13);
        assertEquals(law.meanX2(), law.pushRate(), 1e-13, "E[dU/dt] = E[X2] holds exactly on the lattice");
    }

    @Test
    void prelimitIdentitiesHoldExactlyForEveryN() {
        double beta = 1;
        for (int n : new int[] {100, 400, 1600, 6400}) {
            JsqPrelimit chain = new HalfinWhittJsq(beta).prelimit(n);
            JsqPrelimit.Stationary s = chain.stationary(new double[0]);
            HalfinWhittStatistics st = s.statistics();
            double h = 1 / Math.sqrt(n);
            double a = chain.arrivalRate();
            double blocking = s.pQ3Positive() / a; // π(N, N)
            // generator of Q1 + Q2, Q2, Q1², (Q1 + Q2)²; blocking at (N, N) included
            double m1 = a * (1 - blocking);
            double m2 = st.meanX2() / h;
            double p1 = m2 / a + blocking;
            double q11 = (a * (4 * m1 + 2 * m2 + 2 - (2.0 * n + 1) * p1 - (4.0 * n + 1) * blocking) + 2 * m1 - m2) / 4;
            double q12 = (a * (2 * m2 + (2.0 * n + 1) * p1 - (4.0 * n + 1) * blocking) + m2) / 4;
            assertEquals(-beta - h * s.pQ3Positive(), st.meanX1(), 1e-10, "E X1, N = " + n);
            assertEquals(st.meanX2(), st.localTimeRate(), 1e-10, "E[dU/dt] = E X2, N = " + n);
            assertEquals(h * h * (q11 - m1 * m1), st.varX1(), 1e-10, "Var X1, N = " + n);
            assertEquals(h * h * (q12 - m1 * m2), st.covX1X2(), 1e-10, "Cov, N = " + n);
            if (n >= 1600) {
                // no blocking in double precision: the identities of docs/models.md §9
                assertTrue(s.pQ3Positive() < 1e-14, "P(Q3 > 0) = " + s.pQ3Positive());
                double e2 = st.meanX2();
                assertEquals(-beta, st.meanX1(), 1e-10);
                assertEquals(1 - beta * e2 / 2 - h * (beta + e2 / 2), st.varX1(), 1e-10);
                assertEquals((beta + h) * e2 / 2, st.covX1X2(), 1e-10);
            }
        }
    }

    @Test
    void limitSatisfiesTheBasicAdjointRelationAndTheReferenceValues() {
        double beta = 1;
        HalfinWhittLimit.Result r = betaOne();
        HalfinWhittStatistics v = r.value();
        assertTrue(r.momentError() <= 1e-6);
        assertEquals(-beta, v.meanX1(), 1e-6);
        assertEquals(v.meanX2(), v.localTimeRate(), 1e-6);
        assertEquals(1 - beta * v.meanX2() / 2, v.varX1(), 1e-6);
        assertEquals(beta * v.meanX2() / 2, v.covX1X2(), 1e-6);
        assertEquals(0.814060, v.meanX2(), 1e-6);
        assertEquals(0.592970, v.varX1(), 1e-6);
        for (int i = 1; i < POINTS.length; i++) {
            assertTrue(v.tailX2()[i] < v.tailX2()[i - 1] && v.tailX1()[i] < v.tailX1()[i - 1], "tails decrease");
        }
    }

    @Test
    void latticeAndPrelimitExtrapolationsAgree() {
        for (double beta : new double[] {1, 2}) {
            HalfinWhittJsq model = new HalfinWhittJsq(beta);
            HalfinWhittStatistics lattice = beta == 1 ? betaOne().value()
                    : HalfinWhittLimit.stationary(model, 1e-6, POINTS, null).value();
            HalfinWhittStatistics prelimit = HalfinWhittLimit.fromPrelimit(model, new int[] {1600, 6400, 25600, 102400},
                    POINTS).value();
            assertEquals(lattice.meanX2(), prelimit.meanX2(), 1e-5, "E X2, beta = " + beta);
            assertEquals(lattice.varX1(), prelimit.varX1(), 1e-5, "Var X1, beta = " + beta);
            assertEquals(lattice.varX2(), prelimit.varX2(), 1e-5, "Var X2, beta = " + beta);
            assertEquals(lattice.covX1X2(), prelimit.covX1X2(), 1e-5, "Cov, beta = " + beta);
            for (int i = 0; i < POINTS.length; i++) {
                assertEquals(lattice.tailX2()[i], prelimit.tailX2()[i], 1e-5, "P(X2 > " + POINTS[i] + ")");
            }
        }
    }

    @Test
    void prelimitConvergesAtRateOneOverRootN() {
        double beta = 1;
        HalfinWhittJsq model = new HalfinWhittJsq(beta);
        double limit = betaOne().value().meanX2();
        int[] ns = {1600, 6400, 25600, 102400};
        double[] x = new double[ns.length];
        double[] y = new double[ns.length];
        double[] errors = new double[ns.length];
        double scaled = 0;
        for (int i = 0; i < ns.length; i++) {
            double e = model.prelimit(ns[i]).stationary(new double[0]).statistics().meanX2() - limit;
            errors[i] = e;
            x[i] = Math.log(ns[i]);
            y[i] = Math.log(Math.abs(e));
            scaled = Math.sqrt(ns[i]) * e;
        }
        assertEquals(-2.47, RateFit.rootCoefficients(ns, errors)[0], 0.01, "c1 of c1/sqrt(N) + c2/N");
        double slope = RateFit.slope(x, y);
        assertTrue(slope >= -0.55 && slope <= -0.45, "slope " + slope);
        assertEquals(-2.47, scaled, 0.03, "sqrt(N) (E X2^N - E X2) at N = 102400");
    }

    @Test
    void transientsStartWhereTheyShouldAndConserveJobs() {
        double beta = 1;
        HalfinWhittJsq model = new HalfinWhittJsq(beta);
        double[] times = new double[201];
        for (int i = 0; i < times.length; i++) {
            times[i] = 0.01 * i;
        }
        int n = 100;
        HalfinWhittTransient p = HalfinWhittTransient.prelimit(model, n, -1, 1, times);
        assertEquals(-1, p.meanX1()[0], 1e-15);
        assertEquals(1, p.meanX2()[0], 1e-15);
        // total jobs: d/dt E[X1 + X2] = -beta - E X1 (no blocking from this start within t = 2)
        double integral = 0;
        for (int i = 1; i < times.length; i++) {
            integral += 0.5 * (times[i] - times[i - 1]) * (p.meanX1()[i] + p.meanX1()[i - 1]);
            double lhs = p.meanX1()[i] + p.meanX2()[i] - (p.meanX1()[0] + p.meanX2()[0]);
            assertEquals(-beta * times[i] - integral, lhs, 2e-5, "t = " + times[i]);
        }
        // from far away, the transient relaxes to the stationary law
        HalfinWhittTransient late = HalfinWhittTransient.prelimit(model, n, -1, 1, new double[] {40});
        double stationary = model.prelimit(n).stationary(new double[0]).statistics().meanX2();
        assertEquals(stationary, late.meanX2()[0], 1e-6);
        assertTrue(late.topMass() < 1e-5, "the top level is Q2 = N, of stationary mass about 2e-6");
    }

    @Test
    void diffusionTransientConservesJobsAndThePrelimitApproachesItAtRateOneOverRootN() {
        double beta = 1;
        HalfinWhittJsq model = new HalfinWhittJsq(beta);
        double[] times = new double[51];
        for (int i = 0; i < times.length; i++) {
            times[i] = 0.02 * i;
        }
        HalfinWhittTransient d = HalfinWhittTransient.diffusion(model, -1, 1, times);
        // d/dt E[X1 + X2] = -beta - E X1 (the push cancels in X1 + X2)
        double integral = 0;
        for (int i = 1; i < times.length; i++) {
            integral += 0.5 * (times[i] - times[i - 1]) * (d.meanX1()[i] + d.meanX1()[i - 1]);
            double lhs = d.meanX1()[i] + d.meanX2()[i] - (d.meanX1()[0] + d.meanX2()[0]);
            assertEquals(-beta * times[i] - integral, lhs, 2e-3, "t = " + times[i]);
            assertTrue(d.errorX2()[i] < 2e-3, "extrapolation error at t = " + times[i]);
        }
        HalfinWhittTransient p100 = HalfinWhittTransient.prelimit(model, 100, -1, 1, times);
        HalfinWhittTransient p400 = HalfinWhittTransient.prelimit(model, 400, -1, 1, times);
        int last = times.length - 1;
        double e100 = p100.meanX2()[last] - d.meanX2()[last];
        double e400 = p400.meanX2()[last] - d.meanX2()[last];
        double ratio = e100 / e400;
        assertTrue(ratio > 1.6 && ratio < 2.4, "error ratio N = 100 / N = 400 at t = 1: " + ratio + " (2 at rate N^-1/2)");
    }

    @Test
    void invalidParametersAreRejected() {
        assertThrows(MflbException.class, () -> new HalfinWhittJsq(0));
        assertThrows(MflbException.class, () -> new HalfinWhittJsq(1).prelimit(1));
        assertThrows(MflbException.class, () -> HalfinWhittLimit.stationary(new HalfinWhittJsq(1), 0, POINTS, null));
        assertThrows(MflbException.class, () -> HalfinWhittTransient.diffusion(new HalfinWhittJsq(1), 1, 0, POINTS));
    }
}
