package org.mflb.cli;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * A required option that is missing for the options given (e.g. {@code --capacity} with
 * {@code --system loss}): a malformed command line, so the CLI exits with
 * {@link Mflb#EXIT_USAGE}, like picocli's own missing-option errors.
 */
final class MissingOption extends MflbException {

    private static final long serialVersionUID = 1L;

    /**
     * @param option the option's name without dashes
     * @param requirement when and what it must be, e.g. "given (an integer >= 1) with --system loss"
     */
    MissingOption(String option, String requirement) {
        super(ErrorKind.INVALID_PARAMETER, option, "missing option --" + option + ": must be " + requirement);
    }
}
