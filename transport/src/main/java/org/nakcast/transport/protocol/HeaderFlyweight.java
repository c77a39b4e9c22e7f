package org.nakcast.transport.protocol;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The header every nakcast datagram starts with. Little-endian, 24 bytes.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+---------------+---------------+
 *  |        magic (0x4B4E)         |    version    |     type      |
 *  +-------------------------------+---------------+---------------+
 *  |            flags              |        datagram length        |
 *  +-------------------------------+-------------------------------+
 *  |                      publisher session id                     |
 *  +---------------------------------------------------------------+
 *  |                           topic id                            |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                        sequence (64 bits)                     +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>magic: the bytes {@code 'N' 'K'}; anything else is not ours.</li>
 *   <li>version: {@link #CURRENT_VERSION}; a datagram of another version is rejected, not guessed at.</li>
 *   <li>type: a {@link FrameType} code.</li>
 *   <li>flags: DATA and RETRANSMIT carry their session's age class in the low six bits and may
 *       carry {@link #STATUS_WANTED_FLAG} (see {@link DataFlyweight}); a HEARTBEAT may carry
 *       {@link #END_OF_STREAM_FLAG} (see
 *       {@link HeartbeatFlyweight}); every other bit, and every flag of the other types, must be zero.</li>
 *   <li>datagram length: the whole datagram, header included; must equal what was received.</li>
 *   <li>session id: random per publisher start, so a restart is a new session.</li>
 *   <li>topic id: the topic's numeric id from configuration.</li>
 *   <li>sequence: its meaning depends on the type (see each type's flyweight).</li>
 * </ul>
 *
 * <p>A flyweight: {@link #wrap} it over a buffer, then read or write fields in place.
 */
public class HeaderFlyweight {
    /** Byte order of every multi-byte field on the wire. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** The magic value, the ASCII bytes 'N' 'K' read as a little-endian short. */
    public static final short MAGIC = 0x4B4E;
    /** The protocol version this code speaks. */
    public static final int CURRENT_VERSION = 3;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 2;
    static final int TYPE_OFFSET = 3;
    static final int FLAGS_OFFSET = 4;
    static final int LENGTH_OFFSET = 6;
    static final int SESSION_ID_OFFSET = 8;
    static final int TOPIC_ID_OFFSET = 12;
    static final int SEQUENCE_OFFSET = 16;
    /** The flag bits DATA and RETRANSMIT use: the session's age class. */
    public static final int AGE_CLASS_MASK = 0x3F;
    /**
     * The flag bit a DATA or RETRANSMIT may carry besides its age class: its publisher asks every
     * receiver that reports STATUS for a report once its position has passed this datagram (see
     * {@link DataFlyweight}).
     */
    public static final int STATUS_WANTED_FLAG = 0x40;
    /** The flag bit a HEARTBEAT uses: the stream has ended (see {@link HeartbeatFlyweight}). */
    public static final int END_OF_STREAM_FLAG = 0x01;
    /** Length of the common header. */
    public static final int HEADER_LENGTH = 24;
    /** The largest datagram the length field can describe (and the largest UDP payload over IPv4). */
    public static final int MAX_DATAGRAM_LENGTH = 65_507;

    /** The buffer this flyweight is wrapped over. */
    protected MutableDirectBuffer buffer;
    /** The offset of the datagram's first byte in {@link #buffer}. */
    protected int offset;

    /**
     * Points this flyweight at a datagram.
     *
     * @return this
     */
    public HeaderFlyweight wrap(MutableDirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** The buffer this flyweight reads and writes. */
    public MutableDirectBuffer buffer() {
        return buffer;
    }

    /** The offset of the datagram in {@link #buffer()}. */
    public int offset() {
        return offset;
    }

    /**
     * Writes magic, version, type and flags = 0, and the given identity fields.
     *
     * @return this
     */
    public HeaderFlyweight writeHeader(FrameType type, int datagramLength, int sessionId, int topicId, long sequence) {
        buffer.putShort(offset + MAGIC_OFFSET, MAGIC, BYTE_ORDER);
        buffer.putByte(offset + VERSION_OFFSET, (byte) CURRENT_VERSION);
        buffer.putByte(offset + TYPE_OFFSET, (byte) type.code());
        buffer.putShort(offset + FLAGS_OFFSET, (short) 0, BYTE_ORDER);
        datagramLength(datagramLength);
        buffer.putInt(offset + SESSION_ID_OFFSET, sessionId, BYTE_ORDER);
        buffer.putInt(offset + TOPIC_ID_OFFSET, topicId, BYTE_ORDER);
        sequence(sequence);
        return this;
    }

    /** The magic field as read. */
    public short magic() {
        return buffer.getShort(offset + MAGIC_OFFSET, BYTE_ORDER);
    }

    /** The version field as read (0..255). */
    public int version() {
        return buffer.getByte(offset + VERSION_OFFSET) & 0xFF;
    }

    /** The type code of the datagram at {@code offset} (0..255), without wrapping a flyweight. */
    public static int typeCodeAt(DirectBuffer buffer, int offset) {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    /** The session id of the datagram at {@code offset}, without wrapping a flyweight. */
    public static int sessionIdAt(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + SESSION_ID_OFFSET, BYTE_ORDER);
    }

    /** The datagram length field of the datagram at {@code offset} (0..65535), without wrapping a flyweight. */
    public static int datagramLengthAt(DirectBuffer buffer, int offset) {
        return buffer.getShort(offset + LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /** The sequence of the datagram at {@code offset}, without wrapping a flyweight. */
    public static long sequenceAt(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + SEQUENCE_OFFSET, BYTE_ORDER);
    }

    /** The type code as read (0..255); see {@link FrameType#fromCode}. */
    public int typeCode() {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    /** The flags field as read (0..65535). */
    public int flags() {
        return buffer.getShort(offset + FLAGS_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /** The datagram length field as read (0..65535). */
    public int datagramLength() {
        return buffer.getShort(offset + LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * Sets the datagram length field.
     *
     * @return this
     */
    public HeaderFlyweight datagramLength(int length) {
        buffer.putShort(offset + LENGTH_OFFSET, (short) length, BYTE_ORDER);
        return this;
    }

    /** The publisher session id. */
    public int sessionId() {
        return buffer.getInt(offset + SESSION_ID_OFFSET, BYTE_ORDER);
    }

    /** The topic id. */
    public int topicId() {
        return buffer.getInt(offset + TOPIC_ID_OFFSET, BYTE_ORDER);
    }

    /** The sequence field; its meaning depends on the type. */
    public long sequence() {
        return buffer.getLong(offset + SEQUENCE_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the sequence field.
     *
     * @return this
     */
    public HeaderFlyweight sequence(long sequence) {
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, BYTE_ORDER);
        return this;
    }

    /**
     * Changes the type of an already written header (a DATA datagram resent as RETRANSMIT).
     *
     * @return this
     */
    public HeaderFlyweight type(FrameType type) {
        buffer.putByte(offset + TYPE_OFFSET, (byte) type.code());
        return this;
    }
}
