package org.nakcast.transport.protocol;

import org.agrona.DirectBuffer;

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
 *
 * <p>The header's flags carry the session's age class when the datagram was first sent: class
 * {@code c} means the session was at least 2<sup>c-1</sup> and less than 2<sup>c</sup> units of
 * {@link #AGE_UNIT_NS} old (class 0: younger than one unit). A receiver that first hears a session
 * through its data learns from it, within a factor of two and with no clocks compared, whether the
 * session began before or after it subscribed: a subscriber that was there first is owed the
 * session from its first message.
 *
 * <p>The flag {@link #STATUS_WANTED_FLAG}, set by a publisher under flow control {@code min} on
 * every datagram whose sequence is a multiple of a quarter of its window, asks each receiver that
 * reports STATUS for one as soon as its position has passed the datagram, without waiting for the
 * report's interval: a fast stream learns its receivers' progress well before its window is used
 * up, however short the window is in time. A receiver that reports no STATUS ignores it.
 *
 * <pre>
 *   flags (16 bits)   15            7 6 5         0
 *                    +---------------+-+-----------+
 *                    |   zero        |W| age class |   W: STATUS wanted
 *                    +---------------+-+-----------+
 * </pre>
 */
public final class DataFlyweight extends HeaderFlyweight {
    static final int COMPLETED_MESSAGES_OFFSET = HEADER_LENGTH;
    /** Length of the DATA header: where the first message frame starts. */
    public static final int DATA_HEADER_LENGTH = HEADER_LENGTH + Long.BYTES;

    /** The unit of the age class: 1,024 ns. */
    public static final long AGE_UNIT_NS = 1024;

    /** The age class of a session {@code ageNs} old. */
    public static int ageClassOf(long ageNs) {
        return 64 - Long.numberOfLeadingZeros(Math.max(0, ageNs) / AGE_UNIT_NS);
    }

    /** The least age, in nanoseconds, a session of {@code ageClass} has (saturating: classes past 53 cannot occur). */
    public static long minAgeNs(int ageClass) {
        return ageClass == 0 ? 0 : ageClass >= 54 ? Long.MAX_VALUE : (1L << (ageClass - 1)) * AGE_UNIT_NS;
    }

    /** The age, in nanoseconds, a session of {@code ageClass} has not reached (saturating). */
    public static long maxAgeNs(int ageClass) {
        return ageClass >= 53 ? Long.MAX_VALUE : (1L << ageClass) * AGE_UNIT_NS;
    }

    /** The session's age class when this datagram was first sent. */
    public int ageClass() {
        return flags() & AGE_CLASS_MASK;
    }

    /** Whether the DATA or RETRANSMIT at {@code offset} of {@code buffer} asks for a STATUS once passed. */
    public static boolean statusWantedAt(DirectBuffer buffer, int offset) {
        return (buffer.getShort(offset + FLAGS_OFFSET, BYTE_ORDER) & STATUS_WANTED_FLAG) != 0;
    }

    /**
     * Sets the flags as the datagram is first sent: the session's age class, and whether a STATUS
     * is wanted once it is passed.
     *
     * @return this
     */
    public DataFlyweight flags(int ageClass, boolean statusWanted) {
        buffer.putShort(offset + FLAGS_OFFSET, (short) (ageClass | (statusWanted ? STATUS_WANTED_FLAG : 0)),
            BYTE_ORDER);
        return this;
    }

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
