package org.mflb.sweep;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The values of one swept option, by the {@link Kind} of its values. A number option takes a single
 * number, a list {@code a,b,c}, or an inclusive range {@code from:to:step} with {@code from <= to}
 * and {@code step > 0}. Ranges are stepped in decimal arithmetic ({@code from + k step}, exactly, for
 * {@code k = 0, 1, ..} while the value is at most {@code to}), so {@code 0.5:0.95:0.05} gives 0.5,
 * 0.55, .., 0.95 with no rounding residue and always includes an end point the step reaches. A name
 * option ({@code --policy sqd,jsq,random}) takes a list of names. A law option ({@code --service})
 * takes a list of laws, split only at the commas that start a new law: a comma followed by
 * {@code name=value} continues the current law's parameters, and commas inside brackets belong to
 * a matrix, so {@code exp,lognormal:scv=4,mean=2} is the two laws {@code exp} and
 * {@code lognormal:scv=4,mean=2}. A classes option ({@code --classes}) takes a list of server classes
 * separated by semicolons: {@code 1:1;0.5:2,0.5:0.5}.
 */
public final class SweepValues {

    /** Largest number of values one option may take (a typo such as step 1e-9 is caught, not run). */
    public static final int MAX_VALUES = 100_000;

    /** What an option's values are, which says how a list of them is written. */
    public enum Kind {
        /** Integers: lists and ranges. */
        INTEGER,
        /** Real numbers: lists and ranges. */
        REAL,
        /** Names (a policy, a system): a list {@code a,b,c}. */
        NAME,
        /** Service laws, {@code name[:key=value,...]}: a list split at the commas that start a new law. */
        LAW,
        /**
         * Server classes {@code F:S,F:S,...} (their own commas and colons): a list {@code a;b;c} of them,
         * e.g. {@code 1:1;0.5:2,0.5:0.5}.
         */
        CLASSES
    }

    /** A comma followed by this continues a law's parameters ({@code ,mean=2}) instead of starting a new law. */
    private static final Pattern LAW_PARAMETER = Pattern.compile("\\s*[A-Za-z][A-Za-z0-9_]*\\s*=");

    private SweepValues() {
    }

    /** @return whether {@code text} asks for more than one number (a list or a range) */
    public static boolean isSweep(String text) {
        return text.indexOf(',') >= 0 || text.indexOf(':') >= 0;
    }

    /** @return whether {@code text}, a value of an option of this kind, asks for more than one value */
    public static boolean isSweep(Kind kind, String text) {
        return switch (kind) {
            case INTEGER, REAL -> isSweep(text);
            case NAME -> text.indexOf(',') >= 0;
            case LAW -> lawStarts(text).size() > 1;
            case CLASSES -> text.indexOf(';') >= 0;
        };
    }

    /**
     * @param option the option's name, for the error message
     * @param text the option's value: one value or several
     * @param kind what the values are
     * @return the values
     * @throws MflbException one line naming the option and the valid forms
     */
    public static List<String> parse(String option, String text, Kind kind) {
        return switch (kind) {
            case INTEGER, REAL -> parse(option, text, kind == Kind.INTEGER);
            case NAME -> items(option, text, List.of(text.split(",", -1)), "names");
            case LAW -> {
                List<Integer> starts = lawStarts(text);
                List<String> laws = new ArrayList<>();
                for (int k = 0; k < starts.size(); k++) {
                    laws.add(text.substring(starts.get(k), k + 1 < starts.size() ? starts.get(k + 1) - 1 : text.length()));
                }
                yield items(option, text, laws, "laws");
            }
            case CLASSES -> items(option, text, List.of(text.split(";", -1)), "server classes F:S,... (a list a;b;c)");
        };
    }

    /** @return the index at which each law of the list {@code text} starts (0, then after each comma that starts one) */
    private static List<Integer> lawStarts(String text) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0 && !LAW_PARAMETER.matcher(text).region(i + 1, text.length()).lookingAt()) {
                starts.add(i + 1);
            }
        }
        return starts;
    }

    /** @return the stripped items of a list of names or laws, none empty */
    private static List<String> items(String option, String text, List<String> items, String what) {
        if (items.size() > MAX_VALUES) {
            throw bad(option, text, "it has " + items.size() + " values, more than " + MAX_VALUES, what);
        }
        List<String> values = new ArrayList<>();
        for (String item : items) {
            if (item.isBlank()) {
                throw bad(option, text, "an empty value", what);
            }
            values.add(item.strip());
        }
        return values;
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
                throw bad(option, text, "a range has three parts FROM:TO:STEP", null);
            }
            BigDecimal from = number(option, text, parts[0], integer);
            BigDecimal to = number(option, text, parts[1], integer);
            BigDecimal step = number(option, text, parts[2], integer);
            if (step.signum() <= 0) {
                throw bad(option, text, "the step must be > 0", null);
            }
            if (from.compareTo(to) > 0) {
                throw bad(option, text, "FROM must be <= TO (" + parts[0].strip() + " > " + parts[1].strip() + ")", null);
            }
            BigInteger count = to.subtract(from).divideToIntegralValue(step).toBigInteger().add(BigInteger.ONE);
            if (count.compareTo(BigInteger.valueOf(MAX_VALUES)) > 0) {
                throw bad(option, text, "it has " + count + " values, more than " + MAX_VALUES, null);
            }
            for (int k = 0; k < count.intValue(); k++) {
                values.add(plain(from.add(step.multiply(BigDecimal.valueOf(k)))));
            }
            return values;
        }
        String[] items = spec.split(",", -1);
        if (items.length > MAX_VALUES) {
            throw bad(option, text, "it has " + items.length + " values, more than " + MAX_VALUES, null);
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
            throw bad(option, text, "'" + s + "' is not a number", null);
        }
        if (integer && v.stripTrailingZeros().scale() > 0) {
            throw bad(option, text, "'" + s + "' is not an integer (the option takes integers)", null);
        }
        return v;
    }

    private static String plain(BigDecimal v) {
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }

    /** @param what "names" or "laws" for a list of them, null for numbers */
    private static MflbException bad(String option, String text, String why, String what) {
        return new MflbException(ErrorKind.INVALID_PARAMETER, option.replaceFirst("^--", ""),
                option + " " + text + " is invalid: " + why + (what != null ? "; a swept value is one or a list a,b,c of "
                        + what : "; a swept value is a number, a list a,b,c or an inclusive range FROM:TO:STEP with FROM"
                        + " <= TO and STEP > 0"));
    }
}
