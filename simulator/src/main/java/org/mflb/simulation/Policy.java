package org.mflb.simulation;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.mflb.core.MflbException;

/** Dispatching policies (docs/models.md §1–3). The dispatcher implementing each is chosen in {@code Dispatchers}. */
public enum Policy {
    /** Uniformly random server. */
    RANDOM("random"),
    /** Power of d choices SQ(d): the least loaded of d sampled servers. */
    SQD("sqd"),
    /** Join the shortest queue (ties uniformly at random). */
    JSQ("jsq"),
    /** Join an idle queue if any, else a uniformly random one. */
    JIQ("jiq"),
    /** SQ(d) with memory (Anselmi–Dufour), single-server queues only. */
    MEMORY("memory"),
    /** Threshold ℓ with green/yellow tokens ([GABL]), pools only. */
    THRESHOLD("threshold"),
    /** Self-learning threshold with parameter α ([GABL], docs/models.md §3), pools only. */
    ADAPTIVE_THRESHOLD("adaptive-threshold");

    private final String cliName;

    Policy(String cliName) {
        this.cliName = cliName;
    }

    /** @return the command-line name */
    public String cliName() {
        return cliName;
    }

    /** @return whether the policy samples {@code d} servers (and therefore uses d and the sampling mode) */
    public boolean samples() {
        return this == SQD || this == MEMORY;
    }

    /** @return the policy named {@code name} on the command line */
    public static Policy parse(String name) {
        for (Policy p : values()) {
            if (p.cliName.equals(name)) {
                return p;
            }
        }
        throw MflbException.invalid("policy", name, "one of "
                + Arrays.stream(values()).map(Policy::cliName).collect(Collectors.joining("|")));
    }
}
