package org.mflb.core;

/**
 * Parameter checks used by every immutable parameter object. Each check either returns its
 * argument or throws an {@link MflbException} of kind {@link ErrorKind#INVALID_PARAMETER} whose
 * message names the parameter and the valid range. NaN fails every check.
 */
public final class Require {

    private Require() {
    }

    /** @return {@code value} if finite */
    public static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw MflbException.invalid(name, value, "a finite number");
        }
        return value;
    }

    /** @return {@code value} if finite and {@code > 0} */
    public static double positive(String name, double value) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw MflbException.invalid(name, value, "a finite number > 0");
        }
        return value;
    }

    /** @return {@code value} if finite and {@code >= 0} */
    public static double nonNegative(String name, double value) {
        if (!(value >= 0) || !Double.isFinite(value)) {
            throw MflbException.invalid(name, value, "a finite number >= 0");
        }
        return value;
    }

    /** @return {@code value} if {@code lo < value < hi} */
    public static double open(String name, double value, double lo, double hi) {
        if (!(value > lo && value < hi)) {
            throw MflbException.invalid(name, value, "in (" + lo + ", " + hi + ")");
        }
        return value;
    }

    /** @return {@code value} if {@code value >= min} */
    public static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw MflbException.invalid(name, value, "an integer >= " + min);
        }
        return value;
    }

    /** @return {@code value} if {@code min <= value <= max} */
    public static int between(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw MflbException.invalid(name, value, "an integer in [" + min + ", " + max + "]");
        }
        return value;
    }

    /** @return {@code value} if {@code value > 0} */
    public static long positive(String name, long value) {
        if (value <= 0) {
            throw MflbException.invalid(name, value, "an integer > 0");
        }
        return value;
    }
}
