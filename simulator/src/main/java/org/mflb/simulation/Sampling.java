package org.mflb.simulation;

import org.mflb.core.MflbException;

/** How SQ(d)-type dispatchers sample their {@code d} servers. */
public enum Sampling {
    /** {@code d} distinct servers, uniformly among all subsets (the real algorithm; requires d ≤ N). */
    DISTINCT("distinct"),
    /** {@code d} independent uniform draws (the x^d drift of the fluid model holds exactly). */
    REPLACEMENT("replacement");

    private final String cliName;

    Sampling(String cliName) {
        this.cliName = cliName;
    }

    /** @return the command-line name */
    public String cliName() {
        return cliName;
    }

    /** @return the sampling named {@code name} on the command line */
    public static Sampling parse(String name) {
        for (Sampling s : values()) {
            if (s.cliName.equals(name)) {
                return s;
            }
        }
        throw MflbException.invalid("sampling", name, "one of distinct|replacement");
    }
}
