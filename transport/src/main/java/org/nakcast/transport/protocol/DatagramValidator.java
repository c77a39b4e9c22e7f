package org.nakcast.transport.protocol;

import static org.nakcast.transport.protocol.HeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;
import org.nakcast.transport.status.DatagramCheck;

/**
 * Checks every field of a received datagram before any other code reads it. Stateless,
 * allocation-free: after {@link #check} answers {@link DatagramCheck#VALID}, the flyweights can
 * read the datagram without bounds worries and the message frames can be walked without checks.
 */
public final class DatagramValidator {
    private static final int KNOWN_FRAME_FLAGS = MessageFrame.BEGIN | MessageFrame.END;

    private DatagramValidator() {
    }

    /**
     * Checks the datagram of {@code length} bytes at {@code offset} that arrived on {@code port}:
     * every field, then that its type travels to that port ({@link FrameType#port()}).
     *
     * @return {@link DatagramCheck#VALID}, the first problem found, or
     *     {@link DatagramCheck#WRONG_PORT} for a valid datagram of the other port's type
     */
    public static DatagramCheck check(DirectBuffer buffer, int offset, int length, FrameType.Port port) {
        final DatagramCheck check = check(buffer, offset, length);
        return check != DatagramCheck.VALID || FrameType.belongsOn(port, HeaderFlyweight.typeCodeAt(buffer, offset))
            ? check : DatagramCheck.WRONG_PORT;
    }

    /**
     * Checks the datagram of {@code length} bytes at {@code offset}.
     *
     * @return {@link DatagramCheck#VALID} or the first problem found
     */
    public static DatagramCheck check(DirectBuffer buffer, int offset, int length) {
        if (length < HeaderFlyweight.HEADER_LENGTH) {
            return DatagramCheck.TOO_SHORT;
        }
        if (buffer.getShort(offset + HeaderFlyweight.MAGIC_OFFSET, BYTE_ORDER) != HeaderFlyweight.MAGIC) {
            return DatagramCheck.BAD_MAGIC;
        }
        if ((buffer.getByte(offset + HeaderFlyweight.VERSION_OFFSET) & 0xFF) != HeaderFlyweight.CURRENT_VERSION) {
            return DatagramCheck.UNSUPPORTED_VERSION;
        }
        final FrameType type = FrameType.fromCode(buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF);
        if (type == null) {
            return DatagramCheck.UNKNOWN_TYPE;
        }
        final int flags = buffer.getShort(offset + HeaderFlyweight.FLAGS_OFFSET, BYTE_ORDER) & 0xFFFF;
        final int allowedFlags = switch (type) {
            case DATA, RETRANSMIT -> HeaderFlyweight.AGE_CLASS_MASK | HeaderFlyweight.STATUS_WANTED_FLAG;
            case HEARTBEAT -> HeaderFlyweight.END_OF_STREAM_FLAG;
            default -> 0;
        };
        if ((flags & ~allowedFlags) != 0) {
            return DatagramCheck.BAD_FLAGS;
        }
        if ((buffer.getShort(offset + HeaderFlyweight.LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF) != length) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        if (buffer.getInt(offset + HeaderFlyweight.TOPIC_ID_OFFSET, BYTE_ORDER) <= 0) {
            return DatagramCheck.BAD_TOPIC;
        }
        final long sequence = buffer.getLong(offset + HeaderFlyweight.SEQUENCE_OFFSET, BYTE_ORDER);
        switch (type) {
            case DATA:
            case RETRANSMIT:
                return checkData(buffer, offset, length, sequence);
            case HEARTBEAT:
                return checkHeartbeat(buffer, offset, length, sequence);
            case NAK:
                return checkNak(buffer, offset, length);
            case UNRECOVERABLE:
                return checkUnrecoverable(buffer, offset, length);
            case STATUS:
                return checkStatus(length, sequence);
            default:
                return DatagramCheck.UNKNOWN_TYPE;
        }
    }

    private static DatagramCheck checkData(DirectBuffer buffer, int offset, int length, long sequence) {
        if (length < DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        if (sequence < 0 || buffer.getLong(offset + DataFlyweight.COMPLETED_MESSAGES_OFFSET, BYTE_ORDER) < 0) {
            return DatagramCheck.BAD_SEQUENCE;
        }
        return checkFrames(buffer, offset + DataFlyweight.DATA_HEADER_LENGTH, offset + length);
    }

    /**
     * Frames must tile the payload exactly; only the first frame may continue an earlier message
     * (no BEGIN), and only the last may leave its message unfinished (no END).
     */
    private static DatagramCheck checkFrames(DirectBuffer buffer, int firstFrameOffset, int end) {
        int frameOffset = firstFrameOffset;
        while (frameOffset < end) {
            if (end - frameOffset < MessageFrame.FRAME_HEADER_LENGTH) {
                return DatagramCheck.BAD_FRAMES;
            }
            final int flags = MessageFrame.flags(buffer, frameOffset);
            final int reserved = buffer.getByte(frameOffset + MessageFrame.FLAGS_OFFSET + 1);
            final int next = frameOffset + MessageFrame.FRAME_HEADER_LENGTH
                + MessageFrame.fragmentLength(buffer, frameOffset);
            if ((flags & ~KNOWN_FRAME_FLAGS) != 0 || reserved != 0 || next > end) {
                return DatagramCheck.BAD_FRAMES;
            }
            final boolean continuesEarlier = !MessageFrame.isBegin(flags) && frameOffset != firstFrameOffset;
            final boolean unfinished = !MessageFrame.isEnd(flags) && next != end;
            if (continuesEarlier || unfinished) {
                return DatagramCheck.BAD_FRAMES;
            }
            frameOffset = next;
        }
        return DatagramCheck.VALID;
    }

    private static DatagramCheck checkHeartbeat(DirectBuffer buffer, int offset, int length, long highestSequence) {
        if (length != HeartbeatFlyweight.HEARTBEAT_LENGTH) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        final long oldest = buffer.getLong(offset + HeartbeatFlyweight.OLDEST_SEQUENCE_OFFSET, BYTE_ORDER);
        final long ageNs = buffer.getLong(offset + HeartbeatFlyweight.SESSION_AGE_OFFSET, BYTE_ORDER);
        if (highestSequence < -1 || oldest < 0 || oldest > highestSequence + 1 || ageNs < 0) {
            return DatagramCheck.BAD_SEQUENCE;
        }
        return DatagramCheck.VALID;
    }

    private static DatagramCheck checkStatus(int length, long sequence) {
        if (length != StatusFlyweight.STATUS_LENGTH) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        return sequence < 0 ? DatagramCheck.BAD_SEQUENCE : DatagramCheck.VALID;
    }

    private static DatagramCheck checkNak(DirectBuffer buffer, int offset, int length) {
        if (length < NakFlyweight.NAK_HEADER_LENGTH) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        final int rangeCount = buffer.getInt(offset + NakFlyweight.RANGE_COUNT_OFFSET, BYTE_ORDER);
        if (rangeCount < 1 || rangeCount > NakFlyweight.maxRanges(length)
            || length != NakFlyweight.lengthFor(rangeCount)) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        long previousTo = -1;
        long asked = 0;
        for (int i = 0; i < rangeCount; i++) {
            final int rangeOffset = offset + NakFlyweight.RANGES_OFFSET + i * NakFlyweight.RANGE_LENGTH;
            final long from = buffer.getLong(rangeOffset, BYTE_ORDER);
            final long to = buffer.getLong(rangeOffset + Long.BYTES, BYTE_ORDER);
            if (from <= previousTo || to < from) {
                return DatagramCheck.BAD_SEQUENCE;
            }
            // a span or a sum past Long.MAX_VALUE wraps round to a negative count: too wide as well
            asked += to - from + 1;
            if (asked > NakFlyweight.MAX_DATAGRAMS_ASKED || asked <= 0) {
                return DatagramCheck.NAK_TOO_WIDE;
            }
            previousTo = to;
        }
        return DatagramCheck.VALID;
    }

    private static DatagramCheck checkUnrecoverable(DirectBuffer buffer, int offset, int length) {
        if (length != UnrecoverableFlyweight.UNRECOVERABLE_LENGTH) {
            return DatagramCheck.LENGTH_MISMATCH;
        }
        final long from = buffer.getLong(offset + UnrecoverableFlyweight.FROM_OFFSET, BYTE_ORDER);
        final long to = buffer.getLong(offset + UnrecoverableFlyweight.TO_OFFSET, BYTE_ORDER);
        final long after = buffer.getLong(offset + UnrecoverableFlyweight.FIRST_MESSAGE_AFTER_OFFSET, BYTE_ORDER);
        if (from < 0 || to < from || after < 0) {
            return DatagramCheck.BAD_SEQUENCE;
        }
        return DatagramCheck.VALID;
    }
}
