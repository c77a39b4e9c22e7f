package org.nakcast.transport.testing;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.MessageFrame;

/**
 * Builds DATA and RETRANSMIT datagrams for tests with the protocol's own flyweights, into one
 * reused buffer: {@link #start} a datagram, add frames, then read {@link #buffer()} and
 * {@link #length()}. Allocation-free after construction, so allocation tests can use it.
 */
public final class DataDatagramBuilder {
    private final UnsafeBuffer buffer =
        new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
    private final DataFlyweight header = new DataFlyweight();
    private final int sessionId;
    private final int topicId;
    private int length;

    /**
     * @param sessionId the session every datagram carries
     * @param topicId the topic every datagram carries
     */
    public DataDatagramBuilder(int sessionId, int topicId) {
        this.sessionId = sessionId;
        this.topicId = topicId;
        header.wrap(buffer, 0);
    }

    /**
     * Starts a DATA datagram.
     *
     * @return this
     */
    public DataDatagramBuilder start(long sequence, long completedMessages) {
        length = DataFlyweight.DATA_HEADER_LENGTH;
        header.writeHeader(FrameType.DATA, length, sessionId, topicId, sequence);
        header.completedMessages(completedMessages);
        return this;
    }

    /**
     * Appends a frame with {@code flags} whose fragment is {@code fragmentLength} bytes from {@code source}.
     *
     * @return this
     */
    public DataDatagramBuilder frame(int flags, DirectBuffer source, int offset, int fragmentLength) {
        MessageFrame.write(buffer, length, fragmentLength, flags);
        buffer.putBytes(length + MessageFrame.FRAME_HEADER_LENGTH, source, offset, fragmentLength);
        length += MessageFrame.FRAME_HEADER_LENGTH + fragmentLength;
        header.datagramLength(length);
        return this;
    }

    /**
     * Appends a frame with {@code flags} carrying {@code fragment}.
     *
     * @return this
     */
    public DataDatagramBuilder frame(int flags, byte[] fragment) {
        return frame(flags, new UnsafeBuffer(fragment), 0, fragment.length);
    }

    /**
     * Appends a whole message.
     *
     * @return this
     */
    public DataDatagramBuilder message(byte[] message) {
        return frame(MessageFrame.UNFRAGMENTED, message);
    }

    /**
     * Changes the datagram's sequence.
     *
     * @return this
     */
    public DataDatagramBuilder sequence(long sequence) {
        header.sequence(sequence);
        return this;
    }

    /**
     * Changes the datagram's completed-message count.
     *
     * @return this
     */
    public DataDatagramBuilder completedMessages(long count) {
        header.completedMessages(count);
        return this;
    }

    /**
     * Marks the datagram a RETRANSMIT (or DATA again).
     *
     * @return this
     */
    public DataDatagramBuilder retransmit(boolean retransmit) {
        header.type(retransmit ? FrameType.RETRANSMIT : FrameType.DATA);
        return this;
    }

    /** Holds the datagram from offset 0. */
    public UnsafeBuffer buffer() {
        return buffer;
    }

    /** The datagram's length so far. */
    public int length() {
        return length;
    }

    /** A copy of the datagram. */
    public byte[] toBytes() {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
