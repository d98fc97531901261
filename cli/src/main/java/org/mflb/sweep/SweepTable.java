package org.mflb.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The results of a sweep as a tidy table: one row per point; a column per swept parameter, then
 * {@code status} ({@code ok} or {@code failed}) and {@code error}, then one column per scalar of the
 * command's JSON, in the order they first appear. Scalars are flattened by these rules:
 * <ul>
 * <li>a number, string or boolean at key {@code k}: column {@code k}; in a nested object
 *     {@code parent.k};</li>
 * <li>an estimate {@code {mean, ci95: [low, high]}} or {@code {mean, ci95Low, ci95High}} at
 *     {@code k}: columns {@code k}, {@code k.ci95Low}, {@code k.ci95High};</li>
 * <li>a list of objects labelled by a number {@code p} (quantiles), an integer {@code N} (system
 *     sizes) or a string {@code quantity} or {@code name}: each element as an object at
 *     {@code k.p50}, {@code k.N100}, {@code k.<label>}; its {@code value} or {@code mean} at
 *     {@code k.p50} itself;</li>
 * <li>with a model file's top-level {@code names} (its variables), an array of one number per
 *     variable at {@code k}: columns {@code k.<name>}; a vector estimate {@code {mean, ci95Low,
 *     ci95High}} of such arrays: {@code k.<name>} and its CI ends;</li>
 * <li>the per-class array {@code classes} of server classes (objects without such a label): each
 *     element as an object at {@code classes.1}, {@code classes.2}, .. (the classes in the order given);</li>
 * <li>a pair {@code ci95: [low, high]} in an object: {@code parent.ci95Low}, {@code parent.ci95High};</li>
 * <li>in a transient (a top-level time grid {@code t}), an array of numbers with a value per time
 *     at {@code k}: its value at the last time, column {@code k.final};</li>
 * <li>other arrays of numbers (tail vectors, trajectories) are no scalars: they stay in
 *     {@code results.json}.</li>
 * </ul>
 * A result key that is also a swept parameter's column (the command's echo of its input) is left
 * out. Failed points have empty result cells and their error in {@code error}.
 */
public final class SweepTable {

    /** Suffixes of the ends of a 95% confidence interval. */
    public static final String CI_LOW = ".ci95Low";
    /** Suffix of the upper end of a 95% confidence interval. */
    public static final String CI_HIGH = ".ci95High";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String command;
    private final List<String> parameters;
    private final List<String> columns;
    private final List<SweepPoint> points;
    private final List<PointResult> results;
    private final List<JsonNode> trees;
    private final List<Map<String, JsonNode>> rows;

    /**
     * @param command the swept command
     * @param parameters the swept parameters' columns
     * @param points the points
     * @param results their results, in the same order
     */
    public SweepTable(String command, List<String> parameters, List<SweepPoint> points, List<PointResult> results) {
        this.command = command;
        this.parameters = List.copyOf(parameters);
        this.points = List.copyOf(points);
        this.results = List.copyOf(results);
        this.trees = new ArrayList<>();
        this.rows = new ArrayList<>();
        Set<String> resultColumns = new LinkedHashSet<>();
        for (PointResult r : results) {
            JsonNode tree = r.succeeded() ? read(r) : null;
            trees.add(tree);
            Map<String, JsonNode> row = new LinkedHashMap<>();
            if (tree != null) {
                flatten("", tree, row, names(tree));
                finalValues(tree, row);
                parameters.forEach(row::remove);
            }
            resultColumns.addAll(row.keySet());
            rows.add(row);
        }
        List<String> all = new ArrayList<>(parameters);
        all.add("status");
        all.add("error");
        all.addAll(resultColumns);
        this.columns = List.copyOf(all);
    }

    private static JsonNode read(PointResult r) {
        try {
            return JSON.readTree(r.json());
        } catch (IOException e) {
            throw new IllegalStateException("point " + r.index() + " printed no JSON: " + e.getMessage(), e);
        }
    }

    /** @return the top-level {@code names} of a model file's variables, or an empty list */
    private static List<String> names(JsonNode tree) {
        List<String> names = new ArrayList<>();
        for (JsonNode n : tree.path("names")) {
            if (!n.isTextual()) {
                return List.of();
            }
            names.add(n.asText());
        }
        return names;
    }

    /** @return whether {@code v} is an array of numbers (or nulls) with one value per name */
    private static boolean perName(JsonNode v, List<String> names) {
        if (names.isEmpty() || !v.isArray() || v.size() != names.size()) {
            return false;
        }
        for (JsonNode e : v) {
            if (!e.isNumber() && !e.isNull()) {
                return false;
            }
        }
        return true;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, JsonNode> row, List<String> names) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String key = prefix + f.getKey();
            JsonNode v = f.getValue();
            if (v.isValueNode()) {
                row.put(key, v);
            } else if (perName(v, names)) {
                for (int i = 0; i < names.size(); i++) {
                    row.put(key + "." + names.get(i), v.get(i));
                }
            } else if (v.isObject()) {
                if (isEstimate(v)) {
                    estimate(key, v, row);
                } else if (perName(v.path("mean"), names) && perName(v.path("ci95Low"), names)
                        && perName(v.path("ci95High"), names)) {
                    for (int i = 0; i < names.size(); i++) {
                        row.put(key + "." + names.get(i), v.get("mean").get(i));
                        row.put(key + "." + names.get(i) + CI_LOW, v.get("ci95Low").get(i));
                        row.put(key + "." + names.get(i) + CI_HIGH, v.get("ci95High").get(i));
                    }
                } else {
                    flatten(key + ".", v, row, names);
                }
            } else if (f.getKey().equals("ci95") && v.size() == 2 && v.get(0).isValueNode() && v.get(1).isValueNode()) {
                row.put(prefix + "ci95Low", v.get(0));
                row.put(prefix + "ci95High", v.get(1));
            } else if (v.isArray()) {
                labelledElements(key, (ArrayNode) v, row, names);
            }
        }
    }

    /** The value at the last output time of each top-level series of a transient ({@code k.final}). */
    private static void finalValues(JsonNode tree, Map<String, JsonNode> row) {
        JsonNode t = tree.path("t");
        if (!t.isArray() || t.isEmpty()) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = tree.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            JsonNode v = f.getValue();
            if (!f.getKey().equals("t") && v.isArray() && v.size() == t.size() && v.get(v.size() - 1).isValueNode()) {
                row.put(f.getKey() + ".final", v.get(v.size() - 1));
            }
        }
    }

    /** {@code {mean, ci95: [lo, hi]}} or {@code {mean|value, ci95Low, ci95High}} with numbers. */
    private static boolean isEstimate(JsonNode v) {
        JsonNode mean = v.has("mean") ? v.get("mean") : v.get("value");
        return mean != null && (mean.isNumber() || mean.isNull()) && !v.path("ci95").isObject()
                && (v.path("ci95").isArray() && v.get("ci95").size() == 2 || v.has("ci95Low") && v.path("ci95Low").isValueNode());
    }

    private static void estimate(String key, JsonNode v, Map<String, JsonNode> row) {
        row.put(key, v.has("mean") ? v.get("mean") : v.get("value"));
        if (v.has("ci95")) {
            row.put(key + CI_LOW, v.get("ci95").get(0));
            row.put(key + CI_HIGH, v.get("ci95").get(1));
        } else {
            row.put(key + CI_LOW, v.get("ci95Low"));
            row.put(key + CI_HIGH, v.path("ci95High"));
        }
        Iterator<Map.Entry<String, JsonNode>> fields = v.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getValue().isValueNode() && !Set.of("mean", "value", "ci95Low", "ci95High", "p").contains(f.getKey())) {
                row.put(key + "." + f.getKey(), f.getValue());
            }
        }
    }

    /** Arrays of objects labelled by {@code p}, {@code quantity} or {@code name}; other arrays are no scalars. */
    private static void labelledElements(String key, ArrayNode array, Map<String, JsonNode> row, List<String> names) {
        int position = 0;
        for (JsonNode e : array) {
            if (!e.isObject()) {
                return;
            }
            position++;
            String label;
            if (key.endsWith("classes") && e.has("fraction") && e.has("speed")) {
                label = Integer.toString(position);
            } else if (e.path("p").isNumber()) {
                label = "p" + new BigDecimal(e.get("p").asText()).stripTrailingZeros().toPlainString();
            } else if (e.path("N").isIntegralNumber()) {
                label = "N" + e.get("N").asText();
            } else if (e.path("quantity").isTextual()) {
                label = e.get("quantity").asText();
            } else if (e.path("name").isTextual()) {
                label = e.get("name").asText();
            } else {
                return;
            }
            String at = key + "." + label;
            if (isEstimate(e)) {
                estimate(at, e, row);
            } else if (e.has("value") && e.get("value").isValueNode()) {
                row.put(at, e.get("value"));
            } else {
                ObjectNode rest = e.deepCopy();
                rest.remove(List.of("p", "N", "quantity", "name"));
                flatten(at + ".", rest, row, names);
            }
        }
    }

    /** @return the columns: parameters, {@code status}, {@code error}, then the results' scalars */
    public List<String> columns() {
        return columns;
    }

    /** @return the number of failed points */
    public long failed() {
        return results.stream().filter(r -> !r.succeeded()).count();
    }

    /** @return the number of rows (points) */
    public int size() {
        return points.size();
    }

    /** @return the cell of row {@code i} in {@code column} as text ({@code ""} when empty) */
    public String cell(int i, String column) {
        if (parameters.contains(column)) {
            return points.get(i).params().get(column);
        }
        PointResult r = results.get(i);
        if (column.equals("status")) {
            return r.succeeded() ? "ok" : "failed";
        }
        if (column.equals("error")) {
            return r.error();
        }
        JsonNode v = rows.get(i).get(column);
        return v == null || v.isNull() ? "" : v.asText();
    }

    /** @return the cell of row {@code i} as a number, NaN when it is empty or not numeric */
    public double number(int i, String column) {
        String text = cell(i, column);
        try {
            return text.isEmpty() ? Double.NaN : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** @return whether {@code column} is one of the table's */
    public boolean has(String column) {
        return columns.contains(column);
    }

    /** @return the table as CSV with a header row (RFC 4180 quoting) */
    public String csv() {
        StringBuilder s = new StringBuilder();
        s.append(String.join(",", columns.stream().map(SweepTable::quote).toList())).append('\n');
        for (int i = 0; i < points.size(); i++) {
            List<String> cells = new ArrayList<>();
            for (String c : columns) {
                cells.add(quote(cell(i, c)));
            }
            s.append(String.join(",", cells)).append('\n');
        }
        return s.toString();
    }

    private static String quote(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }

    /**
     * @return {@code {command, parameters, failed, points: [{params: {..}, result: {the command's
     *         JSON}}]}}; a failed point has {@code error} (and {@code exitCode}) instead of {@code result}
     */
    public ObjectNode json() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("command", command);
        ArrayNode names = json.putArray("parameters");
        parameters.forEach(names::add);
        json.put("failed", failed());
        ArrayNode array = json.putArray("points");
        for (int i = 0; i < points.size(); i++) {
            ObjectNode point = array.addObject();
            ObjectNode params = point.putObject("params");
            points.get(i).params().forEach((k, v) -> putValue(params, k, v));
            if (trees.get(i) != null) {
                point.set("result", trees.get(i));
            } else {
                point.put("error", results.get(i).error());
                point.put("exitCode", results.get(i).exitCode());
            }
        }
        return json;
    }

    /** Puts a swept value: a number as an integer or a double, a name or a law as text. */
    private static void putValue(ObjectNode params, String key, String value) {
        BigDecimal d;
        try {
            d = new BigDecimal(value);
        } catch (NumberFormatException e) {
            params.put(key, value);
            return;
        }
        if (d.stripTrailingZeros().scale() <= 0 && d.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
            params.put(key, d.longValueExact());
        } else {
            params.put(key, d.doubleValue());
        }
    }

    /** @return {@link #json()} as indented text */
    public String jsonText() {
        try {
            return JSON.writeValueAsString(json());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the column, or one line listing the table's numeric columns */
    public String requireColumn(String role, String column) {
        if (!has(column)) {
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "plot", "plot " + role + "=" + column
                    + " is not a column of the results; columns: " + String.join(", ", columns));
        }
        return column;
    }
}
