package org.nakcast.config;

/**
 * A configuration value that does not parse, told in two parts: what is wrong ("'14x' is not a
 * size") and, where there is one, how to write it right ("write a whole number of bytes...").
 * The loader turns the two parts into a {@link Problem}; code that calls a parser directly sees
 * both in {@link #getMessage()}.
 */
final class BadValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String problem;
    private final String hint;

    BadValueException(String problem, String hint) {
        super(hint.isEmpty() ? problem : problem + "; " + hint);
        this.problem = problem;
        this.hint = hint;
    }

    String problem() {
        return problem;
    }

    String hint() {
        return hint;
    }
}
