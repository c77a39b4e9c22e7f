package org.nakcast.codecs;

/**
 * The message needs more bytes than the region holds.
 */
public final class TruncatedMessageException extends CorruptMessageException {
    private static final long serialVersionUID = 1L;

    /**
     * @param reason what was being read
     * @param offset the buffer offset where the bytes ran out, or where the message starts
     */
    public TruncatedMessageException(String reason, int offset) {
        super("truncated message: " + reason, offset);
    }

    /**
     * @param reason what was being read
     * @param offset the buffer offset where the bytes ran out, or where the message starts
     * @param cause  the underlying error
     */
    public TruncatedMessageException(String reason, int offset, Throwable cause) {
        super("truncated message: " + reason, offset, cause);
    }
}
