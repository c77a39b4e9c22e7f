package org.nakcast.simulator;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What message {@code index} of publisher session {@code sessionId} holds: its length and every
 * byte follow from the two numbers, so the checker recomputes what was published instead of
 * storing it. A message starts with the session id and the index (little-endian), so that a
 * decoder can tell which message it holds; the bytes after them follow from both.
 *
 * <pre>
 *   0                   1
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 ...
 *  +-------+---------------+------------------------+
 *  |session|     index     | bytes keyed by both    |
 *  +-------+---------------+------------------------+
 * </pre>
 */
final class MessageContent {
    /** The session id and the index at the front. */
    static final int HEADER_LENGTH = Integer.BYTES + Long.BYTES;

    private MessageContent() {
    }

    /**
     * The length of the message: mostly small, some around a datagram, a few of several fragments;
     * never shorter than its header.
     *
     * @param maxLength the longest allowed
     * @param fragmentLength what one datagram carries of a message
     */
    static int length(int sessionId, long index, int maxLength, int fragmentLength) {
        final long draw = mix(sessionId, index, -1);
        final int kind = (int) Long.remainderUnsigned(draw, 100);
        final int spread = (int) Long.remainderUnsigned(draw >>> 8, 1 << 20);
        final int length;
        if (kind < 70) {
            length = 1 + spread % 64;
        } else if (kind < 92) {
            length = 1 + spread % Math.max(1, fragmentLength);
        } else {
            length = fragmentLength + 1 + spread % (3 * Math.max(1, fragmentLength));
        }
        return Math.max(HEADER_LENGTH, Math.min(length, maxLength));
    }

    /** Writes the message's bytes: {@code length} is at least {@link #HEADER_LENGTH}. */
    static void write(MutableDirectBuffer buffer, int offset, int sessionId, long index, int length) {
        buffer.putInt(offset, sessionId, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(offset + Integer.BYTES, index, ByteOrder.LITTLE_ENDIAN);
        final long key = mix(sessionId, index, 0);
        int position = HEADER_LENGTH;
        for (; position + Long.BYTES <= length; position += Long.BYTES) {
            buffer.putLong(offset + position, eightBytesAt(key, position), ByteOrder.LITTLE_ENDIAN);
        }
        for (; position < length; position++) {
            buffer.putByte(offset + position, byteAt(key, position));
        }
    }

    /** The session id a message names, from its header; the message is at least {@link #HEADER_LENGTH} long. */
    static int sessionIdOf(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** The index a message names, from its header. */
    static long indexOf(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
    }

    /** Whether the {@code length} bytes at {@code offset} are all what their header says they are. */
    static boolean intact(DirectBuffer buffer, int offset, int length) {
        if (length < HEADER_LENGTH) {
            return false;
        }
        final long key = mix(sessionIdOf(buffer, offset), indexOf(buffer, offset), 0);
        int position = HEADER_LENGTH;
        for (; position + Long.BYTES <= length; position += Long.BYTES) {
            if (buffer.getLong(offset + position, ByteOrder.LITTLE_ENDIAN) != eightBytesAt(key, position)) {
                return false;
            }
        }
        for (; position < length; position++) {
            if (buffer.getByte(offset + position) != byteAt(key, position)) {
                return false;
            }
        }
        return true;
    }

    /** Byte {@code position} of the message keyed {@code key}: the key's bytes in turn, moved on each round. */
    private static byte byteAt(long key, int position) {
        return (byte) ((key >>> ((position & 7) << 3)) + (position >>> 3));
    }

    /**
     * Bytes {@code position} to {@code position + 7} ({@code position} a multiple of 8), little-endian:
     * each byte of the key plus the round, byte by byte without carry, as {@link #byteAt} has them.
     */
    private static long eightBytesAt(long key, int position) {
        final long round = ((position >>> 3) & 0xFF) * 0x0101_0101_0101_0101L;
        final long low = 0x7F7F_7F7F_7F7F_7F7FL;
        return ((key & low) + (round & low)) ^ ((key ^ round) & ~low);
    }

    /** A stateless 64-bit mix (SplitMix64's finalizer) of the three numbers. */
    static long mix(long a, long b, long c) {
        long z = a * 0x9E37_79B9_7F4A_7C15L + b * 0xC2B2_AE3D_27D4_EB4FL + c * 0x1656_67B1_9E37_79F9L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
