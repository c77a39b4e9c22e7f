package org.nakcast.transport.protocol;

import static org.nakcast.transport.protocol.HeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The frame that carries one message, or one fragment of a message, inside a DATA datagram.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-+-+-----------+---------------+
 *  |        fragment length        |B|E|  0 ...    |   reserved    |
 *  +-------------------------------+-+-+-----------+---------------+
 *  |                    fragment bytes ...                         |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>B (0x80) marks a message's first fragment, E (0x40) its last; a message that fits one
 * datagram has both. A larger message is split over consecutive datagrams, each holding exactly
 * one fragment, and is reassembled in order by the receiver. Frames follow each other with no
 * padding; a fragment length of zero is legal (an empty message).
 */
public final class MessageFrame {
    /** Bytes before a fragment's payload. */
    public static final int FRAME_HEADER_LENGTH = 4;
    /** Flag: the message's first fragment. */
    public static final int BEGIN = 0x80;
    /** Flag: the message's last fragment. */
    public static final int END = 0x40;
    /** Both flags: a whole message in one frame. */
    public static final int UNFRAGMENTED = BEGIN | END;

    static final int LENGTH_OFFSET = 0;
    static final int FLAGS_OFFSET = 2;

    private MessageFrame() {
    }

    /** Writes a frame header at {@code frameOffset}. */
    public static void write(MutableDirectBuffer buffer, int frameOffset, int fragmentLength, int flags) {
        buffer.putShort(frameOffset + LENGTH_OFFSET, (short) fragmentLength, BYTE_ORDER);
        buffer.putByte(frameOffset + FLAGS_OFFSET, (byte) flags);
        buffer.putByte(frameOffset + FLAGS_OFFSET + 1, (byte) 0);
    }

    /** The fragment length of the frame at {@code frameOffset}. */
    public static int fragmentLength(DirectBuffer buffer, int frameOffset) {
        return buffer.getShort(frameOffset + LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /** The flags of the frame at {@code frameOffset}. */
    public static int flags(DirectBuffer buffer, int frameOffset) {
        return buffer.getByte(frameOffset + FLAGS_OFFSET) & 0xFF;
    }

    /** Whether these flags begin a message. */
    public static boolean isBegin(int flags) {
        return (flags & BEGIN) != 0;
    }

    /** Whether these flags end a message. */
    public static boolean isEnd(int flags) {
        return (flags & END) != 0;
    }
}
