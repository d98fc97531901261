package org.mflb.cli;

/** How a command prints its result. */
public enum OutputFormat {
    /** Aligned, labelled columns for people (default). */
    table,
    /** One JSON object; its keys are a stable contract. */
    json,
    /** Comma-separated values with a header row. */
    csv
}
