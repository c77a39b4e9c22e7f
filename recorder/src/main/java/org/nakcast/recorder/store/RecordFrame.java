package org.nakcast.recorder.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.nakcast.transport.replay.HoleCause;

/**
 * One record in a segment file: a message as its publisher sent it, a hole, or the padding that
 * closes a full segment. Little-endian, 32 bytes of header, the payload, then zeros to the next
 * multiple of 8.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 frame length (header + payload)               |  0
 *  +---------------------------------------------------------------+
 *  |               CRC32C of bytes 8 to the frame's end            |  4
 *  +---------------------------------------------------------------+
 *  |                             type                              |  8
 *  +---------------------------------------------------------------+
 *  |                        payload length                         |  12
 *  +---------------------------------------------------------------+
 *  |                                                               |  16
 *  +                    message index (64 bits)                    +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               |  24
 *  +                 recorded at, epoch ns (64 bits)               +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     payload ...  (padded to 8)                |  32
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>frame length: 0 where nothing was written yet (segments are preallocated with zeros); it
 *       is written last, with release order, so a reader that sees it sees the whole frame.</li>
 *   <li>CRC32C: over one range, from the type to the payload's end, so a torn or overwritten frame
 *       is found; the payload length it covers must agree with the frame length, which it does
 *       not cover (that is written after it).</li>
 *   <li>type: {@link #MESSAGE}, {@link #HOLE}, {@link #PADDING} or {@link #END}.</li>
 *   <li>message index: a MESSAGE's index in its publisher's stream; a HOLE's first missing index;
 *       for PADDING and END the index the next message would have.</li>
 *   <li>payload: a MESSAGE's bytes; a HOLE's count of missing messages (64 bits) and its
 *       {@link HoleCause} code (32 bits); nothing for END; zeros for PADDING.</li>
 * </ul>
 */
public final class RecordFrame {
    /** Bytes of header before the payload. */
    public static final int HEADER_LENGTH = 32;
    /** Frames start at multiples of this. */
    public static final int ALIGNMENT = 8;
    /** A message, with its bytes. */
    public static final int MESSAGE = 1;
    /** Messages the recorder does not hold: a count and why. */
    public static final int HOLE = 2;
    /** The unused rest of a full segment: the recording goes on in the next segment. */
    public static final int PADDING = 3;
    /** The publisher ended its stream: nothing follows. */
    public static final int END = 4;
    /** Payload bytes of a HOLE: the count (64 bits), then the cause (32 bits). */
    public static final int HOLE_PAYLOAD_LENGTH = 12;

    static final int LENGTH_OFFSET = 0;
    static final int CHECKSUM_OFFSET = 4;
    static final int TYPE_OFFSET = 8;
    static final int PAYLOAD_LENGTH_OFFSET = 12;
    static final int MESSAGE_INDEX_OFFSET = 16;
    static final int RECORDED_AT_OFFSET = 24;
    private static final int HOLE_COUNT_OFFSET = HEADER_LENGTH;
    private static final int HOLE_CAUSE_OFFSET = HEADER_LENGTH + 8;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final CRC32C crc = new CRC32C();
    private AtomicBuffer buffer;
    private ByteBuffer view;
    private int offset;

    /**
     * Points this flyweight at a segment: its buffer and a {@link ByteBuffer} view over the same
     * memory, through which checksums are computed without copying.
     *
     * @param segment the segment's buffer
     * @param segmentView a view of the same memory, position and limit free to change
     * @return this
     */
    public RecordFrame segment(AtomicBuffer segment, ByteBuffer segmentView) {
        this.buffer = segment;
        this.view = segmentView;
        return this;
    }

    /** Moves to the frame at {@code frameOffset} of the segment; returns this. */
    public RecordFrame at(int frameOffset) {
        this.offset = frameOffset;
        return this;
    }

    /** The frame's length, read with acquire order: 0 if nothing was written here yet. */
    public int frameLength() {
        return buffer.getIntAcquire(offset + LENGTH_OFFSET);
    }

    /** The frame's type. */
    public int type() {
        return buffer.getInt(offset + TYPE_OFFSET, ORDER);
    }

    /** The message index (see the class description for each type). */
    public long messageIndex() {
        return buffer.getLong(offset + MESSAGE_INDEX_OFFSET, ORDER);
    }

    /** When the recorder stored the frame, epoch nanoseconds. */
    public long recordedAtNs() {
        return buffer.getLong(offset + RECORDED_AT_OFFSET, ORDER);
    }

    /** Where the payload starts in the segment. */
    public int payloadOffset() {
        return offset + HEADER_LENGTH;
    }

    /** The payload's length, given the frame's length. */
    public static int payloadLength(int frameLength) {
        return frameLength - HEADER_LENGTH;
    }

    /** A HOLE's count of missing messages. */
    public long holeCount() {
        return buffer.getLong(offset + HOLE_COUNT_OFFSET, ORDER);
    }

    /** A HOLE's cause. */
    public HoleCause holeCause() {
        return HoleCause.of(buffer.getInt(offset + HOLE_CAUSE_OFFSET, ORDER));
    }

    /** How many messages the frame accounts for: 1 for a MESSAGE, the count for a HOLE, else 0. */
    public long messagesCovered() {
        final int type = type();
        return type == MESSAGE ? 1 : type == HOLE ? holeCount() : 0;
    }

    /** The bytes a frame of {@code payloadLength} takes in a segment, alignment included. */
    public static int alignedLength(int payloadLength) {
        return BitUtil.align(HEADER_LENGTH + payloadLength, ALIGNMENT);
    }

    /**
     * Writes the header of a frame whose payload is already in place, then its checksum, then its
     * length (last, with release order).
     *
     * @param type the frame's type
     * @param messageIndex see the class description
     * @param recordedAtNs epoch nanoseconds
     * @param payloadLength bytes of payload already written at {@link #payloadOffset()}
     */
    public void commit(int type, long messageIndex, long recordedAtNs, int payloadLength) {
        buffer.putInt(offset + TYPE_OFFSET, type, ORDER);
        buffer.putInt(offset + PAYLOAD_LENGTH_OFFSET, payloadLength, ORDER);
        buffer.putLong(offset + MESSAGE_INDEX_OFFSET, messageIndex, ORDER);
        buffer.putLong(offset + RECORDED_AT_OFFSET, recordedAtNs, ORDER);
        buffer.putInt(offset + CHECKSUM_OFFSET, checksum(HEADER_LENGTH + payloadLength), ORDER);
        buffer.putIntRelease(offset + LENGTH_OFFSET, HEADER_LENGTH + payloadLength);
    }

    /** Writes a HOLE's payload at {@link #payloadOffset()}; {@link #commit} it next. */
    public void holePayload(long count, HoleCause cause) {
        buffer.putLong(offset + HOLE_COUNT_OFFSET, count, ORDER);
        buffer.putInt(offset + HOLE_CAUSE_OFFSET, cause.code(), ORDER);
    }

    /**
     * Whether the frame here is whole: a length that fits {@code limit}, a known type and a
     * checksum that matches. A frame that is not is a torn or corrupt one.
     *
     * @param limit the end of the segment's data
     * @return true if the frame can be served
     */
    public boolean isIntact(int limit) {
        final int length = frameLength();
        if (length < HEADER_LENGTH || length > limit - offset) {
            return false;
        }
        final int type = type();
        if (type < MESSAGE || type > END) {
            return false;
        }
        if (type == HOLE && length != HEADER_LENGTH + HOLE_PAYLOAD_LENGTH) {
            return false;
        }
        if (buffer.getInt(offset + PAYLOAD_LENGTH_OFFSET, ORDER) != length - HEADER_LENGTH) {
            return false;
        }
        return buffer.getInt(offset + CHECKSUM_OFFSET, ORDER) == checksum(length);
    }

    private int checksum(int frameLength) {
        crc.reset();
        view.limit(offset + frameLength).position(offset + TYPE_OFFSET);
        crc.update(view);
        return (int) crc.getValue();
    }
}
