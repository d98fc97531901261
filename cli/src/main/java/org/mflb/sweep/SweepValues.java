package org.mflb.sweep;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The values of one swept option: a single number, a list {@code a,b,c}, or an inclusive range
 * {@code from:to:step} with {@code from <= to} and {@code step > 0}. Ranges are stepped in decimal
 * arithmetic ({@code from + k step}, exactly, for {@code k = 0, 1, ..} while the value is at most
 * {@code to}), so {@code 0.5:0.95:0.05} gives 0.5, 0.55, .., 0.95 with no rounding residue and
 * always includes an end point the step reaches.
 */
public final class SweepValues {

    /** Largest number of values one option may take (a typo such as step 1e-9 is caught, not run). */
    public static final int MAX_VALUES = 100_000;

    private SweepValues() {
    }

    /** @return whether {@code text} asks for more than one value (a list or a range) */
    public static boolean isSweep(String text) {
        return text.indexOf(',') >= 0 || text.indexOf(':') >= 0;
    }

    /**
     * @param option the option's name, for the error message ({@code --lambda}, {@code --param s})
     * @param text a number, a list or a range
     * @param integer whether the option takes integers only
     * @return the values, as the option would read them (plain decimal notation)
     * @throws MflbException one line naming the option and the valid forms
     */
    public static List<String> parse(String option, String text, boolean integer) {
        String spec = text.strip();
        List<String> values = new ArrayList<>();
        if (spec.indexOf(':') >= 0) {
            String[] parts = spec.split(":", -1);
            if (parts.length != 3) {
                throw bad(option, text, "a range has three parts FROM:TO:STEP");
            }
            BigDecimal from = number(option, text, parts[0], integer);
            BigDecimal to = number(option, text, parts[1], integer);
            BigDecimal step = number(option, text, parts[2], integer);
            if (step.signum() <= 0) {
                throw bad(option, text, "the step must be > 0");
            }
            if (from.compareTo(to) > 0) {
                throw bad(option, text, "FROM must be <= TO (" + parts[0].strip() + " > " + parts[1].strip() + ")");
            }
            BigInteger count = to.subtract(from).divideToIntegralValue(step).toBigInteger().add(BigInteger.ONE);
            if (count.compareTo(BigInteger.valueOf(MAX_VALUES)) > 0) {
                throw bad(option, text, "it has " + count + " values, more than " + MAX_VALUES);
            }
            for (int k = 0; k < count.intValue(); k++) {
                values.add(plain(from.add(step.multiply(BigDecimal.valueOf(k)))));
            }
            return values;
        }
        String[] items = spec.split(",", -1);
        if (items.length > MAX_VALUES) {
            throw bad(option, text, "it has " + items.length + " values, more than " + MAX_VALUES);
        }
        for (String item : items) {
            values.add(plain(number(option, text, item, integer)));
        }
        return values;
    }

    private static BigDecimal number(String option, String text, String item, boolean integer) {
        String s = item.strip();
        BigDecimal v;
        try {
            v = new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw bad(option, text, "'" + s + "' is not a number");
        }
        if (integer && v.stripTrailingZeros().scale() > 0) {
            throw bad(option, text, "'" + s + "' is not an integer (the option takes integers)");
        }
        return v;
    }

    private static String plain(BigDecimal v) {
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }

    private static MflbException bad(String option, String text, String why) {
        return new MflbException(ErrorKind.INVALID_PARAMETER, option.replaceFirst("^--", ""),
                option + " " + text + " is invalid: " + why + "; a swept value is a number, a list a,b,c or an"
                        + " inclusive range FROM:TO:STEP with FROM <= TO and STEP > 0");
    }
}
