package org.nakcast.transport.protocol;

/**
 * A STATUS: a receiver tells a publisher how far it has consumed one stream, so a topic with flow
 * control {@code min} can hold the publisher to its slowest live receiver.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  common header, 24 bytes (sequence = next sequence needed)    |
 *  +---------------------------------------------------------------+
 *  |                          receiver id                          |
 *  +---------------------------------------------------------------+
 *  |                        reserved (0)                           |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The header's session and topic name the stream; its sequence is the next datagram the
 * receiver needs (everything below it is delivered). Receivers send it to the control port, with
 * the NAKs; other receivers ignore it.
 */
public final class StatusFlyweight extends HeaderFlyweight {
    static final int RECEIVER_ID_OFFSET = HEADER_LENGTH;
    static final int RESERVED_OFFSET = RECEIVER_ID_OFFSET + Integer.BYTES;
    /** Length of a STATUS datagram. */
    public static final int STATUS_LENGTH = RESERVED_OFFSET + Integer.BYTES;

    /** The receiver that reports. */
    public int receiverId() {
        return buffer.getInt(offset + RECEIVER_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the reporting receiver and clears the reserved field.
     *
     * @return this
     */
    public StatusFlyweight receiverId(int id) {
        buffer.putInt(offset + RECEIVER_ID_OFFSET, id, BYTE_ORDER);
        buffer.putInt(offset + RESERVED_OFFSET, 0, BYTE_ORDER);
        return this;
    }
}
