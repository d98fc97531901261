package org.mflb.core;

/**
 * The kinds of failure mflb reports. Tests assert on the kind (and on the parameter name) rather
 * than on message text, in the manner of Hipparchus's localized format keys.
 */
public enum ErrorKind {
    /** A parameter lies outside its valid range (the message names it and the range). */
    INVALID_PARAMETER,
    /**
     * A parameter the others make necessary is missing (e.g. the capacity of loss pools): the message
     * names it and when it is required. A command line reports it as a usage error, naming its flag.
     */
    MISSING_PARAMETER,
    /** The model has no stable fixed point for these parameters (e.g. load {@code λ ≥ 1} for queues). */
    UNSTABLE,
    /** An iterative method did not reach its tolerance within its budget. */
    NO_CONVERGENCE,
    /** A truncation would cut off more mass than the tolerance allows. */
    TRUNCATION,
    /** An input file could not be read or parsed. */
    INPUT
}
