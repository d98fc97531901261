package org.mflb.core.ode;

import org.hipparchus.linear.MatrixUtils;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * Integrates one smooth piece of a piecewise-smooth vector field to a stop or to the first upward
 * crossing of one of its switching functions, step by step with {@link DormandPrince853}: steps
 * chosen by its error estimate (as Hipparchus chooses them), cut to land exactly on the stop (a knot
 * of {@code λ(t)}, the end of the grid), kept across a stop when the same piece goes on, and the
 * crossings found on each step's own polynomial, not by sampling at a fixed check interval.
 * <p>
 * <b>Crossings.</b> A switching function {@code g(t, y)} ends the piece where it goes from negative
 * to {@code ≥ 0}. On an accepted step, {@code g} along the step's polynomial {@code y(t + θh)} is a
 * polynomial of degree 7 in {@code θ} when {@code g} is affine in {@code (t, y)} (every switching
 * function of the fluid models is): its values at the 8 Chebyshev–Lobatto points of the step
 * determine it, and its Bernstein coefficients (the values' image by a fixed 8×8 matrix) bound it.
 * If all are negative {@code g} stays negative over the step. Otherwise the step is halved by de
 * Casteljau's algorithm until a part has exactly one sign change in its coefficients (then exactly
 * one root in it, Descartes' rule for the Bernstein basis), and the earliest upward one is kept. The
 * polynomial only says where to look: inside a step it may be far off (in a stiff step, or where the
 * drift has a kink within rounding of the surface), so the crossing is verified, and located by the
 * Illinois method to a few units in the last place of the time at the right side of the root (where
 * {@code g ≥ 0}), on {@code g} of the state given by a step of the method from the step's start to
 * there ({@link DormandPrince853#subStep}), which is as accurate as the step; the piece ends in that
 * state. A crossing the polynomial shows but the method's states do not is a wiggle of the polynomial
 * and no event; when {@code g} is negative at a step's start and not at its end, the ends decide. A
 * touch of 0 without a sign change (a grazing trajectory), or two crossings closer than
 * {@code 2^{-40}} of a step, is not an event. A function that starts the piece at or above 0 (on the
 * surface just left) ends it only after it has been seen negative.
 * <p>
 * <b>No minimal step.</b> Rejected steps are shortened down to a few units in the last place of the
 * time; a step that short is taken whatever its error estimate, so a stretch of any positive length is
 * integrated and nothing fails for want of a step. Only a drift that is not finite at that scale stops
 * the integration ({@link ErrorKind#NO_CONVERGENCE}).
 * <p>
 * <b>Clock.</b> The field and the switching functions are given the time since the start of the call
 * ({@link LocalRate}), the observers both that and the absolute time.
 */
public final class SwitchedIntegrator {

    /** The switching functions of a piece: it ends where one of them crosses 0 upward. */
    public interface Switching {
        /** @return the number of functions */
        int count();

        /** @return function {@code k} at {@code (t, y)} */
        double value(int k, double t, double[] y);

        /**
         * @return the coordinates of {@code y} the functions read (the others are not interpolated
         *         for them), or {@code null} for all
         */
        default int[] coordinates() {
            return null;
        }
    }

    /** Told of every accepted step, in time order (the last one cut at the crossing that ends the piece). */
    public interface Observer {
        /** @param step the step: its polynomial is valid from {@code step.start()} to {@code step.end()} */
        void accepted(Step step);
    }

    /** Safety factor, smallest and largest change of the step size (as Hipparchus's defaults). */
    private static final double SAFETY = 0.9;
    private static final double MIN_REDUCTION = 0.2;
    private static final double MAX_GROWTH = 10.0;
    /** The degree of the step's polynomial and the points it is sampled at for the crossings. */
    private static final int DEGREE = 7;
    private static final double[] NODES = new double[DEGREE + 1];
    /** Node values to Bernstein coefficients on [0, 1]. */
    private static final double[][] TO_BERNSTEIN;
    /** Halvings of a step at most in the search for a crossing. */
    private static final int MAX_DEPTH = 40;

    static {
        for (int i = 0; i <= DEGREE; i++) {
            NODES[i] = i == 0 ? 0.0 : i == DEGREE ? 1.0 : 0.5 * (1 - Math.cos(i * Math.PI / DEGREE));
        }
        double[][] basis = new double[DEGREE + 1][DEGREE + 1];
        for (int i = 0; i <= DEGREE; i++) {
            for (int j = 0; j <= DEGREE; j++) {
                basis[i][j] = binomial(DEGREE, j) * Math.pow(NODES[i], j) * Math.pow(1 - NODES[i], DEGREE - j);
            }
        }
        TO_BERNSTEIN = MatrixUtils.inverse(MatrixUtils.createRealMatrix(basis)).getData();
    }

    private final double maxStep;
    private DormandPrince853[] methods = new DormandPrince853[0];
    private DormandPrince853 method;
    private double suggested = Double.NaN;
    private double time;
    private double localTime;
    private double stoppedAt = Double.NaN;
    private long steps;
    private long rejected;
    private final Step view = new Step();
    private final double[] coefficients = new double[DEGREE + 1];
    private final double[][][] halves = new double[MAX_DEPTH + 1][2][DEGREE + 1];
    private final double[] scratch = new double[DEGREE + 1];
    private final double[] nodeValues = new double[DEGREE + 1];
    private double[][] nodeStates = new double[0][];
    private double[] probe = new double[0];
    private double[] startValues = new double[0];
    private double[] nodeValuesEnd = new double[0];
    /** Whether each function has been seen negative at a step's start or end since the piece began. */
    private boolean[] armed = new boolean[0];
    private double bracketLow;
    private double bracketHigh;
    private double foundFraction;
    private double crossingFraction;

    /** @param maxStep the largest step, {@code > 0} */
    public SwitchedIntegrator(double maxStep) {
        if (!(maxStep > 0)) {
            throw MflbException.invalid("maxStep", maxStep, "> 0");
        }
        this.maxStep = maxStep;
    }

    /** @return the time where the last {@link #integrate} stopped */
    public double time() {
        return time;
    }

    /** @return the same on the clock of that integration: the time since its start */
    public double localTime() {
        return localTime;
    }

    /** @return the steps accepted so far */
    public long steps() {
        return steps;
    }

    /** @return the steps rejected so far */
    public long rejectedSteps() {
        return rejected;
    }

    /** @return the evaluations of vector fields so far */
    public long evaluations() {
        long total = 0;
        for (DormandPrince853 m : methods) {
            total += m == null ? 0 : m.evaluations();
        }
        return total;
    }

    /**
     * Integrates {@code field} from {@code (t, y)} to {@code target}, or to the first upward crossing
     * of one of {@code switching}'s functions. The field and the switching functions are given the
     * time since {@code t}, {@code τ ∈ [0, target − t]} (see {@link LocalRate}: between knots of
     * {@code λ(t)} a time so measured is exact to its own last place, not to that of {@code t}).
     *
     * @param field the piece's vector field, in {@code τ}
     * @param switching its switching functions, in {@code τ}
     * @param t the start
     * @param y the state at {@code t}; overwritten with the state where the integration stopped
     * @param target the stop, {@code ≥ t}
     * @param absolute absolute tolerance per coordinate
     * @param relative relative tolerance per coordinate
     * @param resume whether this continues the previous call with the same field from where it stopped
     *            (at its target, a knot) in the same coordinates: the step size and the derivative
     *            there are kept
     * @param observer told of every accepted step, or {@code null}
     * @return the index of the function that crossed 0 ({@link #time()} is where), or −1 when {@code target} was reached
     */
    public int integrate(DormandPrince853.Field field, Switching switching, double t, double[] y, double target,
            double[] absolute, double[] relative, boolean resume, Observer observer) {
        int n = y.length;
        double span = target - t;
        DormandPrince853 m = methodFor(n);
        boolean kept = resume && m == method && stoppedAt == t && Double.isFinite(suggested);
        method = m;
        stoppedAt = Double.NaN;
        if (kept) {
            m.shiftTime(0);
        } else {
            m.start(field, 0, y);
            suggested = Double.NaN;
        }
        int count = switching.count();
        prepareCrossings(n, count);
        for (int s = 0; s < count; s++) {
            startValues[s] = switching.value(s, 0, m.state());
            if (!kept) {
                armed[s] = startValues[s] < 0;
            }
        }
        time = t;
        localTime = 0;
        if (!(span > 0)) {
            stoppedAt = t;
            return -1;
        }
        if (!Double.isFinite(suggested)) {
            suggested = m.initialStep(absolute, relative, Math.min(maxStep, span));
        }
        while (true) {
            double now = m.time();
            double h = Math.min(suggested, maxStep);
            double end = now + h;
            boolean cut = false;
            if (end >= span || now + 1.01 * h >= span) {
                cut = span - now < h;
                end = span;
                h = span - now;
            }
            double smallest = 4 * Math.ulp(Math.max(now, span));
            double error = m.attempt(h, absolute, relative);
            boolean reduced = false;
            while (!(error <= 1)) {
                double shorter = h * (Double.isFinite(error)
                        ? Math.max(MIN_REDUCTION, SAFETY * Math.pow(error, -1.0 / DormandPrince853.ORDER))
                        : 0.25);
                if (!(shorter > smallest)) {
                    if (Double.isFinite(error)) {
                        break; // as short as the time allows: taken at that length
                    }
                    throw new MflbException(ErrorKind.NO_CONVERGENCE, null, "the drift is not finite near t = " + (t + now));
                }
                rejected++;
                h = shorter;
                end = now + h;
                error = m.attempt(h, absolute, relative);
                reduced = true;
            }
            m.accept(end);
            steps++;
            double factor = Double.isFinite(error) && error > 0
                    ? Math.min(MAX_GROWTH, Math.max(MIN_REDUCTION, SAFETY * Math.pow(error, -1.0 / DormandPrince853.ORDER)))
                    : MAX_GROWTH;
            double next = h * factor;
            // a step cut short to land on the stop says nothing against the step size before it
            suggested = Math.max(cut && !reduced ? Math.max(next, suggested) : next, smallest);
            int fired = count == 0 ? -1 : firstCrossing(switching, now, end, n, count);
            double reached = fired >= 0 ? bracketHigh : end;
            view.set(m, t, target, span, now, end, reached);
            if (fired >= 0) {
                // at the located time itself (not at its rounding in absolute time), the state the
                // crossing was found on: by a step of the method from the step's start
                m.subStep(crossingFraction, y);
                if (observer != null) {
                    observer.accepted(view);
                }
                suggested = Double.NaN;
                method = null; // what follows starts afresh
                time = view.end();
                localTime = reached;
                return fired;
            }
            if (observer != null) {
                observer.accepted(view);
            }
            m.advance();
            System.arraycopy(nodeValuesEnd, 0, startValues, 0, count);
            if (end == span) {
                System.arraycopy(m.state(), 0, y, 0, n);
                time = target;
                localTime = span;
                stoppedAt = target;
                return -1;
            }
        }
    }

    private DormandPrince853 methodFor(int n) {
        if (n >= methods.length) {
            methods = java.util.Arrays.copyOf(methods, n + 1);
        }
        if (methods[n] == null) {
            methods[n] = new DormandPrince853(n);
        }
        return methods[n];
    }

    private void prepareCrossings(int n, int count) {
        if (startValues.length < count) {
            startValues = new double[count];
            nodeValuesEnd = new double[count];
            armed = new boolean[count];
        }
        if (probe.length != n) {
            probe = new double[n];
            nodeStates = new double[DEGREE - 1][n];
        }
    }

    /**
     * The earliest upward crossing on the accepted step {@code [start, end]}: its index, with the
     * refined time in {@link #bracketHigh}; or −1. Records each function's value at the end in
     * {@link #nodeValuesEnd}.
     */
    private int firstCrossing(Switching switching, double start, double end, int n, int count) {
        DormandPrince853 m = method;
        double[] last = m.attempted();
        boolean interior = false;
        int best = -1;
        double bestTime = Double.POSITIVE_INFINITY;
        double bestFraction = Double.NaN;
        int[] read = switching.coordinates();
        for (int s = 0; s < count; s++) {
            double atEnd = switching.value(s, end, last);
            nodeValuesEnd[s] = atEnd;
            if (!interior) {
                m.prepareDense();
                for (int i = 1; i < DEGREE; i++) {
                    if (read == null) {
                        m.interpolate(NODES[i], nodeStates[i - 1]);
                    } else {
                        m.interpolate(read, NODES[i], nodeStates[i - 1]);
                    }
                }
                interior = true;
            }
            nodeValues[0] = startValues[s];
            for (int i = 1; i < DEGREE; i++) {
                nodeValues[i] = switching.value(s, start + NODES[i] * (end - start), nodeStates[i - 1]);
            }
            nodeValues[DEGREE] = atEnd;
            boolean armedAtStart = armed[s];
            if (atEnd < 0) {
                armed[s] = true;
            }
            double after = 0;
            if (!armedAtStart) {
                // on or past its surface since the piece began: it counts only from where it is seen negative
                int first = 1;
                while (first <= DEGREE && !(nodeValues[first] < 0)) {
                    first++;
                }
                if (first > DEGREE) {
                    continue;
                }
                after = NODES[first];
            }
            double found = Double.NaN;
            for (int attempt = 0; attempt < 16 && Double.isNaN(found); attempt++) {
                toBernstein(nodeValues, coefficients);
                if (!search(coefficients, 0.0, 1.0, after, 0)) {
                    break;
                }
                found = refine(switching, s, start, end, bracketLow, bracketHigh);
                after = bracketHigh;
            }
            if (Double.isNaN(found) && armedAtStart && atEnd >= 0) {
                // the ends decide, whatever the polynomial shows inside the step
                found = refine(switching, s, start, end, 0.0, 1.0);
            }
            if (found < bestTime) {
                bestTime = found;
                best = s;
                bestFraction = foundFraction;
            }
        }
        bracketHigh = bestTime;
        crossingFraction = bestFraction;
        return best;
    }

    private static void toBernstein(double[] values, double[] out) {
        for (int j = 0; j <= DEGREE; j++) {
            double sum = 0;
            for (int i = 0; i <= DEGREE; i++) {
                sum += TO_BERNSTEIN[j][i] * values[i];
            }
            out[j] = sum;
        }
        out[0] = values[0];
        out[DEGREE] = values[DEGREE];
    }

    /**
     * The first part of {@code [lo, hi]} past {@code after} with one upward sign change, into
     * {@link #bracketLow}, {@link #bracketHigh} (fractions of the step).
     */
    private boolean search(double[] b, double lo, double hi, double after, int depth) {
        if (hi <= after) {
            return false;
        }
        boolean negative = false;
        boolean nonNegative = false;
        int changes = 0;
        for (int i = 0; i <= DEGREE; i++) {
            boolean sign = b[i] >= 0;
            if (sign) {
                nonNegative = true;
            } else {
                negative = true;
            }
            if (i > 0 && sign != (b[i - 1] >= 0)) {
                changes++;
            }
        }
        if (!negative || !nonNegative) {
            return false; // g keeps one sign on the part
        }
        boolean upward = b[0] < 0 && b[DEGREE] >= 0;
        if (lo >= after && (changes == 1 || depth >= MAX_DEPTH)) {
            // one root (upward or downward); or, at the finest halving, a crossing pair or a graze
            if (upward) {
                bracketLow = lo;
                bracketHigh = hi;
                return true;
            }
            return false;
        }
        if (depth >= MAX_DEPTH) {
            return false;
        }
        double mid = 0.5 * (lo + hi);
        double[] left = halves[depth][0];
        double[] right = halves[depth][1];
        split(b, left, right, scratch);
        return search(left, lo, mid, after, depth + 1) || search(right, mid, hi, after, depth + 1);
    }

    /** De Casteljau at 1/2: the Bernstein coefficients of the two halves. */
    private static void split(double[] b, double[] left, double[] right, double[] work) {
        System.arraycopy(b, 0, work, 0, DEGREE + 1);
        left[0] = work[0];
        right[DEGREE] = work[DEGREE];
        for (int r = 1; r <= DEGREE; r++) {
            for (int i = 0; i <= DEGREE - r; i++) {
                work[i] = 0.5 * (work[i] + work[i + 1]);
            }
            left[r] = work[0];
            right[DEGREE - r] = work[DEGREE - r];
        }
    }

    /**
     * Verifies and refines a crossing of function {@code s} that the polynomial places within the
     * fractions {@code [lo, hi]} of the step: on {@code g} of the state by a step of the method from
     * the step's start ({@link DormandPrince853#subStep}), which is as accurate as the step, where the
     * polynomial may be far off inside a step (around a non-smooth point of the drift within rounding
     * of the piece's surface, or in a stiff step). Illinois iterations with a bisection now and then.
     *
     * @return the time (on the clock) where {@code g ≥ 0} first, within a few ulps, with its fraction of
     *         the step in {@link #foundFraction}; NaN when {@code g} does not go from negative to {@code ≥ 0}
     *         over the bracket (a wiggle of the polynomial)
     */
    private double refine(Switching switching, int s, double start, double end, double lo, double hi) {
        double length = end - start;
        double a = lo == 0.0 ? start : start + lo * length;
        double b = hi == 1.0 ? end : start + hi * length;
        double ga = lo == 0.0 ? startValues[s] : valueAt(switching, s, start, end, a);
        double gb = hi == 1.0 ? nodeValuesEnd[s] : valueAt(switching, s, start, end, b);
        if (!(ga < 0) || !(gb >= 0)) {
            return Double.NaN;
        }
        int side = 0;
        for (int iteration = 0; iteration < 200; iteration++) {
            double width = b - a;
            if (width <= 2 * Math.ulp(b)) {
                break;
            }
            double c = b - gb * (b - a) / (gb - ga);
            if (!(c > a && c < b) || iteration % 8 == 7) {
                c = a + 0.5 * width; // bisection now and then: the bracket shrinks whatever g looks like
            }
            if (c <= a || c >= b) {
                break;
            }
            double gc = valueAt(switching, s, start, end, c);
            if (gc >= 0) {
                b = c;
                gb = gc;
                if (side == 1) {
                    ga *= 0.5;
                }
                side = 1;
            } else {
                a = c;
                ga = gc;
                if (side == -1) {
                    gb *= 0.5;
                }
                side = -1;
            }
        }
        foundFraction = b == end ? 1.0 : (b - start) / length;
        return b;
    }

    /** {@code g_s} at time {@code t} of the step, of the state by a step of the method from its start. */
    private double valueAt(Switching switching, int s, double start, double end, double t) {
        method.subStep(t == end ? 1.0 : (t - start) / (end - start), probe);
        return switching.value(s, t, probe);
    }

    /**
     * The accepted step as its observers see it, in absolute time ({@link #start}, {@link #end},
     * {@link #state}) and on the clock of the integration ({@link #localStart}, {@link #localEnd},
     * {@link #localComponent}).
     */
    public static final class Step {
        private DormandPrince853 method;
        private double origin;
        private double target;
        private double span;
        private double from;
        private double stepTo;
        private double to;

        void set(DormandPrince853 m, double clockOrigin, double stop, double clockSpan, double localFrom, double localStepTo,
                double localTo) {
            method = m;
            origin = clockOrigin;
            target = stop;
            span = clockSpan;
            from = localFrom;
            stepTo = localStepTo;
            to = localTo;
        }

        private double absolute(double tau) {
            return tau == span ? target : tau == 0 ? origin : origin + tau;
        }

        /** @return the start of the step */
        public double start() {
            return absolute(from);
        }

        /** @return its end (where the piece ends, if a crossing cut it) */
        public double end() {
            return absolute(to);
        }

        /** @return the start of the step on the integration's clock */
        public double localStart() {
            return from;
        }

        /** @return its end on the integration's clock */
        public double localEnd() {
            return to;
        }

        /**
         * @param t a time in {@code [start(), end()]}
         * @return the same time on the integration's clock
         */
        public double toLocal(double t) {
            return t == target ? span : t == origin ? 0 : t - origin;
        }

        /**
         * The state at a time within the step, by a step of the method from the step's start to there
         * ({@link DormandPrince853#subStep}: as accurate as the step itself, where the polynomial may not be).
         *
         * @param t a time in {@code [start(), end()]}
         * @param out the state there; modified
         */
        public void state(double t, double[] out) {
            double tau = toLocal(t);
            if (tau == stepTo) {
                System.arraycopy(method.attempted(), 0, out, 0, out.length);
                return;
            }
            method.subStep(Math.min(1.0, Math.max(0.0, (tau - from) / (stepTo - from))), out);
        }

        /**
         * @param tau a time on the integration's clock, in {@code [localStart(), localEnd()]}
         * @param out the state there, from the step's polynomial; modified
         */
        public void localState(double tau, double[] out) {
            if (tau == stepTo) {
                System.arraycopy(method.attempted(), 0, out, 0, out.length);
                return;
            }
            method.prepareDense();
            method.interpolate(Math.min(1.0, Math.max(0.0, (tau - from) / (stepTo - from))), out);
        }

        /**
         * @param i a coordinate
         * @param tau a time on the integration's clock, in {@code [localStart(), localEnd()]}
         * @return coordinate {@code i} of the state there, from the step's polynomial
         */
        public double localComponent(int i, double tau) {
            if (tau == stepTo) {
                return method.attempted()[i];
            }
            method.prepareDense();
            return method.interpolate(i, Math.min(1.0, Math.max(0.0, (tau - from) / (stepTo - from))));
        }
    }

    private static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }
}
