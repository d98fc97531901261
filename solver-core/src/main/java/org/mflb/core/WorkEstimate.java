package org.mflb.core;

import java.util.Locale;
import java.util.Optional;

import org.mflb.core.model.DriftField;

/**
 * The work a run is about to do, estimated before it starts from machine-independent counts (the
 * events a simulation draws, the elementary operations of an integration or of dense linear algebra,
 * the bytes it holds) and turned into time at the speeds {@code mflb bench} measures on one core.
 * Every command asks this one rule before its long work:
 * <ul>
 * <li>a run estimated at more than {@link #NOTICE_SECONDS} says its size first, one line on stderr,
 * also with {@code --quiet} (a notice of size is not progress);</li>
 * <li>a run estimated at more than {@link #LIMIT_SECONDS} (a day) is refused with the numbers, unless
 * forced ({@code --force});</li>
 * <li>a run whose memory exceeds {@link #HEAP_SHARE} of the heap still free is refused, forced or
 * not (forcing does not make memory appear).</li>
 * </ul>
 * The speeds are rough and on the fast side, so that a valid run is not refused for an estimate:
 * the refusal comes only when the estimate is far beyond the limit of any reasonable machine.
 *
 * @param task what the run does, e.g. "simulating SIR with N = 1000"
 * @param amount the work, in {@code unit}
 * @param unit what the work counts
 * @param cores the cores the work is spread over (replications or points run at once), at least 1
 * @param bytes the memory the run holds at once (0 when negligible)
 * @param parameter the option that sizes the run, named in a refusal (without dashes)
 * @param value that option's value
 * @param remedy what makes the run smaller, e.g. "reduce --t-end or --n"
 */
public record WorkEstimate(String task, double amount, Unit unit, int cores, double bytes, String parameter, Object value,
        String remedy) {

    /** Runs estimated longer than this (a minute) announce their size before they start. */
    public static final double NOTICE_SECONDS = 60;
    /** Runs estimated longer than this (a day) are refused unless forced. */
    public static final double LIMIT_SECONDS = 86_400;
    /** Share of the free heap a run may plan to hold. */
    public static final double HEAP_SHARE = 0.8;

    /** What the work counts, with the speed of one core. */
    public enum Unit {
        /**
         * Events of a Monte Carlo simulation: the agent engine and the N-object simulator of a model
         * file run at about 3 million events per second and thread (bench: simulation).
         */
        EVENTS("events", 3e6),
        /**
         * Elementary operations: one coordinate or one transition of one drift evaluation, one cell
         * update, one multiply-add of dense linear algebra; about 1e8 per second (bench: fluid
         * transients, the SIR file at about 10^6 drift evaluations per second).
         */
        OPERATIONS("operations", 1e8);

        private final String label;
        private final double perSecond;

        Unit(String label, double perSecond) {
            this.label = label;
            this.perSecond = perSecond;
        }

        /** @return the plural noun of the unit */
        public String label() {
            return label;
        }

        /** @return units per second on one core */
        public double perSecond() {
            return perSecond;
        }
    }

    /** Validates the estimate: a non-negative amount (infinite is allowed: it is refused) and bytes. */
    public WorkEstimate {
        if (!(amount >= 0) || !(bytes >= 0) || cores < 1) {
            throw new IllegalArgumentException("work and memory must be >= 0, cores >= 1: " + amount + ", " + bytes
                    + ", " + cores);
        }
    }

    /** @return a run of {@code events} simulated events holding {@code bytes} */
    public static WorkEstimate events(String task, double events, double bytes, String parameter, Object value,
            String remedy) {
        return new WorkEstimate(task, events, Unit.EVENTS, 1, bytes, parameter, value, remedy);
    }

    /** @return a run of {@code operations} elementary operations holding {@code bytes} */
    public static WorkEstimate operations(String task, double operations, double bytes, String parameter,
            Object value, String remedy) {
        return new WorkEstimate(task, operations, Unit.OPERATIONS, 1, bytes, parameter, value, remedy);
    }

    /** @return the estimated wall time, in seconds: the work at one core's speed, over the cores */
    public double seconds() {
        return amount / unit.perSecond / cores;
    }

    /** @return this run spread over {@code threads} cores (at least one) */
    public WorkEstimate onCores(int threads) {
        return new WorkEstimate(task, amount, unit, Math.max(1, threads), bytes, parameter, value, remedy);
    }

    /** @return the line announcing a long run ({@code "mflb: ..."}), if it is estimated over {@link #NOTICE_SECONDS} */
    public Optional<String> notice() {
        return seconds() > NOTICE_SECONDS
                ? Optional.of("mflb: " + task + " needs " + size())
                : Optional.empty();
    }

    /**
     * Refuses, before any work, a run beyond the limits: more memory than {@link #HEAP_SHARE} of
     * {@code freeBytes}, or (unless {@code force}) longer than {@link #LIMIT_SECONDS}.
     *
     * @throws MflbException of kind {@link ErrorKind#INVALID_PARAMETER} naming {@link #parameter()},
     *         with the estimate, the limit and the remedy
     */
    public void require(boolean force, double freeBytes) {
        if (bytes > HEAP_SHARE * freeBytes) {
            throw MflbException.invalid(parameter, value, String.format(Locale.ROOT, "smaller: %s needs about %s of"
                    + " memory, more than the %s free in the heap: %s, or raise the heap with MFLB_JAVA_OPTS=-Xmx...",
                    task, megabytes(bytes), megabytes(freeBytes), remedy));
        }
        if (!force && !(seconds() <= LIMIT_SECONDS)) {
            throw MflbException.invalid(parameter, value, String.format(Locale.ROOT, "smaller: %s needs %s;"
                    + " the limit is a day of work (%.1e %s per core): %s, or add --force", task, size(),
                    LIMIT_SECONDS * unit.perSecond, unit.label, remedy));
        }
    }

    /** Refuses as {@link #require(boolean, double)} against the heap free now in this JVM. */
    public void require(boolean force) {
        require(force, freeHeap());
    }

    /** @return the bytes this JVM may still allocate */
    public static double freeHeap() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.maxMemory() - (double) (runtime.totalMemory() - runtime.freeMemory());
    }

    /** @return "about 4.2e+15 events (~3.2e+04 days at 3e+06 events/s)", "on 4 cores" when spread */
    private String size() {
        if (!Double.isFinite(amount)) { // e.g. a drift that overflows: its steps cannot be counted
            return "more " + unit.label + " than can be counted (the rates overflow)";
        }
        return String.format(Locale.ROOT, "about %.2g %s (~%s at %.0e %s/s%s)", amount, unit.label, duration(seconds()),
                unit.perSecond, unit.label, cores > 1 ? " on each of " + cores + " cores" : "");
    }

    /** @return a duration in the largest unit that keeps it readable: "45 s", "12 min", "5 h", "3.2 days" */
    public static String duration(double seconds) {
        if (!Double.isFinite(seconds)) {
            return "forever";
        }
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        }
        if (seconds < 3 * 86_400) {
            return String.format(Locale.ROOT, "%.0f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.2g days", seconds / 86_400);
    }

    private static String megabytes(double bytes) {
        return bytes >= 1e12 ? String.format(Locale.ROOT, "%.2g TB", bytes / 1e12)
                : String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }

    /**
     * Steps of the adaptive Dormand–Prince 8(5,3) integration (13 drift evaluations each) over
     * {@code span} of a drift whose Jacobian has spectral radius {@code radius}: while the state
     * moves (about {@link #RELAXATION_TIME} time units) the tolerance 1e-12 keeps the step near
     * {@code 0.2/ρ}; once it has settled, the method's stability interval on the negative real axis
     * (about 6) bounds it by {@code 6/ρ}. Calibrated on SIR over 10^6 time units and on M/M/∞ pools
     * at λ = 2000 and 20000.
     */
    public static double integrationSteps(double radius, double span) {
        return radius * (Math.min(span, RELAXATION_TIME) / 0.2 + Math.max(0, span - RELAXATION_TIME) / 6) + 100;
    }

    /** Time units over which a transient is taken to move before it settles (service times of mean 1). */
    public static final double RELAXATION_TIME = 10;

    /** Drift evaluations per step of the Dormand–Prince 8(5,3) integrator (12 stages and the dense output's). */
    public static final int EVALUATIONS_PER_STEP = 13;

    /**
     * The spectral radius of the drift's Jacobian at {@code x}, estimated by 30 power iterations on
     * finite-difference products {@code J v ≈ (f(x + εv) − f(x))/ε}: 31 drift evaluations, whatever
     * the dimension. Within a factor of a few of the true value, which is all a time estimate needs.
     */
    public static double spectralRadius(DriftField field, double[] x) {
        int n = field.getDimension();
        double[] f0 = new double[n];
        field.drift(0, x, f0);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = 1.0 + 0.1 * ((i * 7919) % 13); // not an eigenvector of a symmetric structure
        }
        double[] shifted = new double[n];
        double[] f1 = new double[n];
        double radius = 0;
        for (int iteration = 0; iteration < 30; iteration++) {
            double norm = norm(v);
            if (!(norm > 0) || !Double.isFinite(norm)) {
                break;
            }
            double scale = Math.max(1e-300, norm(x) + 1);
            double eps = 1e-7 * scale / norm;
            for (int i = 0; i < n; i++) {
                shifted[i] = x[i] + eps * v[i];
            }
            field.drift(0, shifted, f1);
            for (int i = 0; i < n; i++) {
                v[i] = (f1[i] - f0[i]) / eps;
            }
            double next = norm(v) / norm;
            if (!Double.isFinite(next)) {
                return Double.POSITIVE_INFINITY;
            }
            radius = next;
            double length = norm(v);
            for (int i = 0; i < n; i++) {
                v[i] /= length; // keep the iterate of unit length: a stiff drift would overflow it in a few rounds
            }
        }
        return radius;
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double c : v) {
            s += c * c;
        }
        return Math.sqrt(s);
    }
}
