package org.nakcast.rtt;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The ping message, which pong echoes byte for byte: a sequence number and the time the ping was
 * sent, little-endian, then zeros up to the message size.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      sequence (64 bits)                       |
 *  |        0, 1, 2 ... measured pings; PROBE; END                 |
 *  +---------------------------------------------------------------+
 *  |                   send time (64 bits, ns)                     |
 *  |        System.nanoTime() of the pinging process               |
 *  +---------------------------------------------------------------+
 *  |                 zeros, up to --size bytes                   ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Only the pinging process reads the send time, so the two sides' clocks need not agree.
 */
final class PingMessage {
    /** Sequence of the messages that find out whether the other side is there. */
    static final long PROBE = -2;
    /** Sequence of the message that ends a phase: pong echoes it and moves on. */
    static final long END = -1;
    /** The smallest message: sequence and send time. */
    static final int LENGTH = 16;

    private static final int SEQUENCE_OFFSET = 0;
    private static final int SEND_TIME_OFFSET = 8;

    private PingMessage() {
    }

    /** Writes the sequence and send time at {@code offset}. */
    static void write(MutableDirectBuffer buffer, int offset, long sequence, long sendTimeNs) {
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(offset + SEND_TIME_OFFSET, sendTimeNs, ByteOrder.LITTLE_ENDIAN);
    }

    /** The sequence of the message at {@code offset}. */
    static long sequence(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /** The send time of the message at {@code offset}. */
    static long sendTimeNs(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEND_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }
}
