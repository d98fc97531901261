package org.mflb.sweep;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One point of a sweep's grid: its index {@code p} (0-based, in the grid's order), the swept
 * parameters' values (column name to value, in command-line order) and the complete command line
 * that computes it ({@code COMMAND options... --format json}, with the point's seed).
 *
 * @param index the point's index in the grid
 * @param params the swept parameters' values
 * @param args the command line of the point
 */
public record SweepPoint(int index, LinkedHashMap<String, String> params, ArrayList<String> args)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Copies the collections, so a point never changes. */
    public SweepPoint(int index, Map<String, String> params, List<String> args) {
        this(index, new LinkedHashMap<>(params), new ArrayList<>(args));
    }

    /** @return the parameters as {@code name=value, ...}, for progress lines and messages */
    public String label() {
        StringBuilder s = new StringBuilder();
        params.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return s.toString();
    }
}
