package org.mflb.simulation;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.mflb.core.MflbException;

/** The system being simulated (docs/models.md §1–2). */
public enum SystemKind {
    /** {@code N} single-server FIFO queues, service rate 1 (the supermarket model, §1). */
    SUPERMARKET("supermarket"),
    /** {@code n} infinite-server pools: every task is served at rate 1 from its arrival (§2). */
    POOLS("pools"),
    /** {@code n} pools of capacity {@code C}: an arrival sent to a full pool is lost (§2). */
    LOSS("loss");

    private final String cliName;

    SystemKind(String cliName) {
        this.cliName = cliName;
    }

    /** @return the command-line name */
    public String cliName() {
        return cliName;
    }

    /** @return whether the servers are single-server FIFO queues (jobs wait) */
    public boolean isQueue() {
        return this == SUPERMARKET;
    }

    /** @return the system named {@code name} on the command line */
    public static SystemKind parse(String name) {
        for (SystemKind k : values()) {
            if (k.cliName.equals(name)) {
                return k;
            }
        }
        throw MflbException.invalid("system", name, "one of "
                + Arrays.stream(values()).map(SystemKind::cliName).collect(Collectors.joining("|")));
    }
}
