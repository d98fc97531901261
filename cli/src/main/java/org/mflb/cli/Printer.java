package org.mflb.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.ejml.data.DMatrixRMaj;

/** Output helpers shared by the commands: JSON trees, aligned tables and CSV. */
public final class Printer {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Printer() {
    }

    /** @return a new, empty JSON object */
    public static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** @return a JSON array of the numbers ({@code null} for non-finite ones, which JSON cannot hold) */
    public static ArrayNode array(double[] values) {
        ArrayNode array = JSON.createArrayNode();
        for (double v : values) {
            if (Double.isFinite(v)) {
                array.add(v);
            } else {
                array.addNull();
            }
        }
        return array;
    }

    /** @return a JSON array of arrays */
    public static ArrayNode matrix(double[][] rows) {
        ArrayNode array = JSON.createArrayNode();
        for (double[] row : rows) {
            array.add(array(row));
        }
        return array;
    }

    /** @return a JSON array of the matrix's rows */
    public static ArrayNode matrix(DMatrixRMaj m) {
        ArrayNode array = JSON.createArrayNode();
        double[] row = new double[m.numCols];
        for (int i = 0; i < m.numRows; i++) {
            for (int j = 0; j < m.numCols; j++) {
                row[j] = m.get(i, j);
            }
            array.add(array(row));
        }
        return array;
    }

    /** Puts a number, or {@code null} when it is not finite. */
    public static void put(ObjectNode node, String key, double value) {
        if (Double.isFinite(value)) {
            node.put(key, value);
        } else {
            node.putNull(key);
        }
    }

    /** Prints {@code tree} as indented JSON. */
    public static void printJson(PrintWriter out, ObjectNode tree) {
        try {
            out.println(JSON.writeValueAsString(tree));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Formats a number for people: fixed notation for moderate values, scientific for tiny ones. */
    public static String number(double v) {
        if (v == 0 || (Math.abs(v) >= 1e-4 && Math.abs(v) < 1e7)) {
            return String.format(Locale.ROOT, "%.10f", v).replaceAll("0+$", "").replaceAll("\\.$", ".0");
        }
        return String.format(Locale.ROOT, "%.6e", v);
    }

    /** Formats a number for CSV: shortest representation that reads back exactly. */
    public static String csv(double v) {
        return Double.toString(v);
    }

    /** An aligned table with a header row, printed with right-aligned columns. */
    public static final class Table {
        private final List<String[]> rows = new ArrayList<>();
        private final int columns;

        /** @param header the column labels */
        public Table(String... header) {
            this.columns = header.length;
            rows.add(header);
        }

        /** Adds a row of already formatted cells. */
        public Table row(String... cells) {
            if (cells.length != columns) {
                throw new IllegalArgumentException("expected " + columns + " cells");
            }
            rows.add(cells);
            return this;
        }

        /** Prints the table. */
        public void print(PrintWriter out) {
            int[] width = new int[columns];
            for (String[] row : rows) {
                for (int c = 0; c < columns; c++) {
                    width[c] = Math.max(width[c], row[c].length());
                }
            }
            for (String[] row : rows) {
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < columns; c++) {
                    line.append(c == 0 ? "" : "  ").append(" ".repeat(width[c] - row[c].length())).append(row[c]);
                }
                out.println(line);
            }
        }
    }
}
