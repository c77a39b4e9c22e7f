package org.nakcast.transport.protocol;

/**
 * UNRECOVERABLE: the publisher's answer to a NAK for datagrams it no longer holds.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        common header, 24 bytes (sequence unused, 0)           |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                 first sequence gone from history              +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                 last sequence gone from history               +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +       messages completed before the datagram after the range  +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The range is inclusive; the datagram after it is the oldest one still in history, and its
 * message count lets a receiver report exactly how many messages the gap swallowed.
 */
public final class UnrecoverableFlyweight extends HeaderFlyweight {
    static final int FROM_OFFSET = HEADER_LENGTH;
    static final int TO_OFFSET = FROM_OFFSET + Long.BYTES;
    static final int COMPLETED_MESSAGES_AFTER_OFFSET = TO_OFFSET + Long.BYTES;
    /** Length of an UNRECOVERABLE datagram. */
    public static final int UNRECOVERABLE_LENGTH = COMPLETED_MESSAGES_AFTER_OFFSET + Long.BYTES;

    /** First sequence of the lost range. */
    public long fromSequence() {
        return buffer.getLong(offset + FROM_OFFSET, BYTE_ORDER);
    }

    /** Last sequence (inclusive) of the lost range. */
    public long toSequence() {
        return buffer.getLong(offset + TO_OFFSET, BYTE_ORDER);
    }

    /** Messages completed before the first datagram after the lost range. */
    public long completedMessagesAfter() {
        return buffer.getLong(offset + COMPLETED_MESSAGES_AFTER_OFFSET, BYTE_ORDER);
    }

    /**
     * Writes the lost range and the message count after it.
     *
     * @return this
     */
    public UnrecoverableFlyweight lostRange(long from, long to, long completedMessagesAfter) {
        buffer.putLong(offset + FROM_OFFSET, from, BYTE_ORDER);
        buffer.putLong(offset + TO_OFFSET, to, BYTE_ORDER);
        buffer.putLong(offset + COMPLETED_MESSAGES_AFTER_OFFSET, completedMessagesAfter, BYTE_ORDER);
        return this;
    }
}
