package org.nakcast.transport;

/**
 * A problem setting up nakcast that the user can fix: a port in use, an interface that is down,
 * an unknown topic, a codec that does not fit the message class. The message names the thing.
 * Thrown at launch or when a publication or subscription is made, never from the hot path.
 */
public class TransportException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a message that names what to fix. */
    public TransportException(String message) {
        super(message);
    }

    /** An error with a message that names what to fix, caused by {@code cause}. */
    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
