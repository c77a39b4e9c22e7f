package org.nakcast.transport.protocol;

/**
 * A DATA or RETRANSMIT datagram: the common header, a message count, then message frames.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |       common header, 24 bytes (sequence = datagram seq)       |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +             messages completed before this datagram           +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 message frame (see MessageFrame)              |
 *  +---------------------------------------------------------------+
 *  |                 message frame ...                             |
 * </pre>
 *
 * <p>The datagram sequence counts datagrams of one (session, topic) stream from 0, with no gaps:
 * a receiver that sees a jump knows exactly which datagrams it missed. The message count is how
 * many whole messages the publisher finished before this datagram, so a receiver that must give up
 * on a range can say exactly how many messages it lost.
 */
public final class DataFlyweight extends HeaderFlyweight {
    static final int COMPLETED_MESSAGES_OFFSET = HEADER_LENGTH;
    /** Length of the DATA header: where the first message frame starts. */
    public static final int DATA_HEADER_LENGTH = HEADER_LENGTH + Long.BYTES;

    /** Messages completed before this datagram. */
    public long completedMessages() {
        return buffer.getLong(offset + COMPLETED_MESSAGES_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the count of messages completed before this datagram.
     *
     * @return this
     */
    public DataFlyweight completedMessages(long count) {
        buffer.putLong(offset + COMPLETED_MESSAGES_OFFSET, count, BYTE_ORDER);
        return this;
    }
}
