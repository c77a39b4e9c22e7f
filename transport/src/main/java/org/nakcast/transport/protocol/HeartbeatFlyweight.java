package org.nakcast.transport.protocol;

/**
 * A HEARTBEAT: a publisher's beacon, sent every heartbeat interval whether it is busy or idle.
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
 *  |                                                               |
 *  +                      publisher id (64 bits)                   +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                  session age, nanoseconds (64 bits)           +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The header's sequence is the highest datagram sequence sent so far, or -1 before the first:
 * a receiver behind it has lost the tail of the stream and NAKs it without waiting for new data.
 * The oldest sequence tells a receiver how far back a repair can still reach. The publisher id is
 * the same across restarts of one publisher (it derives from the node's name, the topic and the
 * publication's place in the node), while the session id is new: a receiver that sees a known
 * publisher id under a new session knows the publisher restarted. The session age, how long ago the
 * session began by the publisher's clock, tells a receiver when the session began by its own, with
 * no clocks compared: whether it was there before the session (and is owed all of it), and whether
 * another session of the same publisher fell silent before this one began (a restart).
 *
 * <p>The flag {@link #END_OF_STREAM_FLAG} marks the heartbeats of a publication that was closed:
 * it has sent everything its application offered, and the header's sequence is the stream's last
 * datagram. It keeps answering NAKs for a while (the topic's {@code close-linger}), sending these
 * heartbeats at short, doubling intervals; a receiver that has delivered everything up to that
 * datagram ends the stream at once ({@code PublisherGone}, cause {@code ENDED}) instead of waiting
 * for the publisher timeout.
 */
public final class HeartbeatFlyweight extends HeaderFlyweight {
    static final int OLDEST_SEQUENCE_OFFSET = HEADER_LENGTH;
    static final int PUBLISHER_ID_OFFSET = OLDEST_SEQUENCE_OFFSET + Long.BYTES;
    static final int SESSION_AGE_OFFSET = PUBLISHER_ID_OFFSET + Long.BYTES;
    /** Length of a HEARTBEAT datagram. */
    public static final int HEARTBEAT_LENGTH = SESSION_AGE_OFFSET + Long.BYTES;

    /** Whether the stream has ended: the header's sequence is its last datagram. */
    public boolean isEndOfStream() {
        return (flags() & END_OF_STREAM_FLAG) != 0;
    }

    /**
     * Marks the stream ended (or not), after {@link #writeHeader}.
     *
     * @return this
     */
    public HeartbeatFlyweight endOfStream(boolean ended) {
        buffer.putShort(offset + FLAGS_OFFSET, (short) (ended ? END_OF_STREAM_FLAG : 0), BYTE_ORDER);
        return this;
    }

    /** The oldest datagram sequence still held in the publisher's history. */
    public long oldestSequence() {
        return buffer.getLong(offset + OLDEST_SEQUENCE_OFFSET, BYTE_ORDER);
    }

    /** How long the session had existed when this heartbeat was sent, in nanoseconds. */
    public long sessionAgeNs() {
        return buffer.getLong(offset + SESSION_AGE_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the session's age.
     *
     * @return this
     */
    public HeartbeatFlyweight sessionAgeNs(long ageNs) {
        buffer.putLong(offset + SESSION_AGE_OFFSET, ageNs, BYTE_ORDER);
        return this;
    }

    /** The publisher's id: stable across its restarts, unlike the session id. */
    public long publisherId() {
        return buffer.getLong(offset + PUBLISHER_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the publisher's id.
     *
     * @return this
     */
    public HeartbeatFlyweight publisherId(long id) {
        buffer.putLong(offset + PUBLISHER_ID_OFFSET, id, BYTE_ORDER);
        return this;
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
