package org.nakcast.transport.receive;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Joins the fragments of one message. The buffer starts small and doubles as fragments need,
 * never past the largest message allowed; its size follows the bytes that actually arrived, never a
 * length read off the wire. Once grown it stays grown, so messages up to that size cost no
 * allocation.
 */
final class Reassembler {
    /** The starting buffer size, at most the largest message: enough for a few dozen fragments. */
    static final int INITIAL_CAPACITY = 64 * 1024;

    private final int maxLength;
    private final UnsafeBuffer buffer;
    private int length;
    private long beginSequence;
    private boolean assembling;

    /** @param maxLength the largest message joined; longer ones are refused */
    Reassembler(int maxLength) {
        this.maxLength = maxLength;
        this.buffer = new UnsafeBuffer(new byte[Math.min(INITIAL_CAPACITY, maxLength)]);
    }

    /** Whether a message is being joined. */
    boolean isAssembling() {
        return assembling;
    }

    /** The sequence of the datagram that holds the first fragment of the message being joined. */
    long beginSequence() {
        return beginSequence;
    }

    /** Starts a message whose first fragment is in datagram {@code sequence}. */
    void begin(long sequence) {
        assembling = true;
        beginSequence = sequence;
        length = 0;
    }

    /**
     * Appends a fragment to the message being joined.
     *
     * @return false if the message would pass the largest length allowed: nothing was appended
     */
    boolean append(DirectBuffer source, int offset, int fragmentLength) {
        final int needed = length + fragmentLength;
        if (needed > maxLength) {
            return false;
        }
        if (needed > buffer.capacity()) {
            final byte[] grown = new byte[(int) Math.min(maxLength, Math.max(needed, 2L * buffer.capacity()))];
            buffer.getBytes(0, grown, 0, length);
            buffer.wrap(grown);
        }
        buffer.putBytes(length, source, offset, fragmentLength);
        length = needed;
        return true;
    }

    /**
     * Ends the message being joined; its bytes stay in {@link #buffer()} until the next
     * {@link #begin}.
     *
     * @return the message's length
     */
    int finish() {
        assembling = false;
        return length;
    }

    /** Gives up the message being joined. */
    void abandon() {
        assembling = false;
    }

    /** Bytes joined so far. */
    int length() {
        return length;
    }

    /** The largest message joined. */
    int maxLength() {
        return maxLength;
    }

    /** Holds the joined bytes from offset 0. */
    DirectBuffer buffer() {
        return buffer;
    }

    /** The current buffer size. */
    int capacity() {
        return buffer.capacity();
    }
}
