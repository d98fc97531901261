package org.mflb.core.system;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.mflb.core.MflbException;

/**
 * Servers of different speeds, in classes (docs/models.md §10): class {@code k} is the fraction
 * {@code a_k > 0} of the servers ({@code Σ a_k = 1}) and serves at speed {@code s_k > 0}: the service
 * time of a job at a class-{@code k} server is the service law divided by {@code s_k} (exponential of
 * rate {@code s_k} for unit-mean exponential service). The capacity per server is
 * {@code C = Σ_k a_k s_k}.
 *
 * <p>Speeds are also kept as exact decimals ({@link BigDecimal} of the shortest decimal that gives the
 * double, e.g. {@code 0.3} for 0.3), because SED(d) compares values {@code (q+1)/s_k} across classes
 * and ties between classes are real: {@link #compareValues} cross-multiplies exactly, never divides.
 * Immutable; validated at construction.
 */
public final class ServerClasses {

    /** How far the fractions may sum from 1. */
    public static final double FRACTION_SUM_TOLERANCE = 1e-9;
    /** Largest number of classes. */
    public static final int MAX_CLASSES = 1000;

    private final double[] fractions;
    private final double[] speeds;
    private final BigDecimal[] exactSpeeds;

    private ServerClasses(double[] fractions, double[] speeds) {
        if (fractions.length == 0 || fractions.length != speeds.length) {
            throw MflbException.invalid("classes", fractions.length + " fractions and " + speeds.length + " speeds",
                    "one fraction and one speed per class, at least one class");
        }
        if (fractions.length > MAX_CLASSES) {
            throw MflbException.invalid("classes", fractions.length + " classes", "at most " + MAX_CLASSES);
        }
        double sum = 0;
        for (int k = 0; k < fractions.length; k++) {
            if (!(fractions[k] > 0 && fractions[k] <= 1)) {
                throw MflbException.invalid("classes", "fraction " + fractions[k] + " of class " + (k + 1),
                        "fractions in (0, 1]");
            }
            if (!(speeds[k] > 0) || Double.isInfinite(speeds[k])) {
                throw MflbException.invalid("classes", "speed " + speeds[k] + " of class " + (k + 1), "speeds finite and > 0");
            }
            sum += fractions[k];
        }
        if (Math.abs(sum - 1) > FRACTION_SUM_TOLERANCE) {
            throw MflbException.invalid("classes", "fractions summing to " + sum, "fractions summing to 1 (within "
                    + FRACTION_SUM_TOLERANCE + ")");
        }
        this.fractions = fractions.clone();
        this.speeds = speeds.clone();
        this.exactSpeeds = new BigDecimal[speeds.length];
        for (int k = 0; k < speeds.length; k++) {
            exactSpeeds[k] = BigDecimal.valueOf(speeds[k]);
        }
    }

    /**
     * @param fractions {@code a_k > 0}, summing to 1 within {@link #FRACTION_SUM_TOLERANCE}
     * @param speeds {@code s_k > 0}
     * @return the classes, in the order given
     */
    public static ServerClasses of(double[] fractions, double[] speeds) {
        return new ServerClasses(fractions, speeds);
    }

    /** @return one class of speed 1: the homogeneous system */
    public static ServerClasses homogeneous() {
        return new ServerClasses(new double[] {1}, new double[] {1});
    }

    /**
     * Reads {@code F:S,F:S,...} (fraction and speed of each class, e.g. {@code 0.5:1.5,0.5:0.5}).
     *
     * @param spec the classes
     * @return the classes, in the order given
     * @throws MflbException naming {@code classes} for a malformed or invalid spec
     */
    public static ServerClasses parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw MflbException.invalid("classes", "''", "F:S,F:S,... (fraction and speed of each class)");
        }
        List<double[]> parts = new ArrayList<>();
        for (String item : spec.split(",", -1)) {
            String[] fs = item.strip().split(":", -1);
            if (fs.length != 2) {
                throw MflbException.invalid("classes", spec, "F:S,F:S,... (fraction and speed of each class), but '"
                        + item.strip() + "' is not F:S");
            }
            try {
                parts.add(new double[] {Double.parseDouble(fs[0].strip()), Double.parseDouble(fs[1].strip())});
            } catch (NumberFormatException e) {
                throw MflbException.invalid("classes", spec, "F:S,F:S,... with numbers F and S, but '" + item.strip()
                        + "' is not");
            }
        }
        return new ServerClasses(parts.stream().mapToDouble(p -> p[0]).toArray(),
                parts.stream().mapToDouble(p -> p[1]).toArray());
    }

    /** @return the number of classes {@code K} */
    public int count() {
        return fractions.length;
    }

    /** @return {@code a_k} */
    public double fraction(int k) {
        return fractions[k];
    }

    /** @return {@code s_k} */
    public double speed(int k) {
        return speeds[k];
    }

    /** @return a copy of the fractions {@code a_k} */
    public double[] fractions() {
        return fractions.clone();
    }

    /** @return a copy of the speeds {@code s_k} */
    public double[] speeds() {
        return speeds.clone();
    }

    /** @return the capacity per server {@code C = Σ_k a_k s_k} */
    public double capacity() {
        double c = 0;
        for (int k = 0; k < fractions.length; k++) {
            c += fractions[k] * speeds[k];
        }
        return c;
    }

    /**
     * The stability boundary of single-server queues in these classes when each arrival picks among
     * {@code d} sampled servers (docs/models.md §10): with the classes sorted by speed and {@code A_m},
     * {@code C_m} the fraction and the capacity of the {@code m} slowest,
     * <pre>
     *   λ* = min_m C_m / A_m^d          (d uniform samples: random routing is d = 1, λ* = min_k s_k)
     *   λ* = C = Σ_k a_k s_k             (speed-weighted sampling)
     * </pre>
     * A set of servers whose queues are all long receives only the arrivals whose {@code d} samples all
     * fall in it, and the slowest classes are the worst set of a given size, so a steady state exists
     * iff {@code λ E[S] < λ*}. Classes of equal speed are one group (the breakpoints are the speeds').
     *
     * @param d servers sampled per arrival
     * @param sampling how they are drawn
     * @return {@code λ*}, in units of {@code λ·E[S]}
     */
    public double stabilityBoundary(int d, Sampling sampling) {
        if (sampling == Sampling.SPEED) {
            return capacity();
        }
        Integer[] bySpeed = new Integer[speeds.length];
        for (int c = 0; c < bySpeed.length; c++) {
            bySpeed[c] = c;
        }
        Arrays.sort(bySpeed, (x, y) -> Double.compare(speeds[x], speeds[y]));
        double a = 0;
        double c = 0;
        double boundary = Double.POSITIVE_INFINITY;
        for (int m = 0; m < bySpeed.length; m++) {
            a += fractions[bySpeed[m]];
            c += fractions[bySpeed[m]] * speeds[bySpeed[m]];
            boolean breakpoint = m == bySpeed.length - 1 || speeds[bySpeed[m + 1]] != speeds[bySpeed[m]];
            if (breakpoint) {
                boundary = Math.min(boundary, c / Math.pow(Math.min(a, 1), d));
            }
        }
        return boundary;
    }

    /** @return whether this is one class of speed 1: the homogeneous system of every other model */
    public boolean isUnitSpeed() {
        return fractions.length == 1 && speeds[0] == 1.0;
    }

    /** @return whether every class has the same speed (the class label is then inert) */
    public boolean equalSpeeds() {
        for (BigDecimal s : exactSpeeds) {
            if (s.compareTo(exactSpeeds[0]) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Compares the SED values {@code (q1+1)/s_{k1}} and {@code (q2+1)/s_{k2}} exactly, by
     * cross-multiplying the decimal speeds: {@code (q1+1)·s_{k2}} against {@code (q2+1)·s_{k1}}.
     *
     * @return negative, zero or positive as the first value is smaller than, equal to or larger than the second
     */
    public int compareValues(int k1, int q1, int k2, int q2) {
        return exactSpeeds[k2].multiply(BigDecimal.valueOf(q1 + 1L))
                .compareTo(exactSpeeds[k1].multiply(BigDecimal.valueOf(q2 + 1L)));
    }

    /**
     * The class sizes of a system of {@code n} servers: {@code n·a_k} each, which must be whole.
     *
     * @param n number of servers
     * @return the number of servers of each class
     * @throws MflbException naming {@code n} if a class would not have a whole number of servers,
     *         with the nearest {@code n} that gives whole classes
     */
    public int[] sizes(int n) {
        int[] size = wholeSizes(n);
        if (size == null) {
            throw MflbException.invalid("n", n, "a number of servers that gives every class a whole number of"
                    + " servers (n·a_k = " + Arrays.toString(Arrays.stream(fractions).map(a -> n * a).toArray())
                    + "); nearest such n: " + nearestWholeSize(n));
        }
        return size;
    }

    /** @return the whole class sizes {@code n·a_k} (each ≥ 1, adding up to {@code n}), or null if there are none */
    private int[] wholeSizes(int n) {
        int[] size = new int[fractions.length];
        long total = 0;
        for (int k = 0; k < fractions.length; k++) {
            double exact = n * fractions[k];
            long whole = Math.round(exact);
            if (Math.abs(exact - whole) > 1e-6 * Math.max(1, exact) || whole < 1) {
                return null;
            }
            size[k] = (int) whole;
            total += whole;
        }
        return total == n ? size : null;
    }

    private String nearestWholeSize(int n) {
        for (int delta = 1; delta <= 1_000_000; delta++) {
            for (int candidate : new int[] {n - delta, n + delta}) {
                if (candidate >= 1 && wholeSizes(candidate) != null) {
                    return Integer.toString(candidate);
                }
            }
        }
        return "none within 10^6 of it";
    }

    /** @return {@code F:S,F:S,...}, which {@link #parse} reads back */
    public String spec() {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < fractions.length; k++) {
            b.append(k == 0 ? "" : ",").append(BigDecimal.valueOf(fractions[k]).stripTrailingZeros().toPlainString())
                    .append(':').append(exactSpeeds[k].stripTrailingZeros().toPlainString());
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerClasses c && Arrays.equals(fractions, c.fractions) && Arrays.equals(speeds, c.speeds);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(fractions) + Arrays.hashCode(speeds);
    }

    @Override
    public String toString() {
        return spec();
    }
}
