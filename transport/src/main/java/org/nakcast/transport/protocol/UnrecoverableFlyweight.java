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
 *  +          index of the first whole message after the range     +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The range is inclusive. The message index is that of the first message to begin after the
 * range (a message cut by the range's end is lost with it), so a receiver whose next message
 * index is {@code n} lost exactly {@code firstMessageAfter - n} messages.
 */
public final class UnrecoverableFlyweight extends HeaderFlyweight {
    static final int FROM_OFFSET = HEADER_LENGTH;
    static final int TO_OFFSET = FROM_OFFSET + Long.BYTES;
    static final int FIRST_MESSAGE_AFTER_OFFSET = TO_OFFSET + Long.BYTES;
    /** Length of an UNRECOVERABLE datagram. */
    public static final int UNRECOVERABLE_LENGTH = FIRST_MESSAGE_AFTER_OFFSET + Long.BYTES;

    /** First sequence of the lost range. */
    public long fromSequence() {
        return buffer.getLong(offset + FROM_OFFSET, BYTE_ORDER);
    }

    /** Last sequence (inclusive) of the lost range. */
    public long toSequence() {
        return buffer.getLong(offset + TO_OFFSET, BYTE_ORDER);
    }

    /** Index of the first message that begins after the lost range. */
    public long firstMessageAfter() {
        return buffer.getLong(offset + FIRST_MESSAGE_AFTER_OFFSET, BYTE_ORDER);
    }

    /**
     * Writes the lost range and the index of the first message after it.
     *
     * @return this
     */
    public UnrecoverableFlyweight lostRange(long from, long to, long firstMessageAfter) {
        buffer.putLong(offset + FROM_OFFSET, from, BYTE_ORDER);
        buffer.putLong(offset + TO_OFFSET, to, BYTE_ORDER);
        buffer.putLong(offset + FIRST_MESSAGE_AFTER_OFFSET, firstMessageAfter, BYTE_ORDER);
        return this;
    }
}
