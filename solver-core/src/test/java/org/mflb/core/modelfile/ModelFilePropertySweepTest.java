package org.mflb.core.modelfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;
import org.mflb.core.ode.TransientSolver;

/**
 * Property sweep over random well-formed model files (fixed seed): 2 to 50 variables X[1..K] whose
 * transitions {@code X[i] -> X[j]} move one object, so that Σ X = 1 is conserved. Each file is
 * written as text (with parentheses, line continuations and comments) and goes through the whole
 * path: parse, fixed point, transient. Properties: the fixed point is verified (residual recomputed,
 * at most 1e-9), its coordinates are fractions (in [0, 1] to 1e-12) summing to 1; a transient stays
 * in the simplex and conserves the total; a failure is one line, never another exception.
 * Independent truth for the linear (mass-action) files: the fixed point is the stationary law of
 * the continuous-time Markov chain with the same rates, solved here by a dense linear system.
 */
class ModelFilePropertySweepTest {

    private static final int FILES = 24;

    /** A random file; {@code linear} files have rates c·X[i] only. */
    private static String randomFile(SplittableRandom random, int k, boolean linear, double[][] generator) {
        StringBuilder text = new StringBuilder("# random model\nmodel \"random\"\nparam K = " + k + "\nvar X[1..K]\n");
        for (int i = 1; i <= k; i++) {
            // a ring keeps the chain irreducible; extra edges at random
            int[] targets = {i % k + 1, 1 + random.nextInt(k), 1 + random.nextInt(k)};
            for (int t = 0; t < targets.length; t++) {
                int j = targets[t];
                if (j == i || t > 0 && random.nextDouble() < 0.5) {
                    continue;
                }
                double c = 0.5 + 1.5 * random.nextDouble();
                generator[i - 1][j - 1] += c;
                String rate;
                if (linear) {
                    rate = random.nextBoolean() ? c + "*X[" + i + "]" : "(" + c / 2 + " + " + c / 2 + ") * (X[" + i + "])";
                } else {
                    int m = 1 + random.nextInt(k);
                    rate = switch (random.nextInt(3)) {
                        case 0 -> c + "*X[" + i + "]*(1 + X[" + m + "])";
                        case 1 -> c + "*X[" + i + "]/(1 + 2*X[" + m + "]^2)";
                        default -> c + "*X[" + i + "]*exp(-X[" + m + "]) + \\\n    0.1*X[" + i + "]";
                    };
                }
                text.append("X[").append(i).append("] -> X[").append(j).append("] ; ").append(rate)
                        .append("   # edge\n");
            }
        }
        double[] init = new double[k];
        double total = 0;
        for (int i = 0; i < k; i++) {
            init[i] = random.nextDouble();
            total += init[i];
        }
        text.append("init ");
        for (int i = 0; i < k; i++) {
            text.append(i == 0 ? "" : ", ").append("X[").append(i + 1).append("] = ").append(init[i] / total);
        }
        return text.append('\n').toString();
    }

    /** Stationary law π of the chain with rates {@code q[i][j]}: πQ = 0, Σπ = 1 (dense solve). */
    private static double[] stationary(double[][] q) {
        int k = q.length;
        DMatrixRMaj a = new DMatrixRMaj(k, k);
        for (int i = 0; i < k; i++) {
            double out = 0;
            for (int j = 0; j < k; j++) {
                out += q[i][j];
                a.set(j, i, q[i][j]);
            }
            a.add(i, i, -out);
        }
        for (int i = 0; i < k; i++) {
            a.set(k - 1, i, 1.0); // replace one balance equation by the normalisation
        }
        DMatrixRMaj b = new DMatrixRMaj(k, 1);
        b.set(k - 1, 0, 1.0);
        DMatrixRMaj pi = new DMatrixRMaj(k, 1);
        assertTrue(CommonOps_DDRM.solve(a, b, pi));
        return pi.data;
    }

    @Test
    void randomModelFilesHaveVerifiedFixedPointsAndTransientsInTheSimplex() {
        SplittableRandom random = new SplittableRandom(29);
        int solved = 0;
        for (int f = 0; f < FILES; f++) {
            int k = 2 + random.nextInt(49);
            boolean linear = f % 2 == 0;
            double[][] q = new double[k][k];
            String source = randomFile(random, k, linear, q);
            String name = "random-" + f + ".model";
            try {
                ModelFile file = ModelFile.parse(name, source, Map.of());
                assertEquals(k, file.dimension());
                FixedPoint fp = file.fixedPoint();
                double[] x = fp.state();
                assertTrue(fp.residual() <= 1e-9, name + ": residual " + fp.residual());
                assertEquals(fp.residual(), Math.max(fp.residual(), file.exactResidual(x)), 0.0);
                double sum = 0;
                for (double v : x) {
                    assertTrue(v >= -1e-12 && v <= 1 + 1e-12, name + ": " + v);
                    sum += v;
                }
                assertEquals(1.0, sum, 1e-10, name);
                if (linear) {
                    double[] pi = stationary(q);
                    for (int i = 0; i < k; i++) {
                        assertEquals(pi[i], x[i], 1e-9, name + " X[" + (i + 1) + "]");
                    }
                }
                Trajectory tr = new TransientSolver().solve(file.model(), file.initialState(), TimeGrid.uniform(4, 1));
                for (int s = 0; s < tr.grid().size(); s++) {
                    double[] y = tr.state(s);
                    file.checkState(y, "t = " + tr.grid().time(s));
                    double total = 0;
                    for (double v : y) {
                        total += v;
                    }
                    assertEquals(1.0, total, 1e-9, name);
                }
                solved++;
            } catch (MflbException e) {
                assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
                assertTrue(e.getMessage().startsWith(name), e.getMessage());
            }
        }
        // Every linear file has a unique, stable fixed point in the simplex: all of them must be solved.
        assertTrue(solved >= FILES / 2 + FILES / 4, "solved " + solved + " of " + FILES);
    }

    /** Degenerate files: each is refused by one line naming the file, never another exception. */
    @Test
    void filesWithoutAFixedPointSaySoInOneLine() {
        String[] sources = {
            "var A, B\nA -> B ; 0.2 - A\nB -> A ; B\n",        // issue 29: the iteration leaves the simplex
            "var A\n-> A ; A + 0.2\nA -> ; A\n",               // drift 0.2 everywhere: runs away
            "var A, B\nA -> B ; 1\ninit A = 1\n"};             // A empties and goes negative
        for (String source : sources) {
            MflbException e = org.junit.jupiter.api.Assertions.assertThrows(MflbException.class,
                    () -> ModelFile.parse("bad.model", source, Map.of()).fixedPoint());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().startsWith("bad.model"), e.getMessage());
        }
    }
}
