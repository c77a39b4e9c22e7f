package org.nakcast.codecs;

/**
 * The bytes given to a decoder are not a message this codec wrote: a field or length that does
 * not fit the region, an unexpected value, trailing or missing bytes.
 */
public class CorruptMessageException extends CodecException {
    private static final long serialVersionUID = 1L;

    private final int offset;

    /**
     * @param reason what does not fit
     * @param offset where in the buffer it was found, or where the message starts if unknown
     */
    public CorruptMessageException(String reason, int offset) {
        super(reason + " (at offset " + offset + ")");
        this.offset = offset;
    }

    /**
     * @param reason what does not fit
     * @param offset where in the buffer it was found, or where the message starts if unknown
     * @param cause  the underlying error
     */
    public CorruptMessageException(String reason, int offset, Throwable cause) {
        super(reason + " (at offset " + offset + ")", cause);
        this.offset = offset;
    }

    /**
     * @return the buffer offset where the problem was found, or where the message starts
     */
    public int offset() {
        return offset;
    }
}
