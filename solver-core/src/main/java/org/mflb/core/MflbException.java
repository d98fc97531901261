package org.mflb.core;

/**
 * The single exception type of mflb. Its message is one line meant for the end user: it names the
 * offending parameter (when there is one) and the valid range. The {@link #kind()} and
 * {@link #parameter()} are for programs and tests.
 */
public class MflbException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorKind kind;
    private final String parameter;

    /**
     * @param kind what went wrong
     * @param parameter name of the offending parameter, or {@code null}
     * @param message one-line message for the user
     */
    public MflbException(ErrorKind kind, String parameter, String message) {
        super(message);
        this.kind = kind;
        this.parameter = parameter;
    }

    /** @return what went wrong */
    public ErrorKind kind() {
        return kind;
    }

    /** @return the offending parameter, or {@code null} when the failure is not about one parameter */
    public String parameter() {
        return parameter;
    }

    /**
     * Error for a required parameter that is missing: "{@code name is required requirement}".
     *
     * @param parameter the missing parameter
     * @param requirement when and what it must be, e.g. "for the threshold policy (an integer >= 0)"
     * @return the exception, of kind {@link ErrorKind#MISSING_PARAMETER}
     */
    public static MflbException missing(String parameter, String requirement) {
        return new MflbException(ErrorKind.MISSING_PARAMETER, parameter, parameter + " is required " + requirement);
    }

    /** Error for a parameter outside its valid range: "{@code name = value: must be range}". */
    public static MflbException invalid(String parameter, Object value, String validRange) {
        return new MflbException(ErrorKind.INVALID_PARAMETER, parameter,
                parameter + " = " + value + " is invalid: must be " + validRange);
    }
}
