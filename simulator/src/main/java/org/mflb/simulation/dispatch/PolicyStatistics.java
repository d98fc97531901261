package org.mflb.simulation.dispatch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Named scalar statistics a dispatcher reports for one unit of observation (batch or replication),
 * e.g. {@code messagesPerTask} or {@code meanThreshold}. The simulator turns each name into an
 * estimate with a 95% confidence interval over the units.
 */
public final class PolicyStatistics {

    private final Map<String, Double> values = new LinkedHashMap<>();

    /** Records {@code value} under {@code name} (replacing an earlier value). */
    public void put(String name, double value) {
        values.put(name, value);
    }

    /** @return the recorded values, in insertion order (unmodifiable) */
    public Map<String, Double> values() {
        return Collections.unmodifiableMap(values);
    }
}
