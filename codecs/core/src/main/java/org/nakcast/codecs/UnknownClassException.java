package org.nakcast.codecs;

/**
 * A class the codec does not carry: a message or nested object of an unregistered class on
 * encode, or on decode a class id, template id or class name the codec does not know.
 */
public class UnknownClassException extends CodecException {
    private static final long serialVersionUID = 1L;

    private final String className;

    /**
     * @param message   what went wrong
     * @param className the class name, or the id as the wire had it
     */
    public UnknownClassException(String message, String className) {
        super(message);
        this.className = className;
    }

    /**
     * @param message   what went wrong
     * @param className the class name, or the id as the wire had it
     * @param cause     the underlying error
     */
    public UnknownClassException(String message, String className, Throwable cause) {
        super(message, cause);
        this.className = className;
    }

    /**
     * @return the class name, or the id as the wire had it
     */
    public String className() {
        return className;
    }
}
