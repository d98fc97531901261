package org.mflb.core.refined;

import java.util.Arrays;
import java.util.List;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/**
 * The moment equations behind the size expansions, assembled from the rate jets of a population
 * model (one place for the algebra shared by the steady-state and the transient solvers).
 *
 * <p>With {@code Y = X^N − x} the deviation from the mean-field state, Gast, Bortolussi &amp;
 * Tribastone (2019, Thm 2; docs/models.md §4) expand the moments as
 * <pre>
 *   E[Y] = V/N + A/N² + …     E[Y⊗Y] = W/N + B/N² + …     E[Y⊗³] = C/N² + …     E[Y⊗⁴] = D/N² + …
 * </pre>
 * and obtain, with {@code F = Df(x)}, {@code F'' = D²f}, …, {@code Q = Σ ℓℓᵀβ_ℓ},
 * {@code R = Σ ℓ⊗ℓ⊗ℓ β_ℓ},
 * <pre>
 *   V' = F V + ½ F'':W                                   (the 1/N term)
 *   W' = F W + W Fᵀ + Q                                  (N × covariance)
 *   D  = 3 Sym(W⊗W),  i.e.  D_ijkl = W_ij W_kl + W_ik W_jl + W_il W_jk
 *   C' = (F⊕F⊕F) C + S3,   S3_ijk = ½[(F'':D)_i;jk + (F'':D)_j;ik + (F'':D)_k;ij]
 *                                 + [Q_ij V_k + (Q'·W)_ij;k + two permutations] + R_ijk
 *   B' = F B + B Fᵀ + S2,  S2 = Sym(F'':C) + ⅓ Sym(F''':D) + Q'·V + ½ Q'':W
 *   A' = F A + S1,         S1 = ½ F'':B + ⅙ F''':C + (1/24) F'''':D
 * </pre>
 * ({@code '} is {@code d/dt}; in steady state the left sides are 0.) These follow from Itô/Dynkin
 * for the monomials {@code Y_i}, {@code Y_iY_j}, {@code Y_iY_jY_k}, {@code Y_iY_jY_kY_l}, Taylor
 * expanding the rates around {@code x}; the fourth-moment equation is solved by Isserlis' form of
 * {@code D} exactly (it satisfies {@code D' = (F⊕F⊕F⊕F)D + 6 Sym(Q⊗W)} whenever {@code W} solves its
 * equation, and {@code D(0) = 0 = 3Sym(W(0)⊗W(0))} for a deterministic start), which removes the
 * {@code K⁴} unknowns of the reference implementation.
 *
 * <p>When the rates depend on the system size, {@code β^N = β + β¹/N + β²/N²} (with
 * {@code f¹ = Σ ℓβ¹}, {@code F¹ = Df¹}, {@code Q¹ = Σ ℓℓᵀβ¹}, {@code f² = Σ ℓβ²}), the same
 * derivation adds {@code f¹} to the 1/N source, {@code f¹_i W_jk + f¹_j W_ik + f¹_k W_ij} to
 * {@code S3}, {@code f¹Vᵀ + Vf¹ᵀ + F¹W + WF¹ᵀ + Q¹} to {@code S2} and {@code F¹V + ½F¹'':W + f²} to
 * {@code S1}; {@code W} and {@code D} are unchanged.
 *
 * <p>Every drift derivative is {@code ∂^k f = Σ_ℓ ℓ ⊗ ∂^k β_ℓ}, so each contraction is a sum over
 * transitions of small contractions on the rate's support: the cost is {@code O(L·K²·m)} for the
 * third-moment source and {@code O(L·K·m^4)} or less for the others ({@code L} transitions, supports
 * of size {@code m}).
 *
 * <p>Not thread-safe: it owns the jets and scratch space of one solve.
 */
final class MomentEquations {

    final int n;
    final int count;
    final int[][] jumpIndex;
    final double[][] jumpValue;
    final RateJets jets;
    private final RateDerivatives source;
    private final int[][] support;
    /** Scratch {@code n×m} and {@code n×n}. */
    private final double[] scratchNm;
    private final double[] scratchNn;
    private final double[] scratchN;
    /** Whether the rates depend on N (size corrections in the jets), and scratch for f¹. */
    private final boolean sized;
    private final double[] f1;

    /**
     * @param model the model (its transitions)
     * @param source derivative source
     * @param expansionOrder 1 (needs rate derivatives up to 2) or 2 (up to 4)
     */
    MomentEquations(PopulationModel model, RateDerivatives source, int expansionOrder) {
        this.n = model.getDimension();
        List<Transition> transitions = model.transitions();
        this.count = transitions.size();
        int needed = expansionOrder == 1 ? 2 : 4;
        if (source.maxOrder() < needed) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "order",
                    "order = " + expansionOrder + " needs rate derivatives up to order " + needed + " but the model supplies "
                            + source.maxOrder() + ": implement SmoothPopulationModel (automatic differentiation) or use order 1");
        }
        this.source = source;
        this.jets = new RateJets(source, count, needed);
        this.jumpIndex = new int[count][];
        this.jumpValue = new double[count][];
        this.support = new int[count][];
        int maxSupport = 0;
        for (int l = 0; l < count; l++) {
            Transition jump = transitions.get(l);
            jumpIndex[l] = new int[jump.size()];
            jumpValue[l] = new double[jump.size()];
            for (int k = 0; k < jump.size(); k++) {
                int i = jump.index(k);
                if (i < 0 || i >= n) {
                    throw MflbException.invalid("transition " + l + " index", i, "in [0, " + (n - 1) + "]");
                }
                jumpIndex[l][k] = i;
                jumpValue[l][k] = jump.value(k);
            }
            support[l] = jets.support(l);
            for (int j : support[l]) {
                if (j < 0 || j >= n) {
                    throw MflbException.invalid("support(" + l + ")", Arrays.toString(support[l]), "coordinates in [0, " + (n - 1) + "]");
                }
            }
            maxSupport = Math.max(maxSupport, support[l].length);
        }
        this.scratchNm = new double[n * Math.max(maxSupport, 1)];
        this.scratchNn = new double[n * n];
        this.scratchN = new double[n];
        this.sized = jets.hasSizeCorrections();
        this.f1 = new double[n];
    }

    /** @return whether the rates depend on the system size */
    boolean isSizeDependent() {
        return sized;
    }

    /** {@code f¹ = Σ_ℓ ℓ β¹_ℓ}, the 1/N correction of the drift, into {@link #f1}. */
    private void correctionDrift() {
        Arrays.fill(f1, 0.0);
        for (int l = 0; l < count; l++) {
            double beta1 = jets.correctionValue(l);
            for (int k = 0; k < jumpIndex[l].length; k++) {
                f1[jumpIndex[l][k]] += jumpValue[l][k] * beta1;
            }
        }
    }

    /** Evaluates the rate jets at {@code (t, x)}; every other method reads them. */
    void evaluate(double t, double[] x) {
        source.evaluate(t, x, jets);
        for (int l = 0; l < count; l++) {
            if (!Double.isFinite(jets.value(l))) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "x",
                        "rate of transition " + l + " is " + jets.value(l) + " at the given state");
            }
        }
    }

    /**
     * @return whether every rate is affine to the order of the jets at the evaluation point (all
     *         second and higher derivatives zero): then {@code F'' = F''' = F'''' = Q'' = 0} and
     *         the 1/N and 1/N² mean terms vanish
     */
    boolean isAffine() {
        for (int l = 0; l < count; l++) {
            for (double[] tensor : new double[][] {jets.hessian(l), jets.third(l), jets.fourth(l)}) {
                if (tensor != null) {
                    for (double v : tensor) {
                        if (v != 0.0) {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }

    /** {@code f = Σ ℓ β_ℓ} (modified). */
    void drift(double[] f) {
        Arrays.fill(f, 0, n, 0.0);
        for (int l = 0; l < count; l++) {
            double beta = jets.value(l);
            for (int k = 0; k < jumpIndex[l].length; k++) {
                f[jumpIndex[l][k]] += jumpValue[l][k] * beta;
            }
        }
    }

    /** @return {@code max_i Σ_ℓ |ℓ_i| β_ℓ}: the gross flux scale against which {@code f} is small at a fixed point */
    double fluxScale() {
        Arrays.fill(scratchN, 0.0);
        for (int l = 0; l < count; l++) {
            double beta = Math.abs(jets.value(l));
            for (int k = 0; k < jumpIndex[l].length; k++) {
                scratchN[jumpIndex[l][k]] += Math.abs(jumpValue[l][k]) * beta;
            }
        }
        double max = 0;
        for (double v : scratchN) {
            max = Math.max(max, v);
        }
        return max;
    }

    /** Dense Jacobian {@code F_ij = Σ_ℓ ℓ_i ∂β_ℓ/∂x_j}, row-major {@code n×n} (modified). */
    void jacobian(double[] f) {
        Arrays.fill(f, 0, n * n, 0.0);
        for (int l = 0; l < count; l++) {
            double[] g = jets.gradient(l);
            int[] s = support[l];
            for (int k = 0; k < jumpIndex[l].length; k++) {
                int row = jumpIndex[l][k] * n;
                double v = jumpValue[l][k];
                for (int a = 0; a < s.length; a++) {
                    f[row + s[a]] += v * g[a];
                }
            }
        }
    }

    /** Noise matrix {@code Q = Σ_ℓ ℓℓᵀ β_ℓ}, row-major {@code n×n} (modified). */
    void noise(double[] q) {
        Arrays.fill(q, 0, n * n, 0.0);
        for (int l = 0; l < count; l++) {
            double beta = jets.value(l);
            int[] idx = jumpIndex[l];
            double[] val = jumpValue[l];
            for (int p = 0; p < idx.length; p++) {
                for (int r = 0; r < idx.length; r++) {
                    q[idx[p] * n + idx[r]] += beta * val[p] * val[r];
                }
            }
        }
    }

    /**
     * Adds {@code F ×_axis in} to {@code out}, for a tensor with {@code p} axes of length {@code n},
     * using the sparse form {@code F = Σ_ℓ ℓ ∇β_ℓᵀ} (cost {@code O(L·m·n^{p−1})}).
     */
    void addJacobianProduct(double[] in, int p, int axis, double[] out) {
        int inner = 1;
        for (int j = axis + 1; j < p; j++) {
            inner *= n;
        }
        int outer = 1;
        for (int j = 0; j < axis; j++) {
            outer *= n;
        }
        for (int l = 0; l < count; l++) {
            double[] g = jets.gradient(l);
            int[] s = support[l];
            int[] idx = jumpIndex[l];
            double[] val = jumpValue[l];
            if (s.length == 0 || idx.length == 0) {
                continue;
            }
            for (int o = 0; o < outer; o++) {
                int base = o * n * inner;
                for (int q = 0; q < inner; q++) {
                    double z = 0;
                    for (int a = 0; a < s.length; a++) {
                        z += g[a] * in[base + s[a] * inner + q];
                    }
                    if (z != 0.0) {
                        for (int k = 0; k < idx.length; k++) {
                            out[base + idx[k] * inner + q] += val[k] * z;
                        }
                    }
                }
            }
        }
    }

    /** @return {@code H_ℓ : M_{ss} = Σ_ab H[a,b] M[s_a, s_b]} for a symmetric {@code n×n} {@code M} */
    private double hessianDot(int l, double[] m) {
        double[] h = jets.hessian(l);
        int[] s = support[l];
        int ms = s.length;
        double sum = 0;
        for (int a = 0; a < ms; a++) {
            int row = s[a] * n;
            for (int b = 0; b < ms; b++) {
                sum += h[a * ms + b] * m[row + s[b]];
            }
        }
        return sum;
    }

    /** The 1/N source {@code ½ F'':W = ½ Σ_ℓ ℓ (H_ℓ : W_ss)} (modified). */
    void firstOrderSource(double[] w, double[] out) {
        Arrays.fill(out, 0, n, 0.0);
        for (int l = 0; l < count; l++) {
            // + f¹ when the rates depend on N
            double hw = 0.5 * hessianDot(l, w) + (sized ? jets.correctionValue(l) : 0.0);
            for (int k = 0; k < jumpIndex[l].length; k++) {
                out[jumpIndex[l][k]] += jumpValue[l][k] * hw;
            }
        }
    }

    /** The third-moment source {@code S3} (see the class documentation), {@code n³} (modified). */
    void thirdMomentSource(double[] w, double[] v, double[] out) {
        int n2 = n * n;
        Arrays.fill(out, 0, n2 * n, 0.0);
        double[] g2 = scratchNn;
        double[] mws = scratchNm;
        double[] y = scratchN;
        for (int l = 0; l < count; l++) {
            int[] s = support[l];
            int ms = s.length;
            int[] idx = jumpIndex[l];
            double[] val = jumpValue[l];
            double beta = jets.value(l);
            double[] g = jets.gradient(l);
            double[] h = jets.hessian(l);
            // G = (H:W_ss) W + 2 (W_{:,s} H) W_{s,:} = Σ_ab H_ab D[s_a, s_b, ·, ·] by Isserlis.
            boolean curved = false;
            for (int a = 0; a < ms * ms; a++) {
                curved |= h[a] != 0.0;
            }
            if (curved) {
                double hw = hessianDot(l, w);
                for (int j = 0; j < n; j++) {
                    for (int b = 0; b < ms; b++) {
                        double sum = 0;
                        for (int a = 0; a < ms; a++) {
                            sum += w[j * n + s[a]] * h[a * ms + b];
                        }
                        mws[j * ms + b] = sum;
                    }
                }
                {
                    for (int j = 0; j < n; j++) {
                        for (int k = 0; k < n; k++) {
                            double sum = hw * w[j * n + k];
                            for (int b = 0; b < ms; b++) {
                                sum += 2 * mws[j * ms + b] * w[s[b] * n + k];
                            }
                            g2[j * n + k] = sum;
                        }
                    }
                    // ½ T_pqr with T_pqr = ℓ_p G_qr, scattered to (p,q,r), (q,p,r), (q,r,p).
                    for (int e = 0; e < idx.length; e++) {
                        int pI = idx[e];
                        double c = 0.5 * val[e];
                        for (int q = 0; q < n; q++) {
                            for (int r = 0; r < n; r++) {
                                double t = c * g2[q * n + r];
                                out[pI * n2 + q * n + r] += t;
                                out[q * n2 + pI * n + r] += t;
                                out[q * n2 + r * n + pI] += t;
                            }
                        }
                    }
                }
            }
            // U_pqr = ℓ_p ℓ_q y_r with y = β V + W_{:,s} ∇β, scattered to (p,q,r), (p,r,q), (r,p,q).
            for (int r = 0; r < n; r++) {
                double sum = beta * v[r];
                for (int a = 0; a < ms; a++) {
                    sum += w[r * n + s[a]] * g[a];
                }
                y[r] = sum;
            }
            for (int e1 = 0; e1 < idx.length; e1++) {
                for (int e2 = 0; e2 < idx.length; e2++) {
                    int pI = idx[e1];
                    int qI = idx[e2];
                    double c = val[e1] * val[e2];
                    for (int r = 0; r < n; r++) {
                        double t = c * y[r];
                        out[pI * n2 + qI * n + r] += t;
                        out[pI * n2 + r * n + qI] += t;
                        out[r * n2 + pI * n + qI] += t;
                    }
                    // R = Σ β ℓ⊗ℓ⊗ℓ.
                    for (int e3 = 0; e3 < idx.length; e3++) {
                        out[pI * n2 + qI * n + idx[e3]] += beta * c * val[e3];
                    }
                }
            }
        }
        if (sized) {
            addThirdMomentCorrection(w, out);
        }
    }

    /** Adds {@code f¹_i W_jk + f¹_j W_ik + f¹_k W_ij}, the size correction of {@code S3}. */
    private void addThirdMomentCorrection(double[] w, double[] out) {
        correctionDrift();
        int n2 = n * n;
        for (int p = 0; p < n; p++) {
            double fp = f1[p];
            if (fp == 0.0) {
                continue;
            }
            for (int q = 0; q < n; q++) {
                for (int r = 0; r < n; r++) {
                    double t = fp * w[q * n + r];
                    out[p * n2 + q * n + r] += t;
                    out[q * n2 + p * n + r] += t;
                    out[q * n2 + r * n + p] += t;
                }
            }
        }
    }

    /** The second-moment source {@code S2} (see the class documentation), {@code n×n} (modified). */
    void secondMomentSource(double[] w, double[] v, double[] c3, double[] out) {
        int n2 = n * n;
        Arrays.fill(out, 0, n2, 0.0);
        double[] e = scratchN;
        for (int l = 0; l < count; l++) {
            int[] s = support[l];
            int ms = s.length;
            int[] idx = jumpIndex[l];
            double[] val = jumpValue[l];
            if (idx.length == 0 || (ms == 0 && !sized)) {
                continue;
            }
            double[] g = jets.gradient(l);
            double[] h = jets.hessian(l);
            double[] d3 = jets.third(l);
            // e_j = Σ_ab H_ab C[s_a, s_b, j] + Σ_c t_c W[s_c, j],  t_c = Σ_ab T3_abc W[s_a, s_b]
            // (the second part is ⅓(F''':D)_{·;j} per unit jump, by Isserlis and symmetry of T3).
            Arrays.fill(e, 0.0);
            for (int a = 0; a < ms; a++) {
                for (int b = 0; b < ms; b++) {
                    double hab = h[a * ms + b];
                    if (hab != 0.0) {
                        int base = s[a] * n2 + s[b] * n;
                        for (int j = 0; j < n; j++) {
                            e[j] += hab * c3[base + j];
                        }
                    }
                }
            }
            for (int cc = 0; cc < ms; cc++) {
                double t = 0;
                for (int a = 0; a < ms; a++) {
                    for (int b = 0; b < ms; b++) {
                        t += d3[(a * ms + b) * ms + cc] * w[s[a] * n + s[b]];
                    }
                }
                if (t != 0.0) {
                    int row = s[cc] * n;
                    for (int j = 0; j < n; j++) {
                        e[j] += t * w[row + j];
                    }
                }
            }
            // Sym(ℓ ⊗ e)
            for (int k = 0; k < idx.length; k++) {
                int i = idx[k];
                double half = 0.5 * val[k];
                for (int j = 0; j < n; j++) {
                    double t = half * e[j];
                    out[i * n + j] += t;
                    out[j * n + i] += t;
                }
            }
            // ℓℓᵀ (∇β·V_s + ½ H:W_ss)
            double gv = 0;
            for (int a = 0; a < ms; a++) {
                gv += g[a] * v[s[a]];
            }
            double coefficient = gv + 0.5 * hessianDot(l, w) + (sized ? jets.correctionValue(l) : 0.0);
            for (int p = 0; p < idx.length; p++) {
                for (int r = 0; r < idx.length; r++) {
                    out[idx[p] * n + idx[r]] += coefficient * val[p] * val[r];
                }
            }
        }
        if (sized) {
            // f¹Vᵀ + V f¹ᵀ + F¹W + W F¹ᵀ (Q¹ was added above with the ℓℓᵀ terms): per transition,
            // ℓ (β¹ V + W_{:,s} ∇β¹)ᵀ and its transpose.
            for (int l = 0; l < count; l++) {
                int[] s = support[l];
                int[] idx = jumpIndex[l];
                double[] val = jumpValue[l];
                double beta1 = jets.correctionValue(l);
                double[] g1 = jets.correctionGradient(l);
                for (int j = 0; j < n; j++) {
                    double z = beta1 * v[j];
                    for (int a = 0; a < s.length; a++) {
                        z += g1[a] * w[s[a] * n + j];
                    }
                    e[j] = z;
                }
                for (int k = 0; k < idx.length; k++) {
                    int i = idx[k];
                    for (int j = 0; j < n; j++) {
                        double t = val[k] * e[j];
                        out[i * n + j] += t;
                        out[j * n + i] += t;
                    }
                }
            }
        }
    }

    /** The 1/N² mean source {@code S1} (see the class documentation), length {@code n} (modified). */
    void secondOrderMeanSource(double[] w, double[] v, double[] b2, double[] c3, double[] out) {
        int n2 = n * n;
        Arrays.fill(out, 0, n, 0.0);
        for (int l = 0; l < count; l++) {
            int[] s = support[l];
            int ms = s.length;
            int[] idx = jumpIndex[l];
            if (idx.length == 0 || (ms == 0 && !sized)) {
                continue;
            }
            double[] d3 = jets.third(l);
            double[] d4 = jets.fourth(l);
            double sum = 0.5 * hessianDot(l, b2);
            double third = 0;
            for (int a = 0; a < ms; a++) {
                for (int b = 0; b < ms; b++) {
                    int base = s[a] * n2 + s[b] * n;
                    for (int c = 0; c < ms; c++) {
                        third += d3[(a * ms + b) * ms + c] * c3[base + s[c]];
                    }
                }
            }
            sum += third / 6;
            // (1/24) T4 : D with D = 3 Sym(W⊗W) and T4 symmetric: (1/8) Σ T4_abcd W_ab W_cd.
            double fourth = 0;
            for (int a = 0; a < ms; a++) {
                for (int b = 0; b < ms; b++) {
                    double wab = w[s[a] * n + s[b]];
                    if (wab == 0.0) {
                        continue;
                    }
                    for (int c = 0; c < ms; c++) {
                        for (int d = 0; d < ms; d++) {
                            fourth += d4[((a * ms + b) * ms + c) * ms + d] * wab * w[s[c] * n + s[d]];
                        }
                    }
                }
            }
            sum += fourth / 8;
            if (sized) {
                // + F¹V + ½ F¹'':W + f²
                double[] g1 = jets.correctionGradient(l);
                double[] h1 = jets.correctionHessian(l);
                double correction = jets.secondCorrectionValue(l);
                for (int a = 0; a < ms; a++) {
                    correction += g1[a] * v[s[a]];
                    for (int b = 0; b < ms; b++) {
                        correction += 0.5 * h1[a * ms + b] * w[s[a] * n + s[b]];
                    }
                }
                sum += correction;
            }
            for (int k = 0; k < idx.length; k++) {
                out[idx[k]] += jumpValue[l][k] * sum;
            }
        }
    }
}
