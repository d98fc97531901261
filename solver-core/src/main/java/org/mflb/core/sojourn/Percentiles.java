package org.mflb.core.sojourn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.mflb.core.MflbException;

/**
 * A list of percentiles {@code P} in (0, 100) (the command line's {@code --percentiles}), and their
 * quantiles under a {@link SojournLaw}. Immutable.
 */
public final class Percentiles {

    /** The default list: 50, 90, 99, 99.9. */
    public static final Percentiles DEFAULT = of(50, 90, 99, 99.9);

    private final double[] values;

    private Percentiles(double[] values) {
        this.values = values;
    }

    /**
     * @param percentiles each in (0, 100)
     * @return the list
     * @throws MflbException naming {@code --percentiles} when one lies outside (0, 100) or the list is empty
     */
    public static Percentiles of(double... percentiles) {
        if (percentiles == null || percentiles.length == 0) {
            throw MflbException.invalid("percentiles", "an empty list", "one or more numbers in (0, 100)");
        }
        for (double p : percentiles) {
            if (!(p > 0 && p < 100)) {
                throw MflbException.invalid("percentiles", p, "numbers in (0, 100), e.g. 50,90,99,99.9");
            }
        }
        return new Percentiles(percentiles.clone());
    }

    /**
     * @param list comma-separated percentiles, e.g. {@code 50,90,99,99.9}
     * @return the list
     */
    public static Percentiles parse(String list) {
        if (list == null || list.isBlank()) {
            return of();
        }
        String[] parts = list.split(",");
        double[] p = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                p[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw MflbException.invalid("percentiles", parts[i].trim(), "numbers in (0, 100), e.g. 50,90,99,99.9");
            }
        }
        return of(p);
    }

    /** @return the percentiles (a copy) */
    public double[] values() {
        return values.clone();
    }

    /** @return how many */
    public int size() {
        return values.length;
    }

    /** One quantile: percentile {@code p} in (0, 100) and the time {@code value}. */
    public record Quantile(double p, double value) {
    }

    /** @return the quantile of {@code law} at every percentile, in the list's order */
    public List<Quantile> quantiles(SojournLaw law) {
        List<Quantile> out = new ArrayList<>(values.length);
        for (double p : values) {
            out.add(new Quantile(p, law.quantile(p / 100.0)));
        }
        return out;
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
