package org.mflb.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.validation.plot.Figure;

/**
 * The figure of a sweep, {@code --plot x=PARAM,y=RESULT[+RESULT...][,series=PARAM]}: each result
 * column against the swept parameter {@code x} (several columns overlaid, e.g. the predicted and the
 * simulated values of a {@code compare} sweep), one series per column and value of {@code series}.
 * Results with a confidence interval ({@code RESULT.ci95Low}, {@code RESULT.ci95High}; for a compare
 * row's {@code Q.simulated}, {@code Q.ci95Low} and {@code Q.ci95High}) are drawn as points with 95% bars (symmetric bars of the larger of the two half-widths), the others as lines.
 *
 * @param x the swept parameter on the x axis
 * @param y the result columns on the y axis, at least one
 * @param series the swept parameter that separates the series, or {@code null}
 */
public record SweepPlot(String x, List<String> y, String series) {

    /** The suffix of a compare row's simulated value, whose interval is the row's. */
    private static final String SIMULATED = ".simulated";

    /** The form of the option, for its errors. */
    private static final String FORM = "expected x=PARAM,y=RESULT[+RESULT...][,series=PARAM]";

    /** Copies. */
    public SweepPlot {
        y = List.copyOf(y);
    }

    /**
     * @param spec {@code x=PARAM,y=RESULT[+RESULT...][,series=PARAM]}
     * @param parameters the swept parameters
     * @param numbers those of them that take numbers (the x axis needs one)
     * @return the plot, {@code x} and {@code series} checked against the swept parameters
     */
    public static SweepPlot parse(String spec, List<String> parameters, List<String> numbers) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            int eq = part.indexOf('=');
            String key = eq > 0 ? part.substring(0, eq).strip() : "";
            if (!List.of("x", "y", "series").contains(key) || keys.containsKey(key) || part.substring(eq + 1).isBlank()) {
                throw bad(spec, FORM);
            }
            keys.put(key, part.substring(eq + 1).strip());
        }
        if (!keys.containsKey("x") || !keys.containsKey("y")) {
            throw bad(spec, FORM);
        }
        List<String> columns = new ArrayList<>();
        for (String column : keys.get("y").split("\\+", -1)) {
            if (column.isBlank() || columns.contains(column.strip())) {
                throw bad(spec, "y takes distinct result columns joined by + (" + FORM.substring(9) + ")");
            }
            columns.add(column.strip());
        }
        for (String role : List.of("x", "series")) {
            String p = keys.get(role);
            if (p != null && !parameters.contains(p)) {
                throw bad(spec, role + " must be a swept parameter (" + (parameters.isEmpty() ? "none is swept"
                        : String.join(", ", parameters)) + ")");
            }
        }
        if (!numbers.contains(keys.get("x"))) {
            throw bad(spec, "x must be a number parameter (" + keys.get("x") + " takes names or laws: series="
                    + keys.get("x") + " draws a line for each)");
        }
        return new SweepPlot(keys.get("x"), columns, keys.get("series"));
    }

    private static MflbException bad(String spec, String why) {
        return new MflbException(ErrorKind.INVALID_PARAMETER, "plot", "--plot " + spec + " is invalid: " + why);
    }

    /**
     * Draws the figure and writes it ({@code .png} or {@code .svg}).
     *
     * @param title the figure's title
     * @param table the sweep's results
     * @param file the destination
     */
    public void save(String title, SweepTable table, Path file) {
        for (String column : y) {
            table.requireColumn("y", column);
        }
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < table.size(); i++) {
            groups.computeIfAbsent(series == null ? "" : series + " = " + table.cell(i, series), k -> new ArrayList<>()).add(i);
        }
        boolean anyBars = y.stream().anyMatch(column -> interval(table, column) != null);
        Figure figure = Figure.of(title, x, label() + (anyBars ? " (95% CI)" : ""));
        String prefix = y.size() > 1 ? commonPrefix() : "";
        int group = 0;
        for (String column : y) {
            String interval = interval(table, column);
            boolean bars = interval != null;
            for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
                List<Integer> rows = new ArrayList<>(g.getValue());
                rows.sort(Comparator.comparingDouble(i -> table.number(i, x)));
                double[] xs = new double[rows.size()];
                double[] ys = new double[rows.size()];
                double[] half = new double[rows.size()];
                for (int k = 0; k < rows.size(); k++) {
                    int i = rows.get(k);
                    xs[k] = table.number(i, x);
                    ys[k] = table.number(i, column);
                    if (bars) {
                        half[k] = Math.max(table.number(i, interval + SweepTable.CI_HIGH) - ys[k],
                                ys[k] - table.number(i, interval + SweepTable.CI_LOW));
                    }
                }
                String shown = column.substring(prefix.length());
                String name = series == null ? shown : y.size() == 1 ? g.getKey() : shown + ", " + g.getKey();
                if (bars) {
                    figure.points(name, group, xs, ys, half);
                } else {
                    figure.line(name, group, xs, ys);
                }
                group++;
            }
        }
        figure.save(file);
    }

    /**
     * @return the label of the y axis: the column, or for several the part of their names before a dot
     *         that they share ({@code rows.mean queue length} of its {@code .predicted} and
     *         {@code .simulated}), else {@code values}
     */
    public String label() {
        if (y.size() == 1) {
            return y.get(0);
        }
        String prefix = commonPrefix();
        return prefix.isEmpty() ? "values" : prefix.substring(0, prefix.length() - 1);
    }

    /** @return the longest prefix of every column ending with a dot and leaving each a name, or "" */
    private String commonPrefix() {
        String first = y.get(0);
        for (int dot = first.lastIndexOf('.'); dot > 0; dot = first.lastIndexOf('.', dot - 1)) {
            String prefix = first.substring(0, dot + 1);
            if (y.stream().allMatch(c -> c.startsWith(prefix) && c.length() > prefix.length())) {
                return prefix;
            }
        }
        return "";
    }

    /**
     * @return the prefix P of the interval columns {@code P.ci95Low}, {@code P.ci95High} of a result
     *         column: the column itself, or for a compare row's {@code Q.simulated} the row {@code Q}
     *         (whose interval is that of the simulated value); {@code null} when it has none
     */
    static String interval(SweepTable table, String column) {
        List<String> candidates = new ArrayList<>(List.of(column));
        if (column.endsWith(SIMULATED)) {
            candidates.add(column.substring(0, column.length() - SIMULATED.length()));
        }
        for (String prefix : candidates) {
            if (table.has(prefix + SweepTable.CI_LOW) && table.has(prefix + SweepTable.CI_HIGH)) {
                return prefix;
            }
        }
        return null;
    }
}
