package org.nakcast.transport.replay;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One frame of the replay protocol, read and written in place: a client's REQUEST, and a
 * recorder's ACCEPTED, MESSAGE, HOLE, DONE and REFUSED. Frames follow each other on a TCP
 * connection, each led by its length; every field is little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |               frame length, this header included              |
 *  +---------------+---------------+-------------------------------+
 *  |     type      |    version    |          reserved (0)         |
 *  +---------------+---------------+-------------------------------+
 *  |                   request id (64 bits)                        |
 *  +---------------------------------------------------------------+
 *  |  body, by type:                                               |
 *  |   REQUEST   topic id (32), session id (32), from (64),        |
 *  |             to (64, inclusive; -1: what the recording holds)  |
 *  |   ACCEPTED  first (64), last (64): what will come             |
 *  |   MESSAGE   message index (64), recorded at (64, epoch ns),   |
 *  |             the message's bytes                               |
 *  |   HOLE      first (64), count (64), HoleCause code (32), 0    |
 *  |   DONE      next message index (64)                           |
 *  |   REFUSED   ReplayRefusal code (32), 0 (32), UTF-8 sentence   |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A client sends one REQUEST at a time and gets ACCEPTED, then the messages and holes from
 * {@code first} to {@code last} in order, then DONE; or one REFUSED. A recorder that cannot take
 * the connection at all sends a REFUSED with request id 0 and closes it.
 */
public final class ReplayFrame {
    /** Every field's byte order. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** The protocol version this build writes and reads. */
    public static final int VERSION = 1;
    /** Bytes of the header every frame starts with. */
    public static final int HEADER_LENGTH = 16;
    /** The longest frame a reader takes: a message of up to 1 GiB and its header. */
    public static final int MAX_FRAME_LENGTH = (1 << 30) + 64;

    /** A client asks for a range of one session's messages. */
    public static final int REQUEST = 1;
    /** The recorder will send the range it names. */
    public static final int ACCEPTED = 2;
    /** One message of the range. */
    public static final int MESSAGE = 3;
    /** Messages of the range the recording does not hold. */
    public static final int HOLE = 4;
    /** The range is complete. */
    public static final int DONE = 5;
    /** The recorder will not answer the request (or the connection). */
    public static final int REFUSED = 6;

    /** A request's {@code to} that asks for everything the recording holds from {@code from}. */
    public static final long TO_WHAT_IS_HELD = -1;

    private static final int LENGTH_OFFSET = 0;
    private static final int TYPE_OFFSET = 4;
    private static final int VERSION_OFFSET = 5;
    private static final int REQUEST_ID_OFFSET = 8;
    private static final int BODY = HEADER_LENGTH;

    /** Length of a REQUEST frame. */
    public static final int REQUEST_LENGTH = BODY + 24;
    /** Length of an ACCEPTED frame. */
    public static final int ACCEPTED_LENGTH = BODY + 16;
    /** Length of a MESSAGE frame without its message. */
    public static final int MESSAGE_HEADER_LENGTH = BODY + 16;
    /** Length of a HOLE frame. */
    public static final int HOLE_LENGTH = BODY + 24;
    /** Length of a DONE frame. */
    public static final int DONE_LENGTH = BODY + 8;
    /** Length of a REFUSED frame without its sentence. */
    public static final int REFUSED_HEADER_LENGTH = BODY + 8;

    private DirectBuffer buffer;
    private int offset;

    /** Points this flyweight at the frame that starts at {@code frameOffset}. */
    public ReplayFrame wrap(DirectBuffer frameBuffer, int frameOffset) {
        this.buffer = frameBuffer;
        this.offset = frameOffset;
        return this;
    }

    /** The buffer the frame is in. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** The frame's length, header included. */
    public int frameLength() {
        return buffer.getInt(offset + LENGTH_OFFSET, BYTE_ORDER);
    }

    /** The frame's type: {@link #REQUEST} .. {@link #REFUSED}. */
    public int type() {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    /** The protocol version it was written in. */
    public int version() {
        return buffer.getByte(offset + VERSION_OFFSET);
    }

    /** The request it belongs to; 0 for a refused connection. */
    public long requestId() {
        return buffer.getLong(offset + REQUEST_ID_OFFSET, BYTE_ORDER);
    }

    /** REQUEST: the topic. */
    public int topicId() {
        return buffer.getInt(offset + BODY, BYTE_ORDER);
    }

    /** REQUEST: the publisher session. */
    public int sessionId() {
        return buffer.getInt(offset + BODY + 4, BYTE_ORDER);
    }

    /** REQUEST: the first message asked for. ACCEPTED, HOLE: the first message of the range. */
    public long from() {
        return buffer.getLong(offset + (type() == REQUEST ? BODY + 8 : BODY), BYTE_ORDER);
    }

    /** REQUEST: the last message asked for, or {@link #TO_WHAT_IS_HELD}. ACCEPTED: the last that will come. */
    public long to() {
        return buffer.getLong(offset + (type() == REQUEST ? BODY + 16 : BODY + 8), BYTE_ORDER);
    }

    /** MESSAGE: its index. DONE: the index after the range. */
    public long messageIndex() {
        return buffer.getLong(offset + BODY, BYTE_ORDER);
    }

    /** MESSAGE: when the recorder stored it, epoch nanoseconds. */
    public long recordedAtNs() {
        return buffer.getLong(offset + BODY + 8, BYTE_ORDER);
    }

    /** MESSAGE: where its bytes start in the buffer. */
    public int messageOffset() {
        return offset + MESSAGE_HEADER_LENGTH;
    }

    /** MESSAGE: how many bytes it has. */
    public int messageLength() {
        return frameLength() - MESSAGE_HEADER_LENGTH;
    }

    /** HOLE: how many messages. */
    public long count() {
        return buffer.getLong(offset + BODY + 8, BYTE_ORDER);
    }

    /** HOLE: why the recording does not hold them. */
    public HoleCause holeCause() {
        return HoleCause.of(buffer.getInt(offset + BODY + 16, BYTE_ORDER));
    }

    /** REFUSED: why. */
    public ReplayRefusal refusal() {
        return ReplayRefusal.of(buffer.getInt(offset + BODY, BYTE_ORDER));
    }

    /** REFUSED: the recorder's sentence. Allocates: refusals are rare. */
    public String sentence() {
        final byte[] bytes = new byte[frameLength() - REFUSED_HEADER_LENGTH];
        buffer.getBytes(offset + REFUSED_HEADER_LENGTH, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Writes a REQUEST at {@code at}; returns its length. */
    public static int writeRequest(MutableDirectBuffer out, int at, long requestId, int topicId, int sessionId,
        long from, long to) {
        header(out, at, REQUEST_LENGTH, REQUEST, requestId);
        out.putInt(at + BODY, topicId, BYTE_ORDER);
        out.putInt(at + BODY + 4, sessionId, BYTE_ORDER);
        out.putLong(at + BODY + 8, from, BYTE_ORDER);
        out.putLong(at + BODY + 16, to, BYTE_ORDER);
        return REQUEST_LENGTH;
    }

    /** Writes an ACCEPTED at {@code at}; returns its length. */
    public static int writeAccepted(MutableDirectBuffer out, int at, long requestId, long first, long last) {
        header(out, at, ACCEPTED_LENGTH, ACCEPTED, requestId);
        out.putLong(at + BODY, first, BYTE_ORDER);
        out.putLong(at + BODY + 8, last, BYTE_ORDER);
        return ACCEPTED_LENGTH;
    }

    /** Writes a MESSAGE at {@code at}, its bytes copied from {@code message}; returns its length. */
    public static int writeMessage(MutableDirectBuffer out, int at, long requestId, long messageIndex,
        long recordedAtNs, DirectBuffer message, int messageOffset, int messageLength) {
        final int length = MESSAGE_HEADER_LENGTH + messageLength;
        header(out, at, length, MESSAGE, requestId);
        out.putLong(at + BODY, messageIndex, BYTE_ORDER);
        out.putLong(at + BODY + 8, recordedAtNs, BYTE_ORDER);
        out.putBytes(at + MESSAGE_HEADER_LENGTH, message, messageOffset, messageLength);
        return length;
    }

    /** Writes a HOLE at {@code at}; returns its length. */
    public static int writeHole(MutableDirectBuffer out, int at, long requestId, long first, long count,
        HoleCause cause) {
        header(out, at, HOLE_LENGTH, HOLE, requestId);
        out.putLong(at + BODY, first, BYTE_ORDER);
        out.putLong(at + BODY + 8, count, BYTE_ORDER);
        out.putInt(at + BODY + 16, cause.code(), BYTE_ORDER);
        out.putInt(at + BODY + 20, 0, BYTE_ORDER);
        return HOLE_LENGTH;
    }

    /** Writes a DONE at {@code at}; returns its length. */
    public static int writeDone(MutableDirectBuffer out, int at, long requestId, long nextMessageIndex) {
        header(out, at, DONE_LENGTH, DONE, requestId);
        out.putLong(at + BODY, nextMessageIndex, BYTE_ORDER);
        return DONE_LENGTH;
    }

    /** Writes a REFUSED at {@code at}; returns its length. */
    public static int writeRefused(MutableDirectBuffer out, int at, long requestId, ReplayRefusal refusal,
        String sentence) {
        final byte[] text = sentence.getBytes(StandardCharsets.UTF_8);
        final int length = REFUSED_HEADER_LENGTH + text.length;
        header(out, at, length, REFUSED, requestId);
        out.putInt(at + BODY, refusal.code(), BYTE_ORDER);
        out.putInt(at + BODY + 4, 0, BYTE_ORDER);
        out.putBytes(at + REFUSED_HEADER_LENGTH, text);
        return length;
    }

    /** The length of a REFUSED frame with {@code sentence}. */
    public static int refusedLength(String sentence) {
        return REFUSED_HEADER_LENGTH + sentence.getBytes(StandardCharsets.UTF_8).length;
    }

    private static void header(MutableDirectBuffer out, int at, int length, int type, long requestId) {
        out.putInt(at + LENGTH_OFFSET, length, BYTE_ORDER);
        out.putByte(at + TYPE_OFFSET, (byte) type);
        out.putByte(at + VERSION_OFFSET, (byte) VERSION);
        out.putShort(at + VERSION_OFFSET + 1, (short) 0, BYTE_ORDER);
        out.putLong(at + REQUEST_ID_OFFSET, requestId, BYTE_ORDER);
    }

    /**
     * What is wrong with the header of the frame this flyweight points at: a length outside
     * {@link #HEADER_LENGTH}..{@link #MAX_FRAME_LENGTH} or short of what its type needs, another
     * version, an unknown type.
     *
     * @return null if this version reads it, else the problem in words
     */
    public String problem() {
        final int length = frameLength();
        if (length < HEADER_LENGTH || length > MAX_FRAME_LENGTH) {
            return "a frame of " + length + " bytes";
        }
        if (version() != VERSION) {
            return "a frame of protocol version " + version() + " (this one reads " + VERSION + ")";
        }
        final int least = switch (type()) {
            case REQUEST -> REQUEST_LENGTH;
            case ACCEPTED -> ACCEPTED_LENGTH;
            case MESSAGE -> MESSAGE_HEADER_LENGTH;
            case HOLE -> HOLE_LENGTH;
            case DONE -> DONE_LENGTH;
            case REFUSED -> REFUSED_HEADER_LENGTH;
            default -> -1;
        };
        if (least < 0) {
            return "a frame of unknown type " + type();
        }
        return length < least ? "a frame of type " + type() + " of " + length + " bytes, under its " + least : null;
    }
}
