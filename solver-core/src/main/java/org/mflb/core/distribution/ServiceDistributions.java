package org.mflb.core.distribution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * Builds service laws from their command-line specification (the syntax {@link ServiceDistribution#spec()}
 * prints, so {@code parse(d.spec())} equals {@code d}):
 * <pre>
 *   exp                  exponential          (also exp:rate=r)
 *   det                  deterministic
 *   erlang:k=2           Erlang-k
 *   gamma:scv=0.5        gamma by SCV
 *   h2:scv=4             balanced-means hyperexponential, scv >= 1
 *   lognormal:scv=4      log-normal by SCV
 *   weibull:shape=0.5    Weibull by shape
 *   pareto:shape=2.5     Pareto by shape > 1
 *   ph:alpha=[1,0],T=[[-2,2],[0,-2]]   phase-type
 * </pre>
 * Every law has mean 1 unless {@code ,mean=m} is appended (e.g. {@code erlang:k=2,mean=3}); for
 * {@code ph} the sub-generator {@code T} is rescaled to that mean (1 by default). Bad input raises an {@link MflbException} of kind
 * {@link ErrorKind#INVALID_PARAMETER} naming the parameter and its valid range.
 */
public final class ServiceDistributions {

    /** The law names with their parameters, for error messages. */
    private static final Map<String, List<String>> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("exp", List.of("mean", "rate"));
        KEYS.put("det", List.of("mean"));
        KEYS.put("erlang", List.of("k", "mean"));
        KEYS.put("gamma", List.of("scv", "mean"));
        KEYS.put("h2", List.of("scv", "mean"));
        KEYS.put("lognormal", List.of("scv", "mean"));
        KEYS.put("weibull", List.of("shape", "mean"));
        KEYS.put("pareto", List.of("shape", "mean"));
        KEYS.put("ph", List.of("alpha", "T", "mean"));
    }

    private static final String SYNTAX = "exp, det, erlang:k=K, gamma:scv=C2, h2:scv=C2, lognormal:scv=C2, "
            + "weibull:shape=K, pareto:shape=A, ph:alpha=[a1,...],T=[[t11,...],...] (each optionally with ,mean=M)";

    private static final Pattern NUMBER = Pattern.compile(
            "[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?Infinity|NaN");

    private ServiceDistributions() {
    }

    /** @return the names of the built-in laws, in the order of the class comment */
    public static Set<String> names() {
        return KEYS.keySet();
    }

    /**
     * @param spec a specification such as {@code lognormal:scv=4}
     * @return the law it denotes
     * @throws MflbException (INVALID_PARAMETER) for an unknown law or parameter, a malformed number,
     *         or a value outside its range
     */
    public static ServiceDistribution parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "service",
                    "service distribution is empty: valid are " + SYNTAX);
        }
        String s = spec.trim();
        int colon = s.indexOf(':');
        String name = (colon < 0 ? s : s.substring(0, colon)).trim();
        List<String> allowed = KEYS.get(name);
        if (allowed == null) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "service",
                    "unknown service distribution '" + name + "' in '" + spec + "': valid are " + SYNTAX);
        }
        Map<String, String> params = parameters(name, colon < 0 ? null : s.substring(colon + 1), allowed, spec);
        double mean = params.containsKey("mean") ? number(name, "mean", params.get("mean")) : 1.0;
        switch (name) {
            case "exp":
                if (params.containsKey("rate")) {
                    if (params.containsKey("mean")) {
                        throw new MflbException(ErrorKind.INVALID_PARAMETER, "exp rate",
                                "exp takes either rate or mean, not both, in '" + spec + "'");
                    }
                    return Exponential.ofRate(number(name, "rate", params.get("rate")));
                }
                return Exponential.ofMean(checkedMean(name, mean));
            case "det":
                return Deterministic.of(checkedMean(name, mean));
            case "erlang":
                return Erlang.of(integer(name, "k", required(name, params, "k", "an integer >= 1")), mean);
            case "gamma":
                return Gamma.ofScv(number(name, "scv", required(name, params, "scv", "a number > 0")), mean);
            case "h2":
                return HyperExponential.balancedMeans(number(name, "scv", required(name, params, "scv", "a number >= 1")), mean);
            case "lognormal":
                return LogNormal.ofScv(number(name, "scv", required(name, params, "scv", "a number > 0")), mean);
            case "weibull":
                return Weibull.ofShape(number(name, "shape",
                        required(name, params, "shape", "a number >= " + Weibull.MIN_SHAPE)), mean);
            case "pareto":
                return Pareto.ofShape(number(name, "shape", required(name, params, "shape", "a number > 1")), mean);
            case "ph":
                return phaseType(params, spec);
            default:
                throw new IllegalStateException("unreachable: " + name);
        }
    }

    private static double checkedMean(String name, double mean) {
        if (!(mean > 0) || !Double.isFinite(mean)) {
            throw MflbException.invalid(name + " mean", mean, "a finite number > 0");
        }
        return mean;
    }

    private static PhaseType phaseType(Map<String, String> params, String spec) {
        String a = required("ph", params, "alpha", "a vector [a1,...]");
        String t = required("ph", params, "T", "a matrix [[t11,...],...]");
        List<String> alphaItems = list("alpha", a);
        double[] alpha = new double[alphaItems.size()];
        for (int i = 0; i < alpha.length; i++) {
            alpha[i] = number("ph", "alpha[" + i + "]", alphaItems.get(i));
        }
        List<String> rows = list("T", t);
        double[][] matrix = new double[rows.size()][];
        for (int i = 0; i < matrix.length; i++) {
            List<String> row = list("T[" + i + "]", rows.get(i));
            matrix[i] = new double[row.size()];
            for (int j = 0; j < matrix[i].length; j++) {
                matrix[i][j] = number("ph", "T[" + i + "][" + j + "]", row.get(j));
            }
        }
        PhaseType ph = PhaseType.of(alpha, matrix);
        if (params.containsKey("mean")) {
            double mean = checkedMean("ph", number("ph", "mean", params.get("mean")));
            return Math.abs(ph.mean() - mean) <= 1e-12 * mean ? ph : ph.withMean(mean);
        }
        // Mean 1 like every other law: T is rescaled unless it already has mean 1 (to rounding).
        return Math.abs(ph.mean() - 1.0) <= 1e-12 ? ph : ph.withMean(1.0);
    }

    /** Splits {@code [x,y,...]} into its top-level items. */
    private static List<String> list(String what, String text) {
        String s = text.trim();
        if (s.length() < 2 || s.charAt(0) != '[' || s.charAt(s.length() - 1) != ']') {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph " + what,
                    "ph " + what + " = " + text + " is invalid: must be a bracketed list like [1,2]");
        }
        List<String> items = splitTopLevel(s.substring(1, s.length() - 1));
        if (items.size() == 1 && items.get(0).isBlank()) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "ph " + what,
                    "ph " + what + " = " + text + " is invalid: must not be empty");
        }
        return items;
    }

    /** Splits at commas outside brackets. */
    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }

    private static Map<String, String> parameters(String name, String body, List<String> allowed, String spec) {
        Map<String, String> params = new LinkedHashMap<>();
        if (body == null) {
            return params;
        }
        if (body.isBlank()) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "service",
                    "missing parameters after '" + name + ":' in '" + spec + "': valid are " + String.join(", ", allowed));
        }
        for (String part : splitTopLevel(body)) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, name,
                        "malformed parameter '" + part.trim() + "' in '" + spec + "': expected key=value");
            }
            String key = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            if (!allowed.contains(key)) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, name + " " + key,
                        "unknown parameter '" + key + "' for " + name + " in '" + spec + "': valid are "
                                + String.join(", ", allowed));
            }
            if (params.put(key, value) != null) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, name + " " + key,
                        "parameter '" + key + "' given twice in '" + spec + "'");
            }
        }
        return params;
    }

    private static String required(String name, Map<String, String> params, String key, String range) {
        String v = params.get(key);
        if (v == null) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, name + " " + key,
                    name + " needs parameter " + key + " (" + range + "), e.g. " + example(name));
        }
        return v;
    }

    private static String example(String name) {
        switch (name) {
            case "erlang":
                return "erlang:k=2";
            case "gamma":
                return "gamma:scv=0.5";
            case "h2":
                return "h2:scv=4";
            case "lognormal":
                return "lognormal:scv=4";
            case "weibull":
                return "weibull:shape=0.5";
            case "pareto":
                return "pareto:shape=2.5";
            default:
                return "ph:alpha=[1,0],T=[[-2,2],[0,-2]]";
        }
    }

    private static double number(String name, String key, String text) {
        if (!NUMBER.matcher(text).matches()) {
            throw MflbException.invalid(name + " " + key, "'" + text + "'", "a number");
        }
        return Double.parseDouble(text);
    }

    private static int integer(String name, String key, String text) {
        double x = number(name, key, text);
        if (x != Math.rint(x) || Math.abs(x) > Integer.MAX_VALUE) {
            throw MflbException.invalid(name + " " + key, text, "an integer >= 1");
        }
        return (int) x;
    }

    /**
     * @return {@code x} in the shortest form that parses back to exactly {@code x}: integers
     *         without a fraction ({@code 4}, not {@code 4.0}), others as {@link Double#toString}
     */
    static String format(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return Long.toString((long) x);
        }
        return Double.toString(x);
    }
}
