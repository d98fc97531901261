package org.mflb.core.modelfile;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * A place in a model file: the file's name, a 1-based line and a 1-based column. Every error the
 * model-file reader reports starts with it, in the {@code file:line:column:} form compilers use.
 *
 * @param file the file's name as the user gave it
 * @param line 1-based line
 * @param column 1-based column
 */
public record SourcePosition(String file, int line, int column) {

    /**
     * @param problem what is wrong, e.g. {@code "undeclared name 'Q'"}
     * @param expected what the reader expected instead, or null
     * @return a one-line {@link ErrorKind#INPUT} error at this position
     */
    public MflbException error(String problem, String expected) {
        return new MflbException(ErrorKind.INPUT, null,
                this + ": " + problem + (expected == null ? "" : " (expected " + expected + ")"));
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
