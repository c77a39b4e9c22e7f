package org.nakcast.transport.protocol;

/**
 * A NAK: a receiver asks the publisher of one stream to send ranges of datagrams again.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        common header, 24 bytes (sequence unused, 0)           |
 *  +---------------------------------------------------------------+
 *  |                          receiver id                          |
 *  +---------------------------------------------------------------+
 *  |                          range count                          |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                   first missing sequence, range 0             +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                   last missing sequence, range 0              +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   ... range 1 .. range count - 1              |
 * </pre>
 *
 * <p>The header's session and topic name the stream whose datagrams are missing. Ranges are
 * inclusive, ascending and disjoint. NAKs are multicast to the control port, so a receiver that
 * hears another's NAK for a range it misses too stays quiet; the receiver id (random per
 * receiver) lets a node tell its own NAKs from others'.
 *
 * <p>One NAK asks for at most {@link #MAX_DATAGRAMS_ASKED} datagrams in all its ranges, the lowest
 * missing first; a receiver missing more asks for the rest once those are repaired. A wider NAK is
 * malformed ({@link org.nakcast.transport.status.DatagramCheck#NAK_TOO_WIDE}): no receiver sends
 * one, so the publisher ignores it and no receiver holds back its own NAK for it. A stranger asking
 * for the whole history in one NAK costs nothing; one that asks in many narrow NAKs costs the
 * stream its repair budget.
 */
public final class NakFlyweight extends HeaderFlyweight {
    static final int RECEIVER_ID_OFFSET = HEADER_LENGTH;
    static final int RANGE_COUNT_OFFSET = RECEIVER_ID_OFFSET + Integer.BYTES;
    static final int RANGES_OFFSET = RANGE_COUNT_OFFSET + Integer.BYTES;
    /** Bytes per range. */
    public static final int RANGE_LENGTH = 2 * Long.BYTES;
    /** Length of a NAK with no ranges. */
    public static final int NAK_HEADER_LENGTH = RANGES_OFFSET;

    /** The most datagrams one NAK may ask for, in all its ranges. */
    public static final int MAX_DATAGRAMS_ASKED = 256;

    /** The length of a NAK carrying {@code rangeCount} ranges. */
    public static int lengthFor(int rangeCount) {
        return NAK_HEADER_LENGTH + rangeCount * RANGE_LENGTH;
    }

    /** The most ranges one NAK of at most {@code datagramSize} bytes can carry. */
    public static int maxRanges(int datagramSize) {
        return (datagramSize - NAK_HEADER_LENGTH) / RANGE_LENGTH;
    }

    /** The id of the receiver that sent this NAK. */
    public int receiverId() {
        return buffer.getInt(offset + RECEIVER_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the receiver id.
     *
     * @return this
     */
    public NakFlyweight receiverId(int receiverId) {
        buffer.putInt(offset + RECEIVER_ID_OFFSET, receiverId, BYTE_ORDER);
        return this;
    }

    /** How many ranges follow. */
    public int rangeCount() {
        return buffer.getInt(offset + RANGE_COUNT_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the range count.
     *
     * @return this
     */
    public NakFlyweight rangeCount(int count) {
        buffer.putInt(offset + RANGE_COUNT_OFFSET, count, BYTE_ORDER);
        return this;
    }

    /** First missing sequence of range {@code index}. */
    public long rangeFrom(int index) {
        return buffer.getLong(offset + RANGES_OFFSET + index * RANGE_LENGTH, BYTE_ORDER);
    }

    /** Last missing sequence (inclusive) of range {@code index}. */
    public long rangeTo(int index) {
        return buffer.getLong(offset + RANGES_OFFSET + index * RANGE_LENGTH + Long.BYTES, BYTE_ORDER);
    }

    /**
     * Writes range {@code index}.
     *
     * @return this
     */
    public NakFlyweight range(int index, long from, long to) {
        final int rangeOffset = offset + RANGES_OFFSET + index * RANGE_LENGTH;
        buffer.putLong(rangeOffset, from, BYTE_ORDER);
        buffer.putLong(rangeOffset + Long.BYTES, to, BYTE_ORDER);
        return this;
    }
}
