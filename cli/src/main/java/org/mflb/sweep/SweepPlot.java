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
 * The figure of a sweep, {@code --plot x=PARAM,y=RESULT[,series=PARAM]}: {@code y} against the
 * swept parameter {@code x}, one series per value of {@code series}. Results with a confidence
 * interval ({@code RESULT.ci95Low}, {@code RESULT.ci95High}) are drawn as points with 95% bars
 * (symmetric bars of the larger of the two half-widths), the others as lines.
 *
 * @param x the swept parameter on the x axis
 * @param y the result column on the y axis
 * @param series the swept parameter that separates the series, or {@code null}
 */
public record SweepPlot(String x, String y, String series) {

    /**
     * @param spec {@code x=PARAM,y=RESULT[,series=PARAM]}
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
                throw bad(spec, "expected x=PARAM,y=RESULT[,series=PARAM]");
            }
            keys.put(key, part.substring(eq + 1).strip());
        }
        if (!keys.containsKey("x") || !keys.containsKey("y")) {
            throw bad(spec, "expected x=PARAM,y=RESULT[,series=PARAM]");
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
        return new SweepPlot(keys.get("x"), keys.get("y"), keys.get("series"));
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
        table.requireColumn("y", y);
        boolean bars = table.has(y + SweepTable.CI_LOW) && table.has(y + SweepTable.CI_HIGH);
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < table.size(); i++) {
            groups.computeIfAbsent(series == null ? y : series + " = " + table.cell(i, series), k -> new ArrayList<>()).add(i);
        }
        Figure figure = Figure.of(title, x, y + (bars ? " (95% CI)" : ""));
        int group = 0;
        for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
            List<Integer> rows = new ArrayList<>(g.getValue());
            rows.sort(Comparator.comparingDouble(i -> table.number(i, x)));
            double[] xs = new double[rows.size()];
            double[] ys = new double[rows.size()];
            double[] half = new double[rows.size()];
            for (int k = 0; k < rows.size(); k++) {
                int i = rows.get(k);
                xs[k] = table.number(i, x);
                ys[k] = table.number(i, y);
                half[k] = Math.max(table.number(i, y + SweepTable.CI_HIGH) - ys[k], ys[k] - table.number(i, y + SweepTable.CI_LOW));
            }
            if (bars) {
                figure.points(g.getKey(), group, xs, ys, half);
            } else {
                figure.line(g.getKey(), group, xs, ys);
            }
            group++;
        }
        figure.save(file);
    }
}
