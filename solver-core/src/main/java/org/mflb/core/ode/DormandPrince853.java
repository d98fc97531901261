package org.mflb.core.ode;

/**
 * One step at a time of the explicit Runge–Kutta method of Dormand and Prince of order 8 with
 * embedded error estimators of orders 5 and 3 and a continuous extension of order 7 (Hairer, Nørsett
 * and Wanner, <i>Solving Ordinary Differential Equations I</i>, 2nd ed., §II.10, code DOP853; the
 * same coefficients as Hipparchus's {@code DormandPrince853Integrator}, which a test checks). It is
 * the method the fluid solvers used through Hipparchus; here it is driven step by step
 * ({@link SwitchedIntegrator}), so that a caller can stop exactly at a knot of {@code λ(t)}, find the
 * roots of its switching functions on the step's own polynomial and restart without re-estimating
 * the step size.
 * <p>
 * A step from {@code (t, y)} computes 12 stages (the first is the last derivative of the step
 * before: first same as last), the solution {@code y1} of order 8 and the error estimate of Hairer's
 * DOP853 in the norm {@code atol_i + rtol_i max(|y_i|, |y1_i|)}. After an accepted step the
 * derivative at {@code y1} and, on demand ({@link #prepareDense}), three more stages give the
 * polynomial of degree 7
 * <pre>
 *   y(t + θh) = y + θ(v_0 + η(v_1 + θ(v_2 + η(v_3 + θ(v_4 + η(v_5 + θ v_6)))))),   η = 1 − θ,
 * </pre>
 * with {@code v_0 = y1 − y}. Not thread-safe; nothing is allocated per step.
 */
public final class DormandPrince853 {

    /** A smooth vector field {@code dy/dt = f(t, y)}. */
    public interface Field {
        /**
         * @param t time
         * @param y state; not modified
         * @param f the derivative; every component overwritten
         */
        void derivatives(double t, double[] y, double[] f);
    }

    /** The order of the step (used by the step-size control). */
    static final int ORDER = 8;

    /** Nodes {@code c_2..c_16} (stages 14–16 only for the continuous extension). */
    static final double[] C = {
        0.05260015195876774, 0.0789002279381516, 0.1183503419072274, 0.28164965809277265, 0.3333333333333333,
        0.25, 0.3076923076923077, 0.6512820512820513, 0.6, 0.8571428571428571, 1.0, 1.0, 0.1, 0.2,
        0.7777777777777778};

    /** Rows {@code a_{s,1..s−1}} of stages {@code s = 2..16}. */
    static final double[][] A = {
        {0.05260015195876774},
        {0.0197250569845379, 0.0591751709536137},
        {0.02958758547680685, 0.0, 0.08876275643042056},
        {0.24136513415926666, 0.0, -0.884549479328286, 0.9248340032617919},
        {0.037037037037037035, 0.0, 0.0, 0.1708286087294739, 0.12546768756682242},
        {0.037109375, 0.0, 0.0, 0.17025221101954402, 0.060216538980455966, -0.017578125},
        {0.03709200011850479, 0.0, 0.0, 0.17038392571223998, 0.1072620304463733, -0.015319437748624402,
            0.008273789163814023},
        {0.6241109587160757, 0.0, 0.0, -3.360892629446941, -0.8682193468417261, 27.59209969944671,
            20.154067550477894, -43.48988418106996},
        {0.47766253643826434, 0.0, 0.0, -2.4881146199716677, -0.5902908268368431, 21.230051448181193,
            15.279233632882423, -33.28821096898486, -0.020331201708508627},
        {-0.9371424300859873, 0.0, 0.0, 5.186372428844064, 1.09143734899673, -8.149787010746927,
            -18.52006565999696, 22.739487099350505, 2.4936055526796523, -3.0467644718982196},
        {2.273310147516538, 0.0, 0.0, -10.53449546673725, -2.000872058224863, -17.9589318631188,
            27.94888452941996, -2.8589982771350235, -8.87285693353063, 12.360567175794303, 0.6433927460157636},
        {0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585,
            0.3111643669578199, -0.1521609496625161, 0.20136540080403034, 0.04471061572777259},
        {0.056167502283047954, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25350021021662483, -0.2462390374708025,
            -0.12419142326381637, 0.15329179827876568, 0.00820105229563469, 0.007567897660545699, -0.008298},
        {0.03183464816350214, 0.0, 0.0, 0.0, 0.0, 0.028300909672366776, 0.053541988307438566,
            -0.05492374857139099, 0.0, 0.0, -1.0834732869724932E-4, 3.825710908356584E-4, -3.4046500868740456E-4,
            0.1413124436746325},
        {-0.42889630158379194, 0.0, 0.0, 0.0, 0.0, -4.697621415361164, 7.683421196062599, 4.06898981839711,
            0.3567271874552811, 0.0, 0.0, 0.0, -0.0013990241651590145, 2.9475147891527724, -9.15095847217987}};

    /** Weights of the solution of order 8 (stages 1..12). */
    static final double[] B = {
        0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585,
        0.3111643669578199, -0.1521609496625161, 0.20136540080403034, 0.04471061572777259};

    /** Error weights of the order-5 estimator (stages 1..12). */
    static final double[] E5 = {
        0.01312004499419488, 0.0, 0.0, 0.0, 0.0, -1.2251564463762044, -0.4957589496572502, 1.6643771824549864,
        -0.35032884874997366, 0.3341791187130175, 0.08192320648511571, -0.022355307863886294};

    /** Error weights of the order-3 estimator (stages 1..12). */
    static final double[] E3 = {
        -0.18980075407240762, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585,
        -0.42268232132379197, -0.1521609496625161, 0.20136540080403034, 0.022651792198360825};

    /** The continuous extension: {@code v_j = h Σ_s D[j][s] k_s} over the 16 stages. */
    static final double[][] D = {
        {0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585,
            0.3111643669578199, -0.1521609496625161, 0.20136540080403034, 0.04471061572777259, 0.0, 0.0, 0.0, 0.0},
        {0.9457062658834312, 0.0, 0.0, 0.0, 0.0, -4.450312892752409, -1.8915178993145003, 5.801203960010585,
            -0.3111643669578199, 0.1521609496625161, -0.20136540080403034, -0.04471061572777259, 0.0, 0.0, 0.0, 0.0},
        {-0.8914125317668625, 0.0, 0.0, 0.0, 0.0, 8.900625785504818, 3.7830357986290006, -11.60240792002117,
            0.6223287339156398, -0.3043218993250322, 0.4027308016080607, 0.08942123145554517, -1.0, 0.0, 0.0, 0.0},
        {-8.428938276109013, 0.0, 0.0, 0.0, 0.0, 0.5667149535193777, -3.0689499459498917, 2.38466765651207,
            2.1170345824450285, -0.871391583777973, 2.2404374302607883, 0.6315787787694688, -0.08899033645133331,
            18.148505520854727, -9.194632392478356, -4.436036387594894},
        {10.427508642579134, 0.0, 0.0, 0.0, 0.0, 242.28349177525817, 165.20045171727028, -374.5467547226902,
            -22.113666853125302, 7.733432668472264, -30.674084731089398, -9.332130526430229, 15.697238121770845,
            -31.139403219565178, -9.35292435884448, 35.81684148639408},
        {19.985053242002433, 0.0, 0.0, 0.0, 0.0, -387.0373087493518, -189.17813819516758, 527.8081592054236,
            -11.573902539959631, 6.8812326946963, -1.0006050966910838, 0.7777137798053443, -2.778205752353508,
            -60.19669523126412, 84.32040550667716, 11.99229113618279},
        {-25.69393346270375, 0.0, 0.0, 0.0, 0.0, -154.18974869023643, -231.5293791760455, 357.6391179106141,
            93.4053241836243, -37.45832313645163, 104.0996495089623, 29.8402934266605, -43.53345659001114,
            96.32455395918828, -39.17726167561544, -149.72683625798564}};

    /** The stages with a nonzero weight in {@link #B}, {@link #E5}, {@link #E3} (all the same). */
    private static final int[] WEIGHTED = {0, 5, 6, 7, 8, 9, 10, 11};
    /** The stages with a nonzero coefficient in some row of {@link #D}. */
    private static final int[] DENSE = {0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    /** For each row of {@link #A}, the columns that are not zero. */
    private static final int[][] NONZERO = new int[A.length][];

    static {
        for (int r = 0; r < A.length; r++) {
            int count = 0;
            for (double a : A[r]) {
                count += a != 0.0 ? 1 : 0;
            }
            NONZERO[r] = new int[count];
            count = 0;
            for (int c = 0; c < A[r].length; c++) {
                if (A[r][c] != 0.0) {
                    NONZERO[r][count++] = c;
                }
            }
        }
    }

    private final int n;
    private final double[][] k = new double[16][];
    private final double[] stage;
    private double[][] sub;
    private double[] subStage;
    private final double[] y0;
    private final double[] y1;
    private final double[] sum8;
    private final double[] sum5;
    private final double[] sum3;
    private final double[][] v = new double[7][];
    /** For each coordinate, the step whose polynomial coefficients {@link #v} hold (0: none yet). */
    private final long[] denseStep;
    private long step = 1;
    private Field field;
    private double t0;
    private double h;
    private double t1;
    private boolean dense;
    private long evaluations;

    /** @param dimension the number of coordinates */
    public DormandPrince853(int dimension) {
        this.n = dimension;
        for (int s = 0; s < k.length; s++) {
            k[s] = new double[n];
        }
        for (int j = 0; j < v.length; j++) {
            v[j] = new double[n];
        }
        stage = new double[n];
        y0 = new double[n];
        y1 = new double[n];
        sum8 = new double[n];
        sum5 = new double[n];
        sum3 = new double[n];
        denseStep = new long[n];
    }

    /** @return the number of coordinates */
    public int dimension() {
        return n;
    }

    /** @return the number of evaluations of the vector field so far */
    public long evaluations() {
        return evaluations;
    }

    /**
     * Starts from {@code (t, y)}: evaluates the derivative there.
     *
     * @param f the vector field (kept until the next start)
     * @param t time
     * @param y state; copied
     */
    public void start(Field f, double t, double[] y) {
        field = f;
        t0 = t;
        System.arraycopy(y, 0, y0, 0, n);
        evaluate(t, y0, k[0]);
        dense = false;
    }

    private void evaluate(double t, double[] y, double[] f) {
        field.derivatives(t, y, f);
        evaluations++;
    }

    /**
     * Moves the clock without changing the state or its derivative (a new origin of time for the
     * same vector field, which does not depend on the origin).
     *
     * @param t the time of the current state from now on
     */
    public void shiftTime(double t) {
        t0 = t;
    }

    /** @return the time of the current state */
    public double time() {
        return t0;
    }

    /** @return the current state (not a copy: not to be modified) */
    public double[] state() {
        return y0;
    }

    /** @return the derivative at the current state (not a copy) */
    public double[] derivative() {
        return k[0];
    }

    /**
     * Hairer's starting step ({@code hinit} of DOP853): from the sizes of {@code y}, {@code f(t, y)} and
     * of the change of {@code f} over an Euler step.
     *
     * @param absolute absolute tolerance per coordinate
     * @param relative relative tolerance per coordinate
     * @param maxStep the largest step allowed
     * @return a first step, {@code > 0}
     */
    public double initialStep(double[] absolute, double[] relative, double maxStep) {
        double dy = 0;
        double df = 0;
        for (int i = 0; i < n; i++) {
            double scale = absolute[i] + relative[i] * Math.abs(y0[i]);
            dy += square(y0[i] / scale);
            df += square(k[0][i] / scale);
        }
        dy = Math.sqrt(dy / n);
        df = Math.sqrt(df / n);
        double first = dy < 1e-10 || df < 1e-10 ? 1e-6 : 0.01 * dy / df;
        first = Math.min(first, maxStep);
        for (int i = 0; i < n; i++) {
            stage[i] = y0[i] + first * k[0][i];
        }
        evaluate(t0 + first, stage, k[1]);
        double d2 = 0;
        for (int i = 0; i < n; i++) {
            double scale = absolute[i] + relative[i] * Math.abs(y0[i]);
            d2 += square((k[1][i] - k[0][i]) / scale);
        }
        d2 = Math.sqrt(d2 / n) / first;
        double larger = Math.max(df, d2);
        double second = larger <= 1e-15 ? Math.max(1e-6, first * 1e-3) : Math.pow(0.01 / larger, 1.0 / ORDER);
        double step = Math.min(Math.min(100 * first, second), maxStep);
        return step > 0 && Double.isFinite(step) ? step : Math.min(1e-6, maxStep);
    }

    private static double square(double x) {
        return x * x;
    }

    /**
     * Tries a step of {@code h} from the current state: computes the stages, the new state and its
     * error. Nothing changes until {@link #accept}.
     *
     * @param step the step {@code h > 0}
     * @param absolute absolute tolerance per coordinate
     * @param relative relative tolerance per coordinate
     * @return the error in units of the tolerance (accept when {@code ≤ 1}); infinite when a stage is not finite
     */
    public double attempt(double step, double[] absolute, double[] relative) {
        h = step;
        for (int s = 1; s < 12; s++) {
            combine(A[s - 1], NONZERO[s - 1], stage);
            evaluate(t0 + C[s - 1] * h, stage, k[s]);
        }
        java.util.Arrays.fill(sum8, 0.0);
        java.util.Arrays.fill(sum5, 0.0);
        java.util.Arrays.fill(sum3, 0.0);
        for (int s : WEIGHTED) {
            double[] ks = k[s];
            double b = B[s];
            double e5 = E5[s];
            double e3 = E3[s];
            for (int i = 0; i < n; i++) {
                double v = ks[i];
                sum8[i] += b * v;
                sum5[i] += e5 * v;
                sum3[i] += e3 * v;
            }
        }
        double error5 = 0;
        double error3 = 0;
        for (int i = 0; i < n; i++) {
            double next = y0[i] + h * sum8[i];
            y1[i] = next;
            double scale = absolute[i] + relative[i] * Math.max(Math.abs(y0[i]), Math.abs(next));
            error5 += square(sum5[i] / scale);
            error3 += square(sum3[i] / scale);
        }
        if (!Double.isFinite(error5) || !Double.isFinite(error3)) {
            return Double.POSITIVE_INFINITY;
        }
        double denominator = error5 + 0.01 * error3;
        if (denominator <= 0) {
            denominator = 1;
        }
        return Math.abs(h) * error5 / Math.sqrt(n * denominator);
    }

    /** {@code out = y0 + h Σ a_j k_j} over the given columns (as a sequence of vector updates). */
    private void combine(double[] a, int[] columns, double[] out) {
        combine(k, h, a, columns, out);
    }

    /** {@code out = y0 + step Σ a_j stages_j} over the given columns. */
    private void combine(double[][] stages, double step, double[] a, int[] columns, double[] out) {
        double[] first = stages[columns[0]];
        double c0 = step * a[columns[0]];
        for (int i = 0; i < n; i++) {
            out[i] = y0[i] + c0 * first[i];
        }
        for (int j = 1; j < columns.length; j++) {
            double[] kc = stages[columns[j]];
            double c = step * a[columns[j]];
            for (int i = 0; i < n; i++) {
                out[i] += c * kc[i];
            }
        }
    }

    /**
     * The state at a point inside the step last attempted, by a step of the method itself from its
     * start to there (not by its polynomial, whose error inside the step is not controlled: where the
     * step is long against the relaxation of some coordinates, {@code h|λ| ≈ 5}, the polynomial is off
     * by orders of magnitude more than the step's end; a shorter step from the same start is at least
     * as accurate as the step). The stages of the step are not touched.
     *
     * @param fraction the fraction {@code θ ∈ (0, 1]} of the step
     * @param out the state at {@code t + θh}; modified
     */
    public void subStep(double fraction, double[] out) {
        if (fraction == 1.0) {
            System.arraycopy(y1, 0, out, 0, n);
            return;
        }
        if (sub == null) {
            sub = new double[12][];
            for (int s = 1; s < 12; s++) {
                sub[s] = new double[n];
            }
        }
        sub[0] = k[0];
        double step = fraction * h;
        for (int s = 1; s < 12; s++) {
            combine(sub, step, A[s - 1], NONZERO[s - 1], stage2());
            evaluate(t0 + C[s - 1] * step, subStage, sub[s]);
        }
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (int s : WEIGHTED) {
                sum += B[s] * sub[s][i];
            }
            out[i] = y0[i] + step * sum;
        }
    }

    private double[] stage2() {
        if (subStage == null) {
            subStage = new double[n];
        }
        return subStage;
    }

    /** @return the state at the end of the step last attempted (not a copy) */
    public double[] attempted() {
        return y1;
    }

    /**
     * Accepts the step last attempted: evaluates the derivative at its end (the next step's first
     * stage). Until {@link #advance}, the step's polynomial is available ({@link #prepareDense}).
     *
     * @param end the time at the end of the step: {@code t + h}, or a stop it was cut to land on exactly
     */
    public void accept(double end) {
        t1 = end;
        evaluate(end, y1, k[12]);
        dense = false;
    }

    /** @return the end of the step last accepted */
    public double stepEnd() {
        return t1;
    }

    /** @return the start of the step last accepted */
    public double stepStart() {
        return t0;
    }

    /** @return the length of the step last accepted */
    public double stepLength() {
        return h;
    }

    /**
     * Computes the three stages the step's polynomial needs, unless already done. After
     * {@link #accept}, before {@link #advance}. The polynomial's coefficients of each coordinate are
     * then formed when first asked for.
     */
    public void prepareDense() {
        if (dense) {
            return;
        }
        for (int s = 13; s < 16; s++) {
            combine(A[s - 1], NONZERO[s - 1], stage);
            evaluate(t0 + C[s - 1] * h, stage, k[s]);
        }
        step++;
        dense = true;
    }

    /** Forms the polynomial's coefficients of coordinate {@code i} for the current step. */
    private void coefficients(int i) {
        v[0][i] = y1[i] - y0[i]; // exactly the end of the step at θ = 1
        for (int j = 1; j < 7; j++) {
            double[] d = D[j];
            double sum = 0;
            for (int s : DENSE) {
                sum += d[s] * k[s][i];
            }
            v[j][i] = h * sum;
        }
        denseStep[i] = step;
    }

    /**
     * The step's polynomial at {@code θ ∈ [0, 1]} ({@link #prepareDense} first).
     *
     * @param theta the fraction of the step
     * @param out the state; modified
     */
    public void interpolate(double theta, double[] out) {
        if (theta == 1.0) {
            System.arraycopy(y1, 0, out, 0, n);
            return;
        }
        double eta = 1 - theta;
        for (int i = 0; i < n; i++) {
            if (denseStep[i] != step) {
                coefficients(i);
            }
            out[i] = y0[i] + theta * (v[0][i] + eta * (v[1][i] + theta * (v[2][i] + eta * (v[3][i]
                    + theta * (v[4][i] + eta * (v[5][i] + theta * v[6][i]))))));
        }
    }

    /**
     * Some coordinates of the step's polynomial ({@link #prepareDense} first).
     *
     * @param coordinates which coordinates
     * @param theta the fraction of the step, in [0, 1]
     * @param out the state; modified at {@code coordinates} only
     */
    public void interpolate(int[] coordinates, double theta, double[] out) {
        for (int i : coordinates) {
            out[i] = interpolate(i, theta);
        }
    }

    /**
     * One coordinate of the step's polynomial ({@link #prepareDense} first).
     *
     * @param i the coordinate
     * @param theta the fraction of the step, in [0, 1]
     * @return {@code y_i(t + θh)}
     */
    public double interpolate(int i, double theta) {
        if (theta == 1.0) {
            return y1[i];
        }
        if (denseStep[i] != step) {
            coefficients(i);
        }
        double eta = 1 - theta;
        return y0[i] + theta * (v[0][i] + eta * (v[1][i] + theta * (v[2][i] + eta * (v[3][i]
                + theta * (v[4][i] + eta * (v[5][i] + theta * v[6][i]))))));
    }

    /** Moves to the end of the accepted step: its state and derivative become the current ones. */
    public void advance() {
        t0 = t1;
        System.arraycopy(y1, 0, y0, 0, n);
        double[] first = k[0];
        k[0] = k[12];
        k[12] = first;
        dense = false;
    }
}
