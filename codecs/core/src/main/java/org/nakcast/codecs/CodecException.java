package org.nakcast.codecs;

/**
 * The root of every error a codec reports. Subclasses say what went wrong and carry the class
 * name or offset involved; a decoder that throws one has returned nothing.
 */
public class CodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong
     */
    public CodecException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong
     * @param cause   the underlying error
     */
    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
