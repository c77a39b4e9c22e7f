package org.nakcast.transport.protocol;

/**
 * A HEARTBEAT: an idle publisher's beacon.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  common header, 24 bytes (sequence = highest datagram sent)   |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +            oldest datagram sequence still in history          +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The header's sequence is the highest datagram sequence sent so far, or -1 before the first:
 * a receiver behind it has lost the tail of the stream and NAKs it without waiting for new data.
 * The oldest sequence tells a receiver how far back a repair can still reach.
 */
public final class HeartbeatFlyweight extends HeaderFlyweight {
    static final int OLDEST_SEQUENCE_OFFSET = HEADER_LENGTH;
    /** Length of a HEARTBEAT datagram. */
    public static final int HEARTBEAT_LENGTH = HEADER_LENGTH + Long.BYTES;

    /** The oldest datagram sequence still held in the publisher's history. */
    public long oldestSequence() {
        return buffer.getLong(offset + OLDEST_SEQUENCE_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the oldest datagram sequence still in history.
     *
     * @return this
     */
    public HeartbeatFlyweight oldestSequence(long sequence) {
        buffer.putLong(offset + OLDEST_SEQUENCE_OFFSET, sequence, BYTE_ORDER);
        return this;
    }
}
