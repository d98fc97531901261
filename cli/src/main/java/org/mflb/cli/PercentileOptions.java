package org.mflb.cli;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.sojourn.SojournLaw;

import picocli.CommandLine.Option;

/**
 * {@code --percentiles P,P,...}: the response-time (and, for the PDE, waiting-time) quantiles shared
 * by {@code fixed-point}, {@code transient} and {@code pde} (docs/models.md §7). JSON gains
 * {@code responseTimeQuantiles} [{@code p}, {@code value}] (per output time in transients: an array
 * per time), {@code waitingTimeQuantiles} (PDE, same form) and {@code meanResponseTime}.
 */
public final class PercentileOptions {

    @Option(names = "--percentiles", paramLabel = "P,P,...", defaultValue = "50,90,99,99.9",
            description = "Response-time percentiles, each in (0, 100) (default: ${DEFAULT-VALUE}).")
    String list;

    /** @return the percentiles (validated: a value outside (0, 100) is an error naming the option) */
    Percentiles percentiles() {
        return Percentiles.parse(list);
    }

    /** @return the JSON array [{p, value}] of the quantiles of {@code law} */
    ArrayNode quantiles(SojournLaw law) {
        return quantiles(percentiles().quantiles(law));
    }

    /** @return the JSON array [{p, value}] */
    static ArrayNode quantiles(List<Percentiles.Quantile> quantiles) {
        ArrayNode array = Printer.object().arrayNode();
        for (Percentiles.Quantile q : quantiles) {
            ObjectNode o = array.addObject();
            o.put("p", q.p());
            Printer.put(o, "value", q.value());
        }
        return array;
    }

    /** Puts {@code responseTimeQuantiles} and {@code meanResponseTime} of {@code law}. */
    void putResponse(ObjectNode json, SojournLaw law) {
        json.set("responseTimeQuantiles", quantiles(law));
        Printer.put(json, "meanResponseTime", law.mean());
    }

    /** @return {@code p50 = 1.2, p90 = ...} for a table */
    String summary(SojournLaw law) {
        StringBuilder b = new StringBuilder();
        for (Percentiles.Quantile q : percentiles().quantiles(law)) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append('p').append(label(q.p())).append(' ').append(String.format(Locale.ROOT, "%.6g", q.value()));
        }
        return b.toString();
    }

    /** The quantiles and mean of the response time of a job arriving at each time of a transient. */
    record Series(double[] percentiles, double[][] quantiles, double[] mean) {

        /** Puts {@code responseTimeQuantiles} (an array per output time) and {@code meanResponseTime} (per time). */
        void putJson(ObjectNode json, String key) {
            ArrayNode perTime = json.putArray(key);
            for (double[] row : quantiles) {
                ArrayNode array = perTime.addArray();
                for (int i = 0; i < percentiles.length; i++) {
                    ObjectNode o = array.addObject();
                    o.put("p", percentiles[i]);
                    Printer.put(o, "value", row[i]);
                }
            }
        }
    }

    /** @return the series of the laws at grid indices {@code 0..steps−1} */
    Series series(int steps, java.util.function.IntFunction<? extends SojournLaw> law) {
        Percentiles p = percentiles();
        double[] values = p.values();
        double[][] q = new double[steps][];
        double[] mean = new double[steps];
        for (int k = 0; k < steps; k++) {
            SojournLaw l = law.apply(k);
            q[k] = new double[values.length];
            List<Percentiles.Quantile> list = p.quantiles(l);
            for (int i = 0; i < values.length; i++) {
                q[k][i] = list.get(i).value();
            }
            mean[k] = l.mean();
        }
        return new Series(values, q, mean);
    }

    /** @return {@code 99.9} or {@code 50} (no trailing {@code .0}) */
    static String label(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
