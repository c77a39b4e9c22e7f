package org.nakcast.transport.publish;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The hand-over between the one application thread that offers messages to a publication and
 * the sending thread that packs them into datagrams: a single-producer, single-consumer ring
 * buffer off-heap, plus the flush and close signals. Never blocks and never allocates on offer.
 */
public final class OfferBuffer {
    private static final int MESSAGE_TYPE = 1;

    private final OneToOneRingBuffer ring;
    private final int maxMessageLength;
    private final AtomicBoolean flushRequested = new AtomicBoolean();
    private volatile boolean closed;
    private volatile boolean connected = true;

    /**
     * @param capacity ring capacity in bytes; rounded up to a power of two
     * @param maxMessageLength the largest message accepted; at most an eighth of the capacity
     */
    public OfferBuffer(int capacity, int maxMessageLength) {
        final int ringCapacity = BitUtil.findNextPositivePowerOfTwo(capacity);
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH)));
        this.maxMessageLength = Math.min(maxMessageLength, ring.maxMsgLength());
    }

    /** The largest message an offer accepts, in bytes. */
    public int maxMessageLength() {
        return maxMessageLength;
    }

    /**
     * Copies a message in.
     *
     * @return true if it was taken; false if the buffer is full (back-pressure)
     */
    public boolean offer(DirectBuffer buffer, int offset, int length) {
        return ring.write(MESSAGE_TYPE, buffer, offset, length);
    }

    /**
     * Reserves {@code length} bytes to write a message in place.
     *
     * @return the index of the reserved region in {@link #buffer()}, or a negative value if full
     */
    public int tryClaim(int length) {
        return ring.tryClaim(MESSAGE_TYPE, length);
    }

    /** Publishes a region reserved by {@link #tryClaim}. */
    public void commit(int index) {
        ring.commit(index);
    }

    /** Gives back a region reserved by {@link #tryClaim} without publishing it. */
    public void abort(int index) {
        ring.abort(index);
    }

    /** The memory claimed regions live in. */
    public UnsafeBuffer buffer() {
        return (UnsafeBuffer) ring.buffer();
    }

    /** Asks the sending thread to send a partly filled datagram now rather than after the linger. */
    public void requestFlush() {
        flushRequested.set(true);
    }

    /**
     * Whether a receiver is there to take what is offered: set by the sending thread from the
     * stream's flow control ({@code min} with no live receiver: not connected).
     */
    public boolean isConnected() {
        return connected;
    }

    /** Sets whether a receiver is there; called by the sending thread. */
    void connected(boolean receiversThere) {
        if (connected != receiversThere) {
            connected = receiversThere;
        }
    }

    /** Marks the publication closed: later offers are refused. */
    public void close() {
        closed = true;
    }

    /** Whether the publication was closed. */
    public boolean isClosed() {
        return closed;
    }

    /** The sending thread's side of the ring. */
    RingBuffer ring() {
        return ring;
    }

    /** Takes a pending flush request, if any. */
    boolean takeFlushRequest() {
        return flushRequested.get() && flushRequested.getAndSet(false);
    }
}
