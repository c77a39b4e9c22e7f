package org.nakcast.codecs;

/**
 * A message holds a value the codec cannot write, e.g. a string longer than its fixed-size field
 * or more repeating-group entries than the schema allows.
 */
public final class InvalidMessageException extends CodecException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what cannot be written, naming the class
     * @param cause   the underlying error
     */
    public InvalidMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
